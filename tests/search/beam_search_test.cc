// Beam search on a model trained on a reversal task: beam 1 is exactly greedy, n-best
// scores are the model's own log-probabilities of those translations, batched search
// equals one sentence at a time, and hypotheses come best first.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "align/aer.h"
#include "search/attention_alignment.h"
#include "data/batch.h"
#include "data/parallel_corpus.h"
#include "data/vocabulary.h"
#include "model/model_file.h"
#include "search/beam_search.h"
#include "search/greedy.h"
#include "search/translator.h"
#include "support/temp_dir.h"
#include "train/trainer.h"
#include "util/line_reader.h"
#include "util/rng.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

// A model trained for a second on reversing sentences of 3-7 words, and held-out sources.
struct TrainedReversal {
  rt::TempDir dir;
  model::LoadedModel loaded;
  std::vector<std::vector<std::int32_t>> sources;
  std::string test_text;  // the held-out sources, a line each

  // deep: --layer-normalization --enc-cell-depth 2 --dec-cell-depth 3.
  explicit TrainedReversal(long updates = 100, bool deep = false) {
    util::Rng rng(21);
    std::ostringstream source, target, test;
    for (int i = 0; i < 2300; ++i) {
      const int length = 3 + static_cast<int>(rng.below(5));
      std::vector<std::string> words;
      for (int k = 0; k < length; ++k) words.push_back("w" + std::to_string(rng.below(12)));
      std::ostream& out = i < 2000 ? source : test;
      for (int k = 0; k < length; ++k) out << (k ? " " : "") << words[static_cast<std::size_t>(k)];
      out << '\n';
      if (i < 2000) {
        for (int k = length - 1; k >= 0; --k) target << (k != length - 1 ? " " : "") << words[static_cast<std::size_t>(k)];
        target << '\n';
      }
    }
    train::TrainOptions config;
    config.train_source = dir.write("train.src", source.str());
    config.train_target = dir.write("train.tgt", target.str());
    config.model_path = (dir.path() / "model.bin").string();
    config.model.embedding = config.model.encoder_hidden = config.model.attention = config.model.maxout = 32;
    config.model.decoder_hidden = 64;
    config.batching.sentences = 32;
    config.dropout = 0.0f;
    config.learning_rate = 3e-3f;
    config.max_updates = updates;  // 100 by default: the model still makes mistakes for beams to differ
    config.model.layer_norm = deep;
    config.model.encoder_depth = deep ? 2 : 1;
    config.model.decoder_depth = deep ? 3 : 1;
    config.quiet = true;
    train::run_training(config);
    loaded = model::read_model_file(config.model_path);
    test_text = test.str();
    std::istringstream lines(test.str());
    for (std::string line; std::getline(lines, line);) sources.push_back(data::to_ids(line, loaded.source_vocabulary));
  }
};

// The reversal of a source: what a perfect model translates it to.
std::vector<std::int32_t> reversed_in_target_ids(const TrainedReversal& task, const std::vector<std::int32_t>& source) {
  std::vector<std::int32_t> target;
  for (auto it = source.rbegin(); it != source.rend(); ++it) {
    target.push_back(*task.loaded.target_vocabulary.find(task.loaded.source_vocabulary.token(*it)));
  }
  return target;
}

// -log p(target </s> | source) under the model, teacher-forced.
double model_cost(model::RnnSearch& net, const std::vector<std::int32_t>& source, const std::vector<std::int32_t>& target) {
  const std::vector<std::vector<std::int32_t>> sources{source}, targets{target};
  const data::Batch batch = data::make_batch(sources, &targets, {0});
  return net.loss(batch, {}, 0.0f).loss;
}

// `copies` copies of the one sentence of `in`, as a batch of its own: the reference search
// gives every hypothesis its own copy of the encoding, where beam_search maps its rows to
// one.
model::EncoderOutput copies_of_sentence(const model::EncoderOutput& in, int copies) {
  model::EncoderOutput out;
  out.sentences = copies;
  out.source_length = in.source_length;
  out.annotations.resize(in.annotations.rows() * copies, in.annotations.cols());  // row j*copies + c: position j
  out.keys.resize(in.keys.rows() * copies, in.keys.cols());
  for (Eigen::Index r = 0; r < out.annotations.rows(); ++r) {
    out.annotations.row(r) = in.annotations.row(r / copies);
    out.keys.row(r) = in.keys.row(r / copies);
  }
  out.source_mask = in.source_mask.replicate(1, copies);
  out.initial_state = in.initial_state.replicate(copies, 1);
  return out;
}

