// Training end to end through the library: a reversal task learned to near-perfect
// greedy accuracy, exact resume (an interrupted and resumed run ends with the same bits
// as an uninterrupted one, validation, dropout, guided alignment, two threads,
// exponential smoothing and kept checkpoints included), what exponential smoothing
// changes (what is validated and saved, not the training), and --keep-checkpoints.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "data/parallel_corpus.h"
#include "math/product_precision.h"
#include "model/model_file.h"
#include "search/greedy.h"
#include "support/temp_dir.h"
#include "train/checkpoint.h"
#include "train/kept_models.h"
#include "train/trainer.h"
#include "util/error.h"
#include "util/rng.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

// Random sentences over `words` tokens "w0".."wN", target = source reversed; NAME.align
// holds the links (source word k to target word length - 1 - k).
void write_reversal_task(const rt::TempDir& dir, const std::string& name, std::size_t pairs, std::uint64_t seed,
                         int words = 12) {
  util::Rng rng(seed);
  std::ostringstream source, target, links;
  for (std::size_t i = 0; i < pairs; ++i) {
    const int length = 3 + static_cast<int>(rng.below(5));
    std::vector<std::string> tokens;
    for (int k = 0; k < length; ++k) tokens.push_back("w" + std::to_string(rng.below(static_cast<std::uint64_t>(words))));
    for (int k = 0; k < length; ++k) source << (k ? " " : "") << tokens[static_cast<std::size_t>(k)];
    for (int k = length - 1; k >= 0; --k) target << (k != length - 1 ? " " : "") << tokens[static_cast<std::size_t>(k)];
    for (int k = 0; k < length; ++k) links << (k ? " " : "") << k << '-' << length - 1 - k;
    source << '\n';
    target << '\n';
    links << '\n';
  }
  dir.write(name + ".src", source.str());
  dir.write(name + ".tgt", target.str());
  dir.write(name + ".align", links.str());
}

train::TrainOptions small_config(const rt::TempDir& dir) {
  train::TrainOptions config;
  config.train_source = (dir.path() / "train.src").string();
  config.train_target = (dir.path() / "train.tgt").string();
  config.model_path = (dir.path() / "model.bin").string();
  config.model.embedding = 32;
  config.model.encoder_hidden = 32;
  config.model.decoder_hidden = 64;
  config.model.attention = 32;
  config.model.maxout = 32;
  config.batching.sentences = 32;
  config.dropout = 0.0f;
  config.quiet = true;
  return config;
}

bool same_bits(const math::Matrix& a, const math::Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(float)) == 0;
}

// Model files, or the model part (the parameters training goes on with) of checkpoints.
void expect_same_parameters(const std::string& a, const std::string& b) {
  const auto first = model::read_model_file(a);
  const auto second = model::read_model_file(b);
  const auto pa = first.model->parameters().all();
  const auto pb = second.model->parameters().all();
  BOOST_TEST_REQUIRE(pa.size() == pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) BOOST_TEST(same_bits(pa[i]->value, pb[i]->value), pa[i]->name);
}

bool any_parameter_differs(const std::string& a, const std::string& b) {
  const auto first = model::read_model_file(a), second = model::read_model_file(b);
  const auto pa = first.model->parameters().all();
  const auto pb = second.model->parameters().all();
  for (std::size_t i = 0; i < pa.size(); ++i) {
    if (!same_bits(pa[i]->value, pb[i]->value)) return true;
  }
  return false;
}

// The smoothed copies two checkpoints hold (none in both when trained without).
void expect_same_smoothed(const std::string& a, const std::string& b) {
  const auto first = train::read_checkpoint(a), second = train::read_checkpoint(b);
  BOOST_TEST(first.smoothing_decay == second.smoothing_decay);
  BOOST_TEST_REQUIRE(first.smoothed.size() == second.smoothed.size());
  for (std::size_t i = 0; i < first.smoothed.size(); ++i) BOOST_TEST(same_bits(first.smoothed[i], second.smoothed[i]));
}

// The validation cross-entropies of a run, in order.
std::vector<double> cross_entropies(const train::TrainOutcome& outcome) {
  std::vector<double> out;
  for (const auto& record : outcome.state.validations) out.push_back(record.cross_entropy);
  return out;
}

