// Checkpoint averaging (nmt-average's library call): the mean of a model and itself is
// the model, bit for bit; the mean of two models is their element-wise mean; a model of
// another configuration or with other vocabularies is refused, naming its file, and
// nothing is written.
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <filesystem>

#include "model/average.h"
#include "support/gradcheck.h"
#include "support/temp_dir.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

data::Vocabulary words(int count, const std::string& prefix = "w") {
  std::vector<std::string> tokens;
  for (int i = 0; i < count; ++i) tokens.push_back(prefix + std::to_string(i));
  return data::Vocabulary(tokens);
}

// A small random model written to DIR/NAME; `seed` picks its values.
std::string write_model(const rt::TempDir& dir, const std::string& name, std::uint32_t seed, int decoder_hidden = 5,
                        const std::string& target_prefix = "w") {
  const data::Vocabulary source = words(6), target = words(5, target_prefix);
  model::ModelOptions config;
  config.source_vocabulary = static_cast<int>(source.size());
  config.target_vocabulary = static_cast<int>(target.size());
  config.embedding = 4;
  config.encoder_hidden = 3;
  config.decoder_hidden = decoder_hidden;
  config.attention = 4;
  config.maxout = 3;
  model::RnnSearch net(config);
  rt::randomize(net.parameters(), seed, 0.5f);
  const std::string path = (dir.path() / name).string();
  model::write_model_file(path, model::FileKind::kModel, net, source, target);
  return path;
}

std::string error_of(const model::AverageOptions& options) {
  try {
    model::average_models(options);
  } catch (const util::Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(average)

BOOST_AUTO_TEST_CASE(the_mean_of_a_model_and_itself_is_the_model_bit_for_bit) {
  rt::TempDir dir;
  const std::string a = write_model(dir, "a.bin", 1);
  model::AverageOptions options;
  options.models = {a, a, a};
  options.output = (dir.path() / "mean.bin").string();
  model::average_models(options);
  const auto original = model::read_model_file(a), mean = model::read_model_file(options.output);
  const auto pa = original.model->parameters().all(), pm = mean.model->parameters().all();
  BOOST_TEST_REQUIRE(pa.size() == pm.size());
  for (std::size_t i = 0; i < pa.size(); ++i) {
    BOOST_TEST(std::memcmp(pa[i]->value.data(), pm[i]->value.data(), pa[i]->value.size() * sizeof(float)) == 0,
               pa[i]->name);
  }
  BOOST_TEST(mean.model->config().summary() == original.model->config().summary());
  BOOST_TEST((mean.target_vocabulary == original.target_vocabulary));
}

BOOST_AUTO_TEST_CASE(the_mean_of_two_models_is_their_elementwise_mean) {
  rt::TempDir dir;
  const std::string a = write_model(dir, "a.bin", 1), b = write_model(dir, "b.bin", 2);
  model::AverageOptions options;
  options.models = {a, b};
  options.output = (dir.path() / "mean.bin").string();
  model::average_models(options);
  const auto ma = model::read_model_file(a), mb = model::read_model_file(b), mean = model::read_model_file(options.output);
  const auto pa = ma.model->parameters().all(), pb = mb.model->parameters().all(), pm = mean.model->parameters().all();
  for (std::size_t i = 0; i < pa.size(); ++i) {
    const math::Matrix expected = ((pa[i]->value.cast<double>() + pb[i]->value.cast<double>()) / 2.0).cast<float>();
    const bool mean_of_both = pm[i]->value == expected, same_as_first = pm[i]->value == pa[i]->value;
    BOOST_TEST(mean_of_both, pa[i]->name);
    BOOST_TEST(!same_as_first, pa[i]->name);
  }
}

BOOST_AUTO_TEST_CASE(a_model_of_another_run_is_refused_naming_its_file) {
  rt::TempDir dir;
  const std::string a = write_model(dir, "a.bin", 1);
  const std::string wider = write_model(dir, "wider.bin", 2, 7);
  const std::string other_words = write_model(dir, "other-words.bin", 3, 5, "v");
  model::AverageOptions options;
  options.output = (dir.path() / "mean.bin").string();
  options.models = {a, a, wider};
  const std::string shape_error = error_of(options);
  BOOST_TEST(shape_error.rfind(wider + ": has another model (emb 4, enc 3x2, dec 7", 0) == 0u, shape_error);
  BOOST_TEST(shape_error.find("than " + a + " (emb 4, enc 3x2, dec 5") != std::string::npos, shape_error);
  options.models = {a, other_words};
  BOOST_TEST(error_of(options) == other_words + ": has other vocabularies than " + a +
                                      ": only models of one training run can be averaged");
  options.models = {a, (dir.path() / "missing.bin").string()};
  BOOST_TEST(error_of(options).rfind(options.models[1] + ":", 0) == 0u);
  BOOST_TEST(!std::filesystem::exists(options.output));
  options.models.clear();
  BOOST_CHECK_THROW(model::average_models(options), util::UsageError);
}

BOOST_AUTO_TEST_SUITE_END()