// The search as beam_search.h states it, without its shortcuts: one sentence, every word
// of every live row a candidate, all of them sorted by (log-probability, row, word), the
// best `width` kept, histories copied; finished hypotheses stably sorted by score.
std::vector<search::Hypothesis> reference_search(model::RnnSearch& net, const std::vector<std::int32_t>& source,
                                                 const search::BeamOptions& options) {
  struct Live {
    std::vector<std::int32_t> tokens;
    double log_probability = 0.0;
    std::vector<std::vector<float>> attention;
  };
  struct Extension {
    double log_probability;
    int row;
    std::int32_t word;
  };
  model::EncoderOutput encoded;
  const data::Batch batch = data::make_batch(std::vector<std::vector<std::int32_t>>{source}, nullptr, {0});
  net.encode(batch.source, batch.source_mask, encoded);
  const int limit = search::target_length_limit(options.max_length_ratio, source.size());
  std::vector<Live> live(1);
  std::vector<search::Hypothesis> finished;
  math::Matrix state = encoded.initial_state, next_state, log_probs, weights;
  for (int step = 0; !live.empty(); ++step) {
    std::vector<std::int32_t> previous;
    for (const Live& h : live) previous.push_back(h.tokens.empty() ? data::Vocabulary::kBos : h.tokens.back());
    const model::EncoderOutput rows = copies_of_sentence(encoded, static_cast<int>(live.size()));
    net.decoder_step(rows, nullptr, previous, state, log_probs, next_state, weights);
    std::vector<Extension> all;
    for (int r = 0; r < static_cast<int>(live.size()); ++r) {
      for (std::int32_t w = 0; w < static_cast<std::int32_t>(log_probs.cols()); ++w) {
        all.push_back({live[r].log_probability + static_cast<double>(log_probs(r, w)), r, w});
      }
    }
    std::sort(all.begin(), all.end(), [](const Extension& a, const Extension& b) {
      return a.log_probability != b.log_probability ? a.log_probability > b.log_probability
                                                    : a.row != b.row ? a.row < b.row : a.word < b.word;
    });
    const std::size_t width = static_cast<std::size_t>(options.beam_size) - finished.size();
    std::vector<Live> next;
    math::Matrix next_rows(0, next_state.cols());
    for (std::size_t k = 0; k < width; ++k) {
      Live h = live[static_cast<std::size_t>(all[k].row)];
      h.log_probability = all[k].log_probability;
      if (options.attention) {
        const auto alpha = weights.row(all[k].row);
        h.attention.emplace_back(alpha.data(), alpha.data() + source.size() + 1);
      }
      const bool ends = all[k].word == data::Vocabulary::kEos;
      if (!ends) h.tokens.push_back(all[k].word);
      if (ends || step + 1 >= limit) {
        const double length = static_cast<double>(h.tokens.size() + (ends ? 1 : 0));
        finished.push_back({h.tokens, h.log_probability, h.log_probability / std::pow(length, options.length_penalty),
                            ends, h.attention, {}});
        continue;
      }
      next.push_back(h);
      next_rows.conservativeResize(next_rows.rows() + 1, Eigen::NoChange);
      next_rows.row(next_rows.rows() - 1) = next_state.row(all[k].row);
    }
    live = next;
    state = next_rows;
  }
  std::stable_sort(finished.begin(), finished.end(),
                   [](const search::Hypothesis& a, const search::Hypothesis& b) { return a.score > b.score; });
  finished.resize(std::min(finished.size(), static_cast<std::size_t>(options.n_best)));
  return finished;
}

