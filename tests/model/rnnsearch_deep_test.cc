// RNNsearch with the later options (model/rnnsearch.h): layer normalisation, deep-
// transition encoders and the conditional GRU decoder. Finite-difference gradients of the
// teacher-forced loss for every parameter (with dropout, label smoothing and guided
// alignment too), the inference steps giving the training loss in fp32 and a loss close to
// it in int8, forward-only passes giving the training pass's numbers, the FLOP count, and
// the parameters each option adds.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "data/alignment.h"
#include "data/batch.h"
#include "math/gemm.h"
#include "model/flops.h"
#include "model/rnnsearch.h"
#include "support/gradcheck.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

constexpr double kTolerance = 3e-2;
constexpr float kStep = 2e-3f;

// Four units everywhere: a normalisation over two values is +-1 whatever they are.
model::ModelOptions deep_config(bool layer_norm, int encoder_depth, int decoder_depth) {
  model::ModelOptions config;
  config.source_vocabulary = 9;
  config.target_vocabulary = 8;
  config.embedding = 3;
  config.encoder_hidden = 4;
  config.decoder_hidden = 4;
  config.attention = 3;
  config.maxout = 2;
  config.layer_norm = layer_norm;
  config.encoder_depth = encoder_depth;
  config.decoder_depth = decoder_depth;
  return config;
}

// The configurations every test runs: layer normalisation alone, the conditional decoder
// alone, and everything at once.
std::vector<model::ModelOptions> deep_configs() {
  return {deep_config(true, 1, 1), deep_config(false, 1, 2), deep_config(true, 2, 3)};
}

data::ParallelCorpus tiny_corpus() {
  data::ParallelCorpus corpus;
  corpus.source = {{4, 5, 6}, {7}, {8, 4}};
  corpus.target = {{4, 5}, {6, 7, 4}, {5}};
  corpus.alignments = {data::parse_pharaoh("0-0 2-0 1-1", "tiny", 1), data::parse_pharaoh("0-0 0-2", "tiny", 2),
                       data::Alignment{}};
  return corpus;
}

rt::GradientReport check_model(const model::ModelOptions& config, float dropout, float smoothing, float guided,
                               std::uint32_t seed) {
  model::RnnSearch net(config);
  rt::randomize(net.parameters(), seed, 0.5f);
  const data::Batch batch = data::make_batch(tiny_corpus(), {0, 1, 2});
  model::LossOptions options;
  options.dropout = dropout;
  options.label_smoothing = smoothing;
  options.guided_alignment_weight = guided;
  auto forward = [&] {
    util::Rng rng(5);
    math::Matrix loss(1, 1);
    loss(0, 0) = static_cast<float>(net.loss(batch, options, 0.0f, &rng).loss);
    return loss;
  };
  auto backward = [&](const math::Matrix& d_loss, std::vector<math::Matrix>&) {
    util::Rng rng(5);
    net.loss(batch, options, d_loss(0, 0), &rng);
  };
  return rt::check_gradients(net.parameters(), {}, forward, backward, 3, kStep);
}

// The loss of encode + decoder_step, step by step, on the whole batch.
double stepwise_loss(model::RnnSearch& net, const data::Batch& batch) {
  model::EncoderOutput encoded;
  net.encode(batch.source, batch.source_mask, encoded);
  math::Matrix state = encoded.initial_state, next, log_probs, weights;
  double loss = 0.0;
  const int B = batch.sentences;
  for (int t = 0; t < batch.target_length; ++t) {
    const std::vector<std::int32_t> previous(batch.target_input.begin() + t * B, batch.target_input.begin() + (t + 1) * B);
    net.decoder_step(encoded, nullptr, previous, state, log_probs, next, weights);
    for (int b = 0; b < B; ++b) {
      if (batch.target_mask(t, b) != 0.0f) loss -= log_probs(b, batch.target_output[static_cast<std::size_t>(t * B + b)]);
    }
    state.swap(next);
  }
  return loss;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rnnsearch_deep)

BOOST_AUTO_TEST_CASE(finite_difference_gradients_of_every_parameter) {
  for (const model::ModelOptions& config : deep_configs()) {
    BOOST_TEST_CONTEXT(config.summary()) {
      const rt::GradientReport plain = check_model(config, 0.0f, 0.0f, 0.0f, 17);
      BOOST_TEST(plain.checked == model::RnnSearch(config).parameters().scalar_count());
      BOOST_TEST(plain.worst_error < kTolerance, plain.worst_place);
      const rt::GradientReport everything = check_model(config, 0.3f, 0.1f, 0.5f, 19);
      BOOST_TEST(everything.worst_error < kTolerance, everything.worst_place);
    }
  }
}

BOOST_AUTO_TEST_CASE(decoder_steps_give_the_training_loss_in_fp32_and_near_it_in_int8) {
  for (const model::ModelOptions& config : deep_configs()) {
    BOOST_TEST_CONTEXT(config.summary()) {
      model::RnnSearch net(config);
      rt::randomize(net.parameters(), 23, 0.5f);
      const data::Batch batch = data::make_batch(tiny_corpus(), {0, 1, 2});
      const double teacher_forced = net.loss(batch, {}, 0.0f).loss;
      BOOST_TEST(std::fabs(stepwise_loss(net, batch) - teacher_forced) < 1e-4 * teacher_forced);
      net.set_inference_precision(math::Precision::kInt8);
      BOOST_TEST(std::fabs(stepwise_loss(net, batch) - teacher_forced) < 0.05 * teacher_forced);
    }
  }
}

