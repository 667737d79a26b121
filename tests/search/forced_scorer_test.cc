// Forced scoring (nmt-score) against beam search (nmt-decode): the sum of a translation's
// token log-probabilities is the hypothesis's log_probability bit for bit, for one model
// and a weighted ensemble, in any batch; equal explicit weights search exactly as none;
// per-word scores join BPE pieces; Moses n-best lines parse and take a feature.
#include <boost/test/unit_test.hpp>

#include <sstream>

#include "data/vocabulary.h"
#include "model/model_file.h"
#include "search/beam_search.h"
#include "search/forced_scorer.h"
#include "search/nbest_list.h"
#include "search/word_scores.h"
#include "support/error_message.h"
#include "support/temp_dir.h"
#include "train/trainer.h"
#include "util/rng.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

// Two models trained briefly (different seeds) on reversing 2-7 words, and test sources.
struct TwoModels {
  rt::TempDir dir;
  std::vector<model::LoadedModel> loaded;
  std::vector<std::vector<std::int32_t>> sources;

  TwoModels() {
    util::Rng rng(8);
    std::ostringstream source, target;
    for (int i = 0; i < 1500; ++i) {
      const int length = 2 + static_cast<int>(rng.below(6));
      std::vector<std::string> words;
      for (int k = 0; k < length; ++k) words.push_back("w" + std::to_string(rng.below(12)));
      for (int k = 0; k < length; ++k) source << (k ? " " : "") << words[static_cast<std::size_t>(k)];
      for (int k = length - 1; k >= 0; --k) target << (k != length - 1 ? " " : "") << words[static_cast<std::size_t>(k)];
      source << '\n';
      target << '\n';
    }
    for (const unsigned seed : {1u, 2u}) {
      train::TrainOptions config;
      config.train_source = dir.write("train.src", source.str());
      config.train_target = dir.write("train.tgt", target.str());
      config.model_path = (dir.path() / ("model" + std::to_string(seed))).string();
      config.model.embedding = config.model.encoder_hidden = config.model.attention = config.model.maxout = 16;
      config.model.decoder_hidden = 32;
      config.batching.sentences = 32;
      config.dropout = 0.0f;
      config.learning_rate = 3e-3f;
      config.max_updates = 60;
      config.seed = seed;
      config.quiet = true;
      train::run_training(config);
      loaded.push_back(model::read_model_file(config.model_path));
    }
    std::istringstream lines(source.str());
    std::string line;
    for (int i = 0; i < 40 && std::getline(lines, line); ++i) sources.push_back(data::to_ids(line, loaded[0].source_vocabulary));
  }

  std::vector<model::RnnSearch*> members(std::size_t count) {
    std::vector<model::RnnSearch*> out;
    for (std::size_t m = 0; m < count; ++m) out.push_back(loaded[m].model.get());
    return out;
  }
};

