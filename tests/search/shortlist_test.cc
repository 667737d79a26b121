// nmt-decode --shortlist: a shortlist of every target piece decodes byte for byte as the
// full output layer; with a real one (nmt-align ibm2 --save-table, nmt-shortlist) a
// sentence's translation does not depend on its batch and uses only pieces its sentence
// allows; shortlist files round-trip and their bad lines name file and line.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <sstream>

#include "align/ibm2_files.h"
#include "align/shortlist_files.h"
#include "data/shortlist_file.h"
#include "math/precision.h"
#include "model/model_file.h"
#include "search/beam_search.h"
#include "search/shortlist.h"
#include "support/error_message.h"
#include "support/temp_dir.h"
#include "train/trainer.h"
#include "util/line_reader.h"
#include "util/rng.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

// A small model trained briefly on reversing sentences of 3-7 words over 40 words, its
// training text and held-out sources (as words and as ids).
struct ReversalModel {
  rt::TempDir dir;
  std::string train_source, train_target;
  model::LoadedModel loaded;
  std::vector<std::vector<std::string>> words;
  std::vector<std::vector<std::int32_t>> sources;

  explicit ReversalModel(bool tied) {
    util::Rng rng(5);
    std::ostringstream source, target;
    for (int i = 0; i < 2100; ++i) {
      const int length = 3 + static_cast<int>(rng.below(5));
      std::vector<std::string> line;
      for (int k = 0; k < length; ++k) line.push_back("w" + std::to_string(rng.below(40)));
      if (i >= 2000) {
        words.push_back(line);
        continue;
      }
      for (int k = 0; k < length; ++k) source << (k ? " " : "") << line[static_cast<std::size_t>(k)];
      for (int k = length - 1; k >= 0; --k) target << (k != length - 1 ? " " : "") << line[static_cast<std::size_t>(k)];
      source << '\n';
      target << '\n';
    }
    train::TrainOptions config;
    config.train_source = train_source = dir.write("train.src", source.str());
    config.train_target = train_target = dir.write("train.tgt", target.str());
    config.model_path = (dir.path() / "model.bin").string();
    config.model.embedding = config.model.encoder_hidden = config.model.attention = config.model.maxout = 32;
    config.model.decoder_hidden = 64;
    config.model.tied_embeddings = tied;
    config.batching.sentences = 32;
    config.learning_rate = 3e-3f;
    config.max_updates = 60;  // still makes mistakes, so beams and shortlists matter
    config.quiet = true;
    train::run_training(config);
    loaded = model::read_model_file(config.model_path);
    for (const auto& line : words) {
      sources.emplace_back();
      for (const auto& w : line) sources.back().push_back(loaded.source_vocabulary.id_or_unk(w));
    }
  }

  std::vector<std::vector<std::int32_t>> allowed(const search::Shortlist& shortlist) const {
    std::vector<std::vector<std::int32_t>> out;
    for (const auto& line : words) out.push_back(shortlist.allowed(line));
    return out;
  }
};

// Every hypothesis: tokens, log-probability and score, exactly.
std::string text(const std::vector<std::vector<search::Hypothesis>>& results) {
  std::ostringstream out;
  out.precision(17);
  for (const auto& hypotheses : results) {
    for (const auto& h : hypotheses) {
      for (const auto id : h.tokens) out << id << ' ';
      out << "||| " << h.log_probability << ' ' << h.score << ' ' << h.complete << '\n';
    }
    out << '\n';
  }
  return out.str();
}

search::BeamOptions beam_options(int beam, int n_best, int batch) {
  search::BeamOptions options;
  options.beam_size = beam;
  options.n_best = n_best;
  options.batch_size = batch;
  return options;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shortlist)

BOOST_AUTO_TEST_CASE(a_shortlist_of_every_piece_is_the_full_output_layer) {
  for (const bool tied : {false, true}) {
    ReversalModel task(tied);
    data::ShortlistFile file;
    file.first = 100;
    const auto& tokens = task.loaded.target_vocabulary.tokens();
    file.always.assign(tokens.begin() + 4, tokens.end());
    const search::Shortlist shortlist(file, task.loaded.target_vocabulary);
    const auto allowed = task.allowed(shortlist);
    BOOST_TEST_REQUIRE(allowed[0].size() == task.loaded.target_vocabulary.size());
    std::vector<model::RnnSearch*> models{task.loaded.model.get()};
    // In every precision: int8 quantizes per column and bf16 rounds per element, so U's
    // gathered columns pack as the full layer's do.
    for (const math::Precision precision : {math::Precision::kFp32, math::Precision::kInt8, math::Precision::kBf16}) {
      if (!math::precision_supported(precision)) continue;
      task.loaded.model->set_inference_precision(precision);
      for (const auto& options : {beam_options(1, 1, 32), beam_options(5, 5, 32), beam_options(5, 3, 7)}) {
        const auto full = search::beam_search(models, {task.sources}, options);
        const auto listed = search::beam_search(models, {task.sources}, options, &allowed);
        BOOST_TEST_INFO(math::precision_name(precision) << (tied ? ", tied" : ", untied"));
        BOOST_TEST(text(listed) == text(full));
      }
    }
    task.loaded.model->set_inference_precision(math::Precision::kFp32);
  }
}