BOOST_AUTO_TEST_CASE(forward_only_passes_give_the_training_pass_numbers) {
  for (const model::ModelOptions& config : deep_configs()) {
    BOOST_TEST_CONTEXT(config.summary()) {
      model::RnnSearch net(config);
      rt::randomize(net.parameters(), 5, 0.5f);
      const data::Batch batch = data::make_batch(tiny_corpus(), {0, 1, 2});
      model::LossOptions options;
      options.guided_alignment_weight = 0.5f;
      const double forward_only = net.loss(batch, options, 0.0f).loss;
      net.parameters().zero_gradients();
      BOOST_TEST(net.loss(batch, options, 1.0f).loss == forward_only);
      std::vector<math::Matrix> gradients;
      for (const nn::Parameter* p : net.parameters().all()) gradients.push_back(p->gradient);
      net.parameters().zero_gradients();
      net.forced_attention(data::make_batch(tiny_corpus(), {2, 0}));
      net.loss(data::make_batch(tiny_corpus(), {1}), {}, 0.0f);
      net.loss(batch, options, 1.0f);
      for (std::size_t i = 0; i < gradients.size(); ++i) {
        const nn::Parameter& p = *net.parameters().all()[i];
        BOOST_TEST((p.gradient - gradients[i]).cwiseAbs().maxCoeff() == 0.0f, p.name);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(flop_count_equals_what_the_products_multiply) {
  for (const model::ModelOptions& config : deep_configs()) {
    model::RnnSearch net(config);
    rt::randomize(net.parameters(), 3, 0.5f);
    const data::Batch batch = data::make_batch(tiny_corpus(), {0, 1, 2});
    const double before = math::gemm_flops_done();
    net.loss(batch, {}, 1.0f);
    const double counted = math::gemm_flops_done() - before;
    const model::BatchShape shape{batch.sentences, batch.source_length, batch.target_length,
                                  static_cast<long>(batch.target_tokens()), static_cast<long>(batch.source_mask.sum())};
    BOOST_TEST(counted == model::training_flops(config, shape).matrix_products(), config.summary());
  }
}

BOOST_AUTO_TEST_CASE(transposed_copies_made_in_parts_give_the_same_gradients) {
  model::RnnSearch net(deep_config(true, 2, 3));
  rt::randomize(net.parameters(), 17, 0.5f);
  model::TransposedWeights parts;
  for (int part = 0; part < 3; ++part) net.transpose_weights(parts, part, 3);  // as three threads
  BOOST_TEST((parts.context == net.parameters().get("decoder.gru2.W").value.transpose()));
  BOOST_TEST((parts.decoder_cells[1].h == net.parameters().get("decoder.gru3.U_h").value.transpose()));
  BOOST_TEST((parts.encoder.backward.cells[1].zr ==
              net.parameters().get("encoder.backward.transition2.U_zr").value.transpose()));
  const data::Batch batch = data::make_batch(tiny_corpus(), {0, 1, 2});
  std::vector<math::Matrix> own;
  net.parameters().zero_gradients();
  net.loss(batch, {}, 1.0f);
  for (const nn::Parameter* p : net.parameters().all()) own.push_back(p->gradient);
  net.parameters().zero_gradients();
  model::LossOptions options;
  options.transposed = &parts;
  net.loss(batch, options, 1.0f);
  for (std::size_t i = 0; i < own.size(); ++i) {
    const nn::Parameter& p = *net.parameters().all()[i];
    BOOST_TEST((p.gradient == own[i]), p.name);
  }
}

BOOST_AUTO_TEST_CASE(each_option_adds_its_parameters_and_a_new_model_has_unit_gains) {
  model::RnnSearch net(deep_config(true, 2, 3));
  util::Rng rng(1);
  net.initialize(model::Initialization::kXavier, rng);
  const nn::ParameterRegistry& p = net.parameters();
  BOOST_TEST(p.get("encoder.forward.transition2.U_h").value.rows() == 4);
  BOOST_TEST(p.get("decoder.gru.W").value.rows() == 3);   // E_y y_{i-1} alone
  BOOST_TEST(p.get("decoder.gru2.W").value.rows() == 8);  // c_i
  BOOST_TEST(p.get("decoder.gru3.U_zr").value.cols() == 8);
  BOOST_TEST(p.get("decoder.gru3.gain_zr").value.minCoeff() == 1.0f);
  BOOST_TEST(p.get("decoder.gru3.gain_zr").value.maxCoeff() == 1.0f);
  BOOST_TEST(p.get("encoder.backward.gain_in").value.cols() == 12);
  BOOST_TEST(model::RnnSearch(deep_config(false, 1, 1)).parameters().all().size() + 3 * 3 ==  // three gains in each of three GRUs
             model::RnnSearch(deep_config(true, 1, 1)).parameters().all().size());
}

BOOST_AUTO_TEST_SUITE_END()