// Every complete hypothesis of a beam search rescored in batches of `batch` sentences.
void check_scores_equal_search(TwoModels& task, std::size_t models, const std::vector<double>& weights, std::size_t batch) {
  search::BeamOptions options;
  options.beam_size = options.n_best = 3;
  options.weights = weights;
  const std::vector<std::vector<std::vector<std::int32_t>>> sources(models, task.sources);
  const auto beams = search::beam_search(task.members(models), sources, options);
  std::vector<std::vector<std::int32_t>> targets;
  std::vector<double> expected;
  for (const auto& hypotheses : beams) {
    for (const auto& h : hypotheses) {
      if (!h.complete) continue;
      targets.push_back(h.tokens);
      expected.push_back(h.log_probability);
    }
  }
  std::vector<std::size_t> of_source;  // the source of each target
  for (std::size_t i = 0; i < beams.size(); ++i) {
    for (const auto& h : beams[i]) {
      if (h.complete) of_source.push_back(i);
    }
  }
  std::vector<std::vector<std::vector<std::int32_t>>> paired(models);
  for (auto& set : paired) {
    for (const std::size_t i : of_source) set.push_back(task.sources[i]);
  }
  search::ForcedScorer scorer(task.members(models), weights);
  std::vector<std::vector<float>> scores(targets.size());
  for (std::size_t begin = 0; begin < targets.size(); begin += batch) {
    std::vector<std::size_t> indices;
    for (std::size_t i = begin; i < std::min(targets.size(), begin + batch); ++i) indices.push_back(i);
    scorer.score(paired, targets, indices, scores);
  }
  BOOST_TEST_REQUIRE(targets.size() >= 60u);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    BOOST_TEST(scores[i].size() == targets[i].size() + 1);
    BOOST_TEST(search::sum_log_probs(scores[i]) == expected[i], "target " << i << " batch " << batch);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(forced_scorer)

BOOST_AUTO_TEST_CASE(scores_are_beam_searchs_log_probabilities_bit_for_bit) {
  TwoModels task;
  for (const std::size_t batch : {1u, 7u, 200u}) {
    check_scores_equal_search(task, 1, {}, batch);
    check_scores_equal_search(task, 2, {}, batch);
    check_scores_equal_search(task, 2, {1.0, 3.0}, batch);
  }
}

BOOST_AUTO_TEST_CASE(equal_explicit_weights_search_as_none) {
  TwoModels task;
  search::BeamOptions options;
  options.beam_size = options.n_best = 3;
  const std::vector<std::vector<std::vector<std::int32_t>>> sources(2, task.sources);
  const auto plain = search::beam_search(task.members(2), sources, options);
  options.weights = {0.3, 0.3};
  const auto equal = search::beam_search(task.members(2), sources, options);
  options.weights = {1.0, 4.0};
  const auto weighted = search::beam_search(task.members(2), sources, options);
  bool differ = false;
  for (std::size_t i = 0; i < plain.size(); ++i) {
    for (std::size_t k = 0; k < plain[i].size(); ++k) {
      BOOST_TEST(plain[i][k].tokens == equal[i][k].tokens);
      BOOST_TEST(plain[i][k].log_probability == equal[i][k].log_probability);
      differ = differ || plain[i][k].log_probability != weighted[i][k].log_probability;
    }
  }
  BOOST_TEST(differ);
}

BOOST_AUTO_TEST_CASE(word_scores_join_bpe_pieces_then_give_end_of_sentence) {
  const std::vector<std::string_view> pieces{"ab@@", "c", "d", "e@@", "f@@", "g"};
  BOOST_TEST(search::word_scores_text(pieces, {-1, -2, -3, -0.5, -0.25, -0.25, -4}) == "-3 -3 -1 -4");
  BOOST_TEST(search::word_scores_text(pieces, {-1, -2, -3, -0.5, -0.25, -0.25}) == "-3 -3 -1");  // cut: no </s>
  BOOST_TEST(search::word_scores_text({}, {-0.5}) == "-0.5");
  BOOST_TEST(search::word_scores_text({"x@@"}, {-1, -2}) == "-1 -2");  // a last piece ending in @@ ends its word
}

BOOST_AUTO_TEST_CASE(n_best_lines_parse_and_take_a_feature_byte_for_byte) {
  const std::string line = "12 ||| a b@@ c ||| F0= -1.5 WordScores= -1 -0.5 ||| -0.75 ||| 0-1 1-0";
  const auto entry = search::parse_nbest_line(line, "f", 3);
  BOOST_TEST(entry.id == 12u);
  BOOST_TEST(entry.translation == "a b@@ c");
  BOOST_TEST(search::with_feature(line, entry, "R2L", "-2") ==
             "12 ||| a b@@ c ||| F0= -1.5 WordScores= -1 -0.5 R2L= -2 ||| -0.75 ||| 0-1 1-0");
  const auto features = search::parse_features(entry.features, "f", 3);
  BOOST_TEST_REQUIRE(features.size() == 2u);
  BOOST_TEST(features[1].name == "WordScores");
  BOOST_TEST((features[1].values == std::vector<double>{-1, -0.5}));
  BOOST_TEST(search::parse_nbest_line("0 |||  ||| F0= 0 ||| 0", "f", 1).translation.empty());
  const auto message = [](const std::string& text) {
    return rt::error_message([&] { search::parse_features(search::parse_nbest_line(text, "f", 7).features, "f", 7); });
  };
  BOOST_TEST(message("x ||| a ||| F0= 1 ||| 1").find("f:7: the sentence number 'x'") == 0u);
  BOOST_TEST(message("0 ||| a ||| F0= one ||| 1").find("f:7: feature F0= has the value 'one'") == 0u);
  BOOST_TEST(message("0 ||| a ||| -1 ||| 1").find("f:7: the features field starts with '-1'") == 0u);
  BOOST_TEST(message("0 ||| a").find("f:7: found 2 of 4 fields") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