// beam_search's n-best lists equal reference_search's, to the bit, for the first `count` sources.
void check_against_reference(model::RnnSearch& net, const std::vector<std::vector<std::int32_t>>& sources,
                             std::size_t count, search::BeamOptions options) {
  const std::vector<std::vector<std::int32_t>> some(sources.begin(), sources.begin() + static_cast<std::ptrdiff_t>(count));
  options.n_best = options.beam_size;
  options.attention = true;
  for (const int batch : {1, 7}) {
    options.batch_size = batch;
    const auto beams = search::beam_search(net, some, options);
    for (std::size_t i = 0; i < some.size(); ++i) {
      const auto expected = reference_search(net, some[i], options);
      BOOST_TEST_INFO("sentence " << i << ", beam " << options.beam_size << ", batches of " << batch);
      BOOST_TEST_REQUIRE(beams[i].size() == expected.size());
      for (std::size_t h = 0; h < expected.size(); ++h) {
        BOOST_TEST((beams[i][h].tokens == expected[h].tokens), "hypothesis " << h);
        BOOST_TEST(beams[i][h].log_probability == expected[h].log_probability);
        BOOST_TEST(beams[i][h].score == expected[h].score);
        BOOST_TEST(beams[i][h].complete == expected[h].complete);
        BOOST_TEST((beams[i][h].attention == expected[h].attention));
      }
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(beam_search)

BOOST_AUTO_TEST_CASE(beam_one_is_exactly_greedy) {
  TrainedReversal task;
  search::BeamOptions options;
  options.beam_size = 1;
  options.batch_size = 64;
  search::GreedyOptions greedy_options;
  greedy_options.batch_size = 64;
  const auto beams = search::beam_search(*task.loaded.model, task.sources, options);
  const auto greedy = search::greedy_translate(*task.loaded.model, task.sources, greedy_options);
  for (std::size_t i = 0; i < task.sources.size(); ++i) {
    BOOST_TEST_REQUIRE(beams[i].size() == 1u);
    BOOST_TEST((beams[i][0].tokens == greedy[i]), "sentence " << i);
  }
}

BOOST_AUTO_TEST_CASE(n_best_scores_are_the_models_scores_best_first) {
  TrainedReversal task;
  search::BeamOptions options;
  options.beam_size = 5;
  options.n_best = 5;
  const auto beams = search::beam_search(*task.loaded.model, task.sources, options);
  std::size_t checked = 0;
  for (std::size_t i = 0; i < 60; ++i) {
    BOOST_TEST_REQUIRE(beams[i].size() == 5u);
    for (std::size_t k = 0; k < beams[i].size(); ++k) {
      const auto& h = beams[i][k];
      if (k > 0) BOOST_TEST(beams[i][k - 1].score >= h.score);
      const std::size_t length = h.tokens.size() + (h.complete ? 1 : 0);
      BOOST_TEST(h.score == h.log_probability / static_cast<double>(length), "sentence " << i);
      if (!h.complete) continue;  // cut at the length limit: no </s> to score
      const double cost = model_cost(*task.loaded.model, task.sources[i], h.tokens);
      BOOST_TEST(std::fabs(-cost - h.log_probability) < 1e-3 * std::max(1.0, cost), "sentence " << i << " hyp " << k);
      ++checked;
    }
  }
  BOOST_TEST_MESSAGE(checked << " of 300 hypotheses ended with </s> and were rescored");
  BOOST_TEST(checked >= 150u);
  // The short training leaves mistakes: a wider beam changes some translations.
  search::BeamOptions greedy_like;
  greedy_like.beam_size = 1;
  const auto one = search::beam_search(*task.loaded.model, task.sources, greedy_like);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < task.sources.size(); ++i) differ += one[i][0].tokens != beams[i][0].tokens ? 1 : 0;
  BOOST_TEST_MESSAGE("beam 5 differs from greedy on " << differ << " of " << task.sources.size());
  BOOST_TEST(differ > 0u);
}

BOOST_AUTO_TEST_CASE(batched_search_equals_one_sentence_at_a_time) {
  // Every hypothesis of the n-best list, its scores and its attention, to the bit: a
  // sentence's numbers must not depend on the sentences searched beside it.
  TrainedReversal task;
  const std::vector<std::vector<std::int32_t>> some(task.sources.begin(), task.sources.begin() + 80);
  search::BeamOptions options;
  options.beam_size = 4;
  options.n_best = 4;
  options.attention = true;
  options.batch_size = 1;
  const auto single = search::beam_search(*task.loaded.model, some, options);
  for (const int batch : {7, 40}) {
    options.batch_size = batch;
    const auto batched = search::beam_search(*task.loaded.model, some, options);
    for (std::size_t i = 0; i < some.size(); ++i) {
      BOOST_TEST_INFO("sentence " << i << ", batches of " << batch);
      BOOST_TEST_REQUIRE(batched[i].size() == single[i].size());
      for (std::size_t h = 0; h < single[i].size(); ++h) {
        BOOST_TEST((batched[i][h].tokens == single[i][h].tokens));
        BOOST_TEST(batched[i][h].log_probability == single[i][h].log_probability);
        BOOST_TEST(batched[i][h].score == single[i][h].score);
        BOOST_TEST((batched[i][h].attention == single[i][h].attention));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(hard_attention_alignments_of_a_reordering_task_have_low_aer) {
  // Reversal links source word i to target word L-1-i: attention must find them.
  TrainedReversal task(400);
  search::BeamOptions options;
  options.attention = true;
  const auto beams = search::beam_search(*task.loaded.model, task.sources, options);
  align::AlignmentScores scores;
  std::size_t exact = 0;
  for (std::size_t i = 0; i < task.sources.size(); ++i) {
    const auto& best = beams[i][0];
    if (best.tokens != reversed_in_target_ids(task, task.sources[i])) continue;
    ++exact;
    const int length = static_cast<int>(task.sources[i].size());
    data::GoldAlignment gold;
    for (int k = 0; k < length; ++k) gold.sure.push_back({k, length - 1 - k});
    std::sort(gold.sure.begin(), gold.sure.end());
    gold.possible = gold.sure;
    scores.add(search::hard_alignment(best.attention, task.sources[i].size(), best.tokens.size()), gold);
  }
  BOOST_TEST_MESSAGE("exact reversals " << exact << " of " << task.sources.size() << ", AER " << scores.aer());
  BOOST_TEST(exact >= task.sources.size() * 8 / 10);
  BOOST_TEST(scores.aer() <= 0.01);  // the README's figure: 0.0011 on AVX-512, 0 on an AVX2 EPYC
}

BOOST_AUTO_TEST_CASE(n_best_lists_equal_the_plain_search) {
  TrainedReversal task;
  search::BeamOptions options;
  for (const int beam : {1, 3, 5}) {
    options.beam_size = beam;
    check_against_reference(*task.loaded.model, task.sources, 40, options);
  }
}

BOOST_AUTO_TEST_CASE(ties_go_to_the_earlier_row_then_the_lower_word) {
  // No weights, and output biases equal in pairs (-floor(w / 2)): every step's
  // log-probabilities tie word 2k with 2k + 1, and all rows tie with each other, so the
  // hypotheses kept, their order and the n-best order (equal scores keep the order of
  // finishing) are decided by the tie rules alone.
  TrainedReversal task(1);
  model::RnnSearch tied(task.loaded.model->config());
  for (nn::Parameter* p : tied.parameters().all()) p->value.setZero();
  math::Matrix& bias = tied.parameters().get("decoder.output.b").value;
  for (Eigen::Index w = 0; w < bias.cols(); ++w) bias(0, w) = -static_cast<float>(w / 2);
  search::BeamOptions options;
  options.max_length_ratio = 0.5;  // 11-13 tokens: the reference search stays quick
  for (const int beam : {1, 2, 3, 5}) {  // a row's beam-th and next words tie at beams 1 and 3
    options.beam_size = beam;
    options.length_penalty = 1.0;
    check_against_reference(tied, task.sources, 12, options);
    options.length_penalty = 0.0;
    check_against_reference(tied, task.sources, 12, options);
  }
  // By hand, beam 2: </s> (word 3) ties with word 2 and loses to words 0 and 1, so the
  // best hypothesis is cut at the limit; the most probable is all zeros.
  options.beam_size = 2;
  options.n_best = 2;
  options.length_penalty = 0.0;
  const auto beams = search::beam_search(tied, {task.sources[0]}, options);
  const int limit = search::target_length_limit(options.max_length_ratio, task.sources[0].size());
  BOOST_TEST_REQUIRE(beams[0].size() == 2u);
  BOOST_TEST((beams[0][0].tokens == std::vector<std::int32_t>(static_cast<std::size_t>(limit), 0)));
  BOOST_TEST(!beams[0][0].complete);
  std::vector<std::int32_t> second(static_cast<std::size_t>(limit), 0);
  second.back() = 1;
  BOOST_TEST((beams[0][1].tokens == second));
}

// nmt-decode's whole output (4-best lists with their scores and soft alignments, which
// show every bit that matters) of the held-out sources in a precision.
std::vector<std::string> decode_lines(TrainedReversal& task, math::Precision precision, int mini_batch, int threads) {
  std::vector<model::LoadedModel> models;
  models.push_back(std::move(task.loaded));
  search::TranslateOptions options;
  options.beam.beam_size = 4;
  options.n_best = 4;
  options.alignment = search::AlignmentOutput::kSoft;
  options.beam.batch_size = mini_batch;
  options.threads = threads;
  options.precision = precision;
  const std::string input = task.dir.write("test.src", task.test_text), output = (task.dir.path() / "out").string();
  search::translate_stream(models, options, input, output, {});
  task.loaded = std::move(models.front());
  return util::read_lines(output);
}

// The first (best) translation of each source in n-best lines "N ||| text ||| F0= ...".
std::vector<std::string> best_translations(const std::vector<std::string>& lines) {
  std::vector<std::string> best;
  std::string previous;
  for (const std::string& line : lines) {
    const std::string number = line.substr(0, line.find(" ||| "));
    if (number == previous) continue;
    previous = number;
    const std::size_t start = number.size() + 5;
    best.push_back(line.substr(start, line.find(" ||| F0=") - start));
  }
  return best;
}

BOOST_AUTO_TEST_CASE(reduced_precisions_decode_alike_in_any_batch_or_thread_and_fp32_stays_as_it_was) {
  TrainedReversal task;
  const auto fp32 = decode_lines(task, math::Precision::kFp32, 32, 1);
  for (const math::Precision precision : {math::Precision::kInt8, math::Precision::kBf16}) {
    if (!math::precision_supported(precision)) {
      BOOST_TEST_MESSAGE("skipped bf16: this CPU has no avx512_bf16");
      continue;
    }
    const auto reduced = decode_lines(task, precision, 32, 1);
    BOOST_TEST_INFO(math::precision_name(precision));
    BOOST_TEST((decode_lines(task, precision, 1, 1) == reduced));
    BOOST_TEST((decode_lines(task, precision, 32, 2) == reduced));
    BOOST_TEST((decode_lines(task, precision, 1, 2) == reduced));
    // Other numbers than fp32's (the packed products ran), mostly the same best translations.
    BOOST_TEST_REQUIRE(reduced.size() == fp32.size());
    std::size_t same_lines = 0;
    for (std::size_t i = 0; i < fp32.size(); ++i) same_lines += reduced[i] == fp32[i] ? 1 : 0;
    const auto fp32_best = best_translations(fp32), reduced_best = best_translations(reduced);
    BOOST_TEST_REQUIRE(reduced_best.size() == fp32_best.size());
    std::size_t same_best = 0, best = fp32_best.size();
    for (std::size_t i = 0; i < best; ++i) same_best += fp32_best[i] == reduced_best[i] ? 1 : 0;
    BOOST_TEST_MESSAGE(math::precision_name(precision) << ": " << same_best << " of " << best
                                                       << " best translations as fp32's");
    BOOST_TEST(same_lines < fp32.size());
    BOOST_TEST(same_best >= best * 9 / 10);
  }
  // Back to fp32 (the packs dropped): the very bytes of before.
  BOOST_TEST((decode_lines(task, math::Precision::kFp32, 7, 2) == fp32));
}

// The same guarantees for a deep-transition, layer-normalised model with the conditional
// decoder: the same bytes for any batch and thread count, in every precision.
BOOST_AUTO_TEST_CASE(a_deep_layer_normalised_model_decodes_alike_in_any_batch_or_thread) {
  TrainedReversal task(100, true);
  for (const math::Precision precision : {math::Precision::kFp32, math::Precision::kInt8, math::Precision::kBf16}) {
    if (!math::precision_supported(precision)) continue;
    BOOST_TEST_INFO(math::precision_name(precision));
    const auto lines = decode_lines(task, precision, 32, 1);
    BOOST_TEST((decode_lines(task, precision, 1, 1) == lines));
    BOOST_TEST((decode_lines(task, precision, 32, 2) == lines));
    BOOST_TEST((decode_lines(task, precision, 5, 2) == lines));
  }
}

BOOST_AUTO_TEST_SUITE_END()
