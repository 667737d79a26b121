// Training end to end through the library: a reversal task learned to near-perfect
// greedy accuracy, exact resume (an interrupted and resumed run ends with the same bits
// as an uninterrupted one, validation, dropout, guided alignment and two threads
// included), and NaN detection that keeps the last checkpoint.
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <fstream>
#include <sstream>

#include "data/parallel_corpus.h"
#include "math/product_precision.h"
#include "model/model_file.h"
#include "search/greedy.h"
#include "support/temp_dir.h"
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

void expect_same_parameters(const std::string& a, const std::string& b) {
  const auto first = model::read_model_file(a);
  const auto second = model::read_model_file(b);
  const auto pa = first.model->parameters().all();
  const auto pb = second.model->parameters().all();
  BOOST_TEST_REQUIRE(pa.size() == pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) {
    const bool same = std::memcmp(pa[i]->value.data(), pb[i]->value.data(), pa[i]->value.size() * sizeof(float)) == 0;
    BOOST_TEST(same, pa[i]->name);
  }
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

BOOST_AUTO_TEST_CASE(interrupted_and_resumed_training_gives_the_same_bits) {
  rt::TempDir dir;
  write_reversal_task(dir, "train", 400, 3);
  write_reversal_task(dir, "valid", 40, 4);
  train::TrainOptions config = small_config(dir);
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
  config.max_updates = 40;  // 13 batches per epoch: three epoch boundaries
  const std::string whole = config.model_path;
  train::run_training(config);

  config.model_path = (dir.path() / "split.bin").string();
  config.max_updates = 17;
  train::run_training(config);
  config.max_updates = 29;
  config.resume = true;
  train::run_training(config);
  config.max_updates = 40;
  const auto outcome = train::run_training(config);
  BOOST_TEST(outcome.state.update == 40);
  expect_same_parameters(whole, config.model_path);
  expect_same_parameters(whole + ".best", config.model_path + ".best");
}

BOOST_AUTO_TEST_CASE(same_seed_and_threads_give_the_same_model_and_another_seed_does_not) {
  rt::TempDir dir;
  write_reversal_task(dir, "train", 200, 5);
  train::TrainOptions config = small_config(dir);
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

BOOST_AUTO_TEST_SUITE_END()