BOOST_AUTO_TEST_CASE(a_real_shortlist_is_batch_independent_and_respected) {
  ReversalModel task(false);
  // The IBM Model 2 table of the training text, then each source word's 2 best target words.
  align::Ibm2FilesOptions ibm2;
  ibm2.source = task.train_source;
  ibm2.target = task.train_target;
  ibm2.output = (task.dir.path() / "links").string();
  ibm2.save_table = (task.dir.path() / "table").string();
  ibm2.progress = false;
  align::ibm2_files(ibm2);
  std::string vocab;
  for (std::size_t id = 4; id < task.loaded.target_vocabulary.size(); ++id) {
    vocab += task.loaded.target_vocabulary.token(static_cast<std::int32_t>(id)) + " 1\n";
  }
  align::ShortlistOptions options;
  options.table = ibm2.save_table;
  options.target_vocab = task.dir.write("vocab.tgt", vocab);
  options.first = 2;
  options.best = 2;
  options.output = (task.dir.path() / "shortlist").string();
  align::shortlist_files(options);
  const data::ShortlistFile file = data::read_shortlist(options.output);
  BOOST_TEST(file.always.size() == 2u);
  BOOST_TEST(file.lists.size() == 40u);
  // Written back, it is the same bytes.
  data::write_shortlist((task.dir.path() / "again").string(), file);
  BOOST_TEST(util::read_lines((task.dir.path() / "again").string()) == util::read_lines(options.output));

  const search::Shortlist shortlist(file, task.loaded.target_vocabulary);
  const auto allowed = task.allowed(shortlist);
  BOOST_TEST(allowed[0].size() < task.loaded.target_vocabulary.size() / 2);
  std::vector<model::RnnSearch*> models{task.loaded.model.get()};
  for (const int beam : {1, 5}) {
    const auto one = search::beam_search(models, {task.sources}, beam_options(beam, beam, 1), &allowed);
    const auto many = search::beam_search(models, {task.sources}, beam_options(beam, beam, 32), &allowed);
    BOOST_TEST(text(one) == text(many));
    const auto full = search::beam_search(models, {task.sources}, beam_options(beam, 1, 32));
    BOOST_TEST(text(many) != text(full));  // the restriction changes something
    for (std::size_t i = 0; i < many.size(); ++i) {
      for (const auto& h : many[i]) {
        for (const auto id : h.tokens) {
          BOOST_TEST(std::binary_search(allowed[i].begin(), allowed[i].end(), id));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(bad_shortlist_lines_name_file_and_line) {
  const rt::TempDir dir;
  const std::string header = "nmt-shortlist 1 first=2 best=2 threshold=0\n";
  const auto message = [&](const std::string& text) {
    const std::string path = dir.write("bad", text);
    return rt::error_message([&] { data::read_shortlist(path); }).substr(path.size());
  };
  BOOST_TEST(message("") == ":1: is empty: expected a shortlist (nmt-shortlist)");
  BOOST_TEST(message("nmt-shortlist 2 first=2 best=2 threshold=0\n").find(":1: not a shortlist") == 0u);
  // Found by fuzzing: a count beyond int was cast before the check, and NaN passed it.
  BOOST_TEST(message("nmt-shortlist 1 first=1e10 best=2 threshold=0\n").find(":1: not a shortlist") == 0u);
  BOOST_TEST(message("nmt-shortlist 1 first=2 best=nan threshold=0\n").find(":1: not a shortlist") == 0u);
  BOOST_TEST(message("nmt-shortlist 1 first=2 best=2 threshold=nan\n").find(":1: not a shortlist") == 0u);
  BOOST_TEST(message(header + "\ta b\nx y\n") ==
             ":3: expected 'SOURCE_PIECE<TAB>TARGET_PIECE TARGET_PIECE ...' (single spaces)");
  BOOST_TEST(message(header + "x\ta  b\n").find(":2: expected") == 0u);
  BOOST_TEST(message(header + "x\t\n").find(":2: expected") == 0u);
  BOOST_TEST(message(header + "y\ta\nx\tb\n") == ":3: source piece 'x' out of byte order or repeated");
  BOOST_TEST(message(header + "x\ta\n\tb\n") == ":3: the always-allowed pieces (empty source) belong on line 2");
  // nmt-shortlist refuses a reverse table, naming it.
  align::ShortlistOptions options;
  options.table = dir.write("table", "nmt-ibm2-table 1 direction=reverse p-null=0.08 tension=4\n");
  options.target_vocab = dir.write("vocab", "a 3\n");
  const std::string refused = rt::error_message([&] { align::shortlist_files(options); });
  BOOST_TEST(refused.find(options.table + ":1: is a table of") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