// Trains 40 updates straight, then in three legs with resumes (validation, learning-rate
// decay, dropout, label smoothing, guided alignment, two threads), with `smoothing` and
// `keep` (--exponential-smoothing, --keep-checkpoints, a save every 5 updates), and with
// `deep` a deep layer-normalised model (make_deep): the two end with the same bits in
// every file.
// A deep-transition, layer-normalised model with the conditional decoder
// (--layer-normalization --enc-cell-depth 2 --dec-cell-depth 3).
void make_deep(train::TrainOptions& config) {
  config.model.layer_norm = true;
  config.model.encoder_depth = 2;
  config.model.decoder_depth = 3;
}

void check_resume_gives_the_same_bits(float smoothing, int keep, bool deep = false) {
  rt::TempDir dir;
  write_reversal_task(dir, "train", 400, 3);
  write_reversal_task(dir, "valid", 40, 4);
  train::TrainOptions config = small_config(dir);
  if (deep) make_deep(config);
  config.valid_source = (dir.path() / "valid.src").string();
  config.valid_target = (dir.path() / "valid.tgt").string();
  config.valid_freq = 7;
  config.decay_patience = 1;  // learning-rate decays happen, and must resume too
  config.dropout = 0.2f;
  config.label_smoothing = 0.1f;
  config.guided_alignment = (dir.path() / "train.align").string();
  config.guided_alignment_weight = 0.5f;
  config.threads = 2;
  config.final_model = train::FinalModel::kLast;
  config.exponential_smoothing = smoothing;
  config.keep_checkpoints = keep;
  config.save_freq = 5;
  config.max_updates = 40;  // 13 batches per epoch: three epoch boundaries
  const train::TrainOptions whole = config;
  const auto straight = train::run_training(config);

  config.model_path = (dir.path() / "split.bin").string();
  config.max_updates = 17;
  train::run_training(config);
  config.max_updates = 29;
  config.resume = true;
  train::run_training(config);
  config.max_updates = 40;
  const auto outcome = train::run_training(config);
  BOOST_TEST(outcome.state.update == 40);
  expect_same_parameters(whole.model_path, config.model_path);
  expect_same_parameters(whole.best_model_path(), config.best_model_path());
  expect_same_parameters(whole.checkpoint_path(), config.checkpoint_path());
  expect_same_smoothed(whole.checkpoint_path(), config.checkpoint_path());
  BOOST_TEST(cross_entropies(straight) == cross_entropies(outcome), boost::test_tools::per_element());
  BOOST_TEST(straight.state.kept_updates == outcome.state.kept_updates, boost::test_tools::per_element());
  for (const long update : straight.state.kept_updates) {
    expect_same_parameters(whole.kept_model_path(update), config.kept_model_path(update));
  }
  BOOST_TEST(train::find_kept_models(whole.model_path).size() == static_cast<std::size_t>(keep));
  BOOST_TEST(train::find_kept_models(config.model_path).size() == static_cast<std::size_t>(keep));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(training)

BOOST_AUTO_TEST_CASE(reversal_task_is_learned_to_near_perfect_greedy_accuracy) {
  rt::TempDir dir;
  write_reversal_task(dir, "train", 3000, 1);
  write_reversal_task(dir, "test", 200, 2);
  train::TrainOptions config = small_config(dir);
  config.learning_rate = 3e-3f;
  config.max_updates = 600;
  train::run_training(config);

  const auto loaded = model::read_model_file(config.model_path);
  data::CorpusOptions options;
  const auto test = data::read_parallel_corpus((dir.path() / "test.src").string(), (dir.path() / "test.tgt").string(),
                                               loaded.source_vocabulary, loaded.target_vocabulary, options);
  const auto translations = search::greedy_translate(*loaded.model, test.source);
  std::size_t exact = 0;
  for (std::size_t i = 0; i < test.size(); ++i) exact += translations[i] == test.target[i] ? 1 : 0;
  const double accuracy = static_cast<double>(exact) / static_cast<double>(test.size());
  BOOST_TEST_MESSAGE("reversal exact-match accuracy " << accuracy);
  BOOST_TEST(accuracy >= 0.95);
}

BOOST_AUTO_TEST_CASE(interrupted_and_resumed_training_gives_the_same_bits) { check_resume_gives_the_same_bits(0.0f, 0); }

BOOST_AUTO_TEST_CASE(resume_with_exponential_smoothing_and_kept_checkpoints_gives_the_same_bits) {
  check_resume_gives_the_same_bits(0.05f, 2);
}

BOOST_AUTO_TEST_CASE(a_deep_layer_normalised_model_resumes_bit_for_bit) { check_resume_gives_the_same_bits(0.0f, 0, true); }

BOOST_DATA_TEST_CASE(same_seed_and_threads_give_the_same_model_and_another_seed_does_not,
                     boost::unit_test::data::make({false, true}), deep) {
  rt::TempDir dir;
  write_reversal_task(dir, "train", 200, 5);
  train::TrainOptions config = small_config(dir);
  if (deep) make_deep(config);
  config.threads = 2;
  config.dropout = 0.1f;
  config.max_updates = 10;
  train::run_training(config);
  const std::string first = config.model_path;
  config.model_path = (dir.path() / "again.bin").string();
  train::run_training(config);
  expect_same_parameters(first, config.model_path);

  config.model_path = (dir.path() / "other.bin").string();
  config.seed = 99;
  train::run_training(config);
  const auto a = model::read_model_file(first), b = model::read_model_file(config.model_path);
  BOOST_TEST(!(a.model->parameters().all()[0]->value == b.model->parameters().all()[0]->value));
}

// bf16 products (--precision bf16), where the CPU has them: a model large enough for its
// whole-sequence products to multiply in bf16 gives other bits than fp32, the same bits
// run to run, the same bits after an interruption and a resume; resuming in another
// precision is refused.
BOOST_AUTO_TEST_CASE(bf16_training_repeats_and_resumes_bit_for_bit) {
  if (!math::bf16_products_available()) {
    BOOST_TEST_MESSAGE("no bf16 products on this CPU or build: only the refusal is tested");
    rt::TempDir dir;
    write_reversal_task(dir, "train", 10, 6);
    train::TrainOptions config = small_config(dir);
    config.max_updates = 1;
    config.precision = math::Precision::kBf16;
    BOOST_CHECK_THROW(config.validate(), util::Error);
    return;
  }
  rt::TempDir dir;
  write_reversal_task(dir, "train", 300, 6);
  train::TrainOptions config = small_config(dir);
  config.model.embedding = 64;
  config.model.encoder_hidden = 128;
  config.model.decoder_hidden = 256;
  config.model.attention = 128;
  config.model.maxout = 64;
  config.batching.sentences = 64;
  config.threads = 2;
  config.dropout = 0.1f;
  config.max_updates = 9;
  train::run_training(config);
  const std::string fp32 = config.model_path;
  config.precision = math::Precision::kBf16;
  config.model_path = (dir.path() / "bf16.bin").string();
  train::run_training(config);
  const std::string whole = config.model_path;
  config.model_path = (dir.path() / "again.bin").string();
  train::run_training(config);
  expect_same_parameters(whole, config.model_path);
  const auto a = model::read_model_file(fp32), b = model::read_model_file(whole);
  BOOST_TEST(!(a.model->parameters().all()[0]->value == b.model->parameters().all()[0]->value));

  config.model_path = (dir.path() / "split.bin").string();
  config.max_updates = 4;
  train::run_training(config);
  config.resume = true;
  config.precision = math::Precision::kFp32;
  BOOST_CHECK_EXCEPTION(train::run_training(config), util::Error, [](const util::Error& e) {
    return std::string(e.what()).find("was trained with --precision bf16, resumed with --precision fp32") !=
           std::string::npos;
  });
  config.precision = math::Precision::kBf16;
  config.max_updates = 9;
  train::run_training(config);
  expect_same_parameters(whole, config.model_path);
}

// Smoothing leaves the training alone (no learning-rate decay here, which validation
// drives): the checkpoints' parameters are those of a run without it, bit for bit, while
// the validations and the model files see the smoothed copy.
BOOST_AUTO_TEST_CASE(smoothing_changes_what_is_validated_and_saved_not_the_training) {
  rt::TempDir dir;
  write_reversal_task(dir, "train", 300, 7);
  write_reversal_task(dir, "valid", 30, 8);
  train::TrainOptions config = small_config(dir);
  config.valid_source = (dir.path() / "valid.src").string();
  config.valid_target = (dir.path() / "valid.tgt").string();
  config.valid_freq = 5;
  config.decay_patience = 0;
  config.dropout = 0.1f;
  config.threads = 2;
  config.final_model = train::FinalModel::kLast;
  config.max_updates = 20;
  const train::TrainOptions plain = config;
  const auto without = train::run_training(config);
  config.exponential_smoothing = 0.1f;
  config.model_path = (dir.path() / "smoothed.bin").string();
  const train::TrainOptions smoothed = config;
  const auto with = train::run_training(config);

  expect_same_parameters(plain.checkpoint_path(), smoothed.checkpoint_path());
  BOOST_TEST(any_parameter_differs(plain.model_path, smoothed.model_path));
  BOOST_TEST(cross_entropies(without) != cross_entropies(with));
  // MODEL holds the checkpoint's smoothed copy.
  const auto checkpoint = train::read_checkpoint(smoothed.checkpoint_path());
  BOOST_TEST(checkpoint.smoothing_decay == 0.1f);
  const auto saved = model::read_model_file(smoothed.model_path);
  const auto model_parameters = saved.model->parameters().all();
  BOOST_TEST_REQUIRE(checkpoint.smoothed.size() == model_parameters.size());
  for (std::size_t i = 0; i < model_parameters.size(); ++i) {
    BOOST_TEST(same_bits(checkpoint.smoothed[i], model_parameters[i]->value), model_parameters[i]->name);
  }
}

BOOST_AUTO_TEST_CASE(resuming_with_another_smoothing_is_refused) {
  rt::TempDir dir;
  write_reversal_task(dir, "train", 50, 9);
  train::TrainOptions config = small_config(dir);
  config.max_updates = 2;
  config.exponential_smoothing = 0.1f;
  train::run_training(config);
  config.resume = true;
  config.max_updates = 4;
  const auto refused = [&](const std::string& expected) {
    try {
      train::run_training(config);
    } catch (const util::Error& e) {
      BOOST_TEST(std::string(e.what()) == config.checkpoint_path() + ": " + expected);
      return;
    }
    BOOST_ERROR("resumed with --exponential-smoothing " << config.exponential_smoothing);
  };
  config.exponential_smoothing = 0.0f;
  refused("was trained with --exponential-smoothing 0.1, resumed without --exponential-smoothing: resume with the same");
  config.exponential_smoothing = 1e-4f;
  refused("was trained with --exponential-smoothing 0.1, resumed with --exponential-smoothing 0.0001: resume with the same");
  config.exponential_smoothing = 0.1f;
  BOOST_TEST(train::run_training(config).state.update == 4);
}

BOOST_AUTO_TEST_CASE(keep_last_keeps_the_newest_and_gives_the_rest) {
  std::vector<long> kept;
  BOOST_TEST(train::keep_last(kept, 5, 2).empty());
  BOOST_TEST(train::keep_last(kept, 10, 2).empty());
  BOOST_TEST(train::keep_last(kept, 10, 2).empty());  // the end of a run saving the update again
  BOOST_TEST(train::keep_last(kept, 15, 2) == std::vector<long>{5});
  BOOST_TEST(kept == (std::vector<long>{10, 15}));
  BOOST_TEST(train::keep_last(kept, 20, 1) == (std::vector<long>{10, 15}));
}

// Saves every 3 updates and at the end (14): the last 3 are kept, the one of the end is
// MODEL's; a fresh start refuses to replace kept files without --overwrite, and removes
// them with it.
BOOST_AUTO_TEST_CASE(keep_checkpoints_keeps_exactly_the_last_n_saves) {
  rt::TempDir dir;
  write_reversal_task(dir, "train", 100, 10);
  train::TrainOptions config = small_config(dir);
  config.max_updates = 14;
  config.save_freq = 3;
  config.keep_checkpoints = 3;
  config.exponential_smoothing = 0.2f;
  const auto outcome = train::run_training(config);
  BOOST_TEST(outcome.state.kept_updates == (std::vector<long>{9, 12, 14}), boost::test_tools::per_element());
  auto found = train::find_kept_models(config.model_path);
  std::sort(found.begin(), found.end());
  BOOST_TEST(found == (std::vector<std::string>{config.kept_model_path(12), config.kept_model_path(14),
                                                 config.kept_model_path(9)}),
             boost::test_tools::per_element());
  expect_same_parameters(config.kept_model_path(14), config.model_path);
  BOOST_TEST(any_parameter_differs(config.kept_model_path(12), config.model_path));

  for (const std::string& path : config.output_files()) std::remove(path.c_str());
  config.keep_checkpoints = 0;
  try {
    train::run_training(config);
    BOOST_ERROR("started afresh over kept models");
  } catch (const util::Error& e) {
    BOOST_TEST(std::string(e.what()).find(".bin.update") != std::string::npos, e.what());
    BOOST_TEST(std::string(e.what()).find("exists: continue that training with --resume") != std::string::npos);
  }
  config.overwrite = true;
  train::run_training(config);
  BOOST_TEST(train::find_kept_models(config.model_path).empty());
}

BOOST_AUTO_TEST_SUITE_END()
