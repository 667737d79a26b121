// The whole RNNsearch model: finite-difference gradients of the teacher-forced loss with
// respect to every parameter (plain, tied embeddings, dropout with label smoothing, guided
// alignment, and each attention form), the guided-alignment cost by hand, the inference
// interface (encode + decoder_step) agreeing with the training loss, and shared
// transposed weight copies giving the gradients of the loss's own.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "data/alignment.h"
#include "data/batch.h"
#include "math/gemm.h"
#include "model/flops.h"
#include "model/rnnsearch.h"
#include "support/gradcheck.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

constexpr double kModelTolerance = 3e-2;
constexpr float kModelStep = 2e-3f;

model::ModelOptions tiny_config(bool tied, nn::AttentionForm form = nn::AttentionForm::kAdditive) {
  model::ModelOptions config;
  config.attention_form = form;
  config.source_vocabulary = 9;
  config.target_vocabulary = 8;
  config.embedding = 3;
  config.encoder_hidden = 2;
  config.decoder_hidden = 3;
  config.attention = 3;
  config.maxout = tied ? 3 : 2;
  config.tied_embeddings = tied;
  return config;
}

// Three pairs of different lengths, so that both sides are padded.
data::ParallelCorpus tiny_corpus() {
  data::ParallelCorpus corpus;
  corpus.source = {{4, 5, 6}, {7}, {8, 4}};
  corpus.target = {{4, 5}, {6, 7, 4}, {5}};
  return corpus;
}

// Piece links for tiny_corpus: pair 0 has a target piece linked to two source pieces,
// pair 1 an unlinked target piece, pair 2 no links at all.
data::ParallelCorpus tiny_aligned_corpus() {
  data::ParallelCorpus corpus = tiny_corpus();
  corpus.alignments = {data::parse_pharaoh("0-0 2-0 1-1", "tiny", 1), data::parse_pharaoh("0-0 0-2", "tiny", 2),
                       data::Alignment{}};
  return corpus;
}

// seed picks parameter values whose maxout pairs are not within a finite-difference step
// of a tie (a kink, where no derivative exists). guided > 0: the guided-alignment weight,
// on tiny_aligned_corpus.
rt::GradientReport check_model(bool tied, float dropout, float smoothing, std::uint32_t seed = 17,
                               float guided = 0.0f, const model::ModelOptions* config = nullptr) {
  model::RnnSearch net(config ? *config : tiny_config(tied));
  rt::randomize(net.parameters(), seed, 0.5f);
  const data::ParallelCorpus corpus = guided > 0.0f ? tiny_aligned_corpus() : tiny_corpus();
  const data::Batch batch = data::make_batch(corpus, {0, 1, 2});
  model::LossOptions options;
  options.dropout = dropout;
  options.label_smoothing = smoothing;
  options.guided_alignment_weight = guided;
  auto forward = [&] {
    util::Rng rng(5);  // the same dropout masks at every evaluation
    math::Matrix loss(1, 1);
    loss(0, 0) = static_cast<float>(net.loss(batch, options, 0.0f, &rng).loss);
    return loss;
  };
  auto backward = [&](const math::Matrix& d_loss, std::vector<math::Matrix>&) {
    util::Rng rng(5);
    net.loss(batch, options, d_loss(0, 0), &rng);
  };
  return rt::check_gradients(net.parameters(), {}, forward, backward, 3, kModelStep);
}

// The loss and every parameter gradient (gradient_scale 1) of the tiny model on `corpus`.
struct LossAndGradients {
  double loss = 0.0;
  std::vector<math::Matrix> gradients;
};

LossAndGradients loss_and_gradients(const data::ParallelCorpus& corpus, float guided) {
  model::RnnSearch net(tiny_config(false));
  rt::randomize(net.parameters(), 17, 0.5f);
  net.parameters().zero_gradients();
  model::LossOptions options;
  options.guided_alignment_weight = guided;
  LossAndGradients out;
  out.loss = net.loss(data::make_batch(corpus, {0, 1, 2}), options, 1.0f).loss;
  for (const nn::Parameter* p : net.parameters().all()) out.gradients.push_back(p->gradient);
  return out;
}

bool same(const LossAndGradients& a, const LossAndGradients& b) {
  if (a.loss != b.loss || a.gradients.size() != b.gradients.size()) return false;
  for (std::size_t i = 0; i < a.gradients.size(); ++i) {
    if (!(a.gradients[i] == b.gradients[i])) return false;
  }
  return true;
}

// encode + decoder_step, step by step, give the teacher-forced loss of RnnSearch::loss.
void check_decoder_steps(nn::AttentionForm form) {
  model::RnnSearch net(tiny_config(false, form));
  rt::randomize(net.parameters(), 23, 0.5f);
  const data::ParallelCorpus corpus = tiny_corpus();
  const data::Batch batch = data::make_batch(corpus, {0, 1, 2});
  const double teacher_forced = net.loss(batch, {}, 0.0f).loss;

  model::EncoderOutput encoded;
  net.encode(batch.source, batch.source_mask, encoded);
  math::Matrix state = encoded.initial_state, next, log_probs, weights;
  double stepwise = 0.0;
  const int B = batch.sentences;
  for (int t = 0; t < batch.target_length; ++t) {
    const std::vector<std::int32_t> previous(batch.target_input.begin() + t * B, batch.target_input.begin() + (t + 1) * B);
    net.decoder_step(encoded, nullptr, previous, state, log_probs, next, weights);
    for (int b = 0; b < B; ++b) {
      if (batch.target_mask(t, b) == 0.0f) continue;
      stepwise -= log_probs(b, batch.target_output[static_cast<std::size_t>(t * B + b)]);
      // Attention weights are a distribution over the real source positions only (none: all zero).
      BOOST_TEST(std::fabs(weights.row(b).sum() - (net.has_attention() ? 1.0f : 0.0f)) < 1e-5f);
      for (int j = 0; j < batch.source_length; ++j) {
        if (batch.source_mask(j, b) == 0.0f) BOOST_TEST(weights(b, j) == 0.0f);
      }
    }
    state.swap(next);
  }
  BOOST_TEST(std::fabs(stepwise - teacher_forced) < 1e-4 * std::fabs(teacher_forced));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rnnsearch_model)

BOOST_AUTO_TEST_CASE(finite_difference_gradients_of_every_parameter) {
  const rt::GradientReport report = check_model(false, 0.0f, 0.0f);
  BOOST_TEST_MESSAGE("worst: " << report.worst_place);
  BOOST_TEST(report.checked > 200u);
  BOOST_TEST(report.worst_error < kModelTolerance, report.worst_place);
}

BOOST_AUTO_TEST_CASE(finite_difference_gradients_tied_embeddings) {
  const rt::GradientReport report = check_model(true, 0.0f, 0.0f, 29);
  BOOST_TEST(report.worst_error < kModelTolerance, report.worst_place);
}

BOOST_AUTO_TEST_CASE(finite_difference_gradients_with_dropout_and_label_smoothing) {
  const rt::GradientReport report = check_model(false, 0.3f, 0.1f);
  BOOST_TEST(report.worst_error < kModelTolerance, report.worst_place);
}

BOOST_AUTO_TEST_CASE(finite_difference_gradients_with_guided_alignment) {
  const rt::GradientReport report = check_model(false, 0.0f, 0.0f, 17, 1.0f);
  BOOST_TEST_MESSAGE("guided alignment, worst: " << report.worst_error << " at " << report.worst_place);
  BOOST_TEST(report.checked > 200u);
  BOOST_TEST(report.worst_error < kModelTolerance, report.worst_place);
  const rt::GradientReport with_dropout = check_model(false, 0.3f, 0.1f, 17, 0.5f);
  BOOST_TEST(with_dropout.worst_error < kModelTolerance, with_dropout.worst_place);
}

// Every attention form: general (m 3, 2n 4), dot folded (m 3 < 2n 4) and plain (m = 2n
// = 4), none; each also with dropout and label smoothing (seed 19: with 17, folded dot's
// dropout run puts a maxout pair within a step of a tie).
BOOST_AUTO_TEST_CASE(finite_difference_gradients_of_each_attention_form) {
  struct Form {
    nn::AttentionForm form;
    int decoder;
  };
  for (const Form f : {Form{nn::AttentionForm::kGeneral, 3}, Form{nn::AttentionForm::kDot, 3},
                       Form{nn::AttentionForm::kDot, 4}, Form{nn::AttentionForm::kNone, 3}}) {
    model::ModelOptions config = tiny_config(false, f.form);
    config.decoder_hidden = f.decoder;
    const std::string what = std::string(nn::attention_form_name(f.form)) + ", dec " + std::to_string(f.decoder);
    const rt::GradientReport report = check_model(false, 0.0f, 0.0f, 17, 0.0f, &config);
    BOOST_TEST_MESSAGE(what << ", worst: " << report.worst_error << " at " << report.worst_place);
    BOOST_TEST(report.checked > 150u, what);
    BOOST_TEST(report.worst_error < kModelTolerance, what << ": " << report.worst_place);
    const rt::GradientReport with_dropout = check_model(false, 0.3f, 0.1f, 19, 0.0f, &config);
    BOOST_TEST(with_dropout.worst_error < kModelTolerance, what << " with dropout: " << with_dropout.worst_place);
  }
}

BOOST_AUTO_TEST_CASE(each_attention_form_has_its_parameters) {
  const auto attention_parameters = [](nn::AttentionForm form) {
    model::RnnSearch net(tiny_config(false, form));
    std::string names;
    for (const nn::Parameter* p : net.parameters().all()) {
      if (p->name.rfind("decoder.attention.", 0) == 0) names += (names.empty() ? "" : " ") + p->name;
    }
    return names;
  };
  BOOST_TEST(attention_parameters(nn::AttentionForm::kAdditive) ==
             "decoder.attention.U decoder.attention.W decoder.attention.b decoder.attention.v");
  BOOST_TEST(attention_parameters(nn::AttentionForm::kGeneral) == "decoder.attention.W");
  BOOST_TEST(attention_parameters(nn::AttentionForm::kDot) == "");
  BOOST_TEST(attention_parameters(nn::AttentionForm::kNone) == "");
  BOOST_TEST(tiny_config(false, nn::AttentionForm::kGeneral).summary() ==
             "emb 3, enc 2x2, dec 3, att general, maxout 2, vocab 9/8");
  BOOST_TEST(tiny_config(false).summary() == "emb 3, enc 2x2, dec 3, att additive 3, maxout 2, vocab 9/8");
}

BOOST_AUTO_TEST_CASE(a_model_without_attention_has_no_alignment) {
  model::RnnSearch net(tiny_config(false, nn::AttentionForm::kNone));
  rt::randomize(net.parameters(), 17, 0.5f);
  BOOST_TEST(!net.has_attention());
  BOOST_TEST(model::RnnSearch(tiny_config(false)).has_attention());
  const data::Batch batch = data::make_batch(tiny_aligned_corpus(), {0, 1, 2});
  BOOST_CHECK_THROW(net.forced_attention(batch), util::Error);
  model::LossOptions guided;
  guided.guided_alignment_weight = 1.0f;
  BOOST_CHECK_THROW(net.loss(batch, guided, 1.0f), util::Error);
  BOOST_TEST(std::isfinite(net.loss(batch, {}, 1.0f).loss));
}

BOOST_AUTO_TEST_CASE(a_missing_guided_alignment_gradient_is_caught) {
  // The guided check is not vacuous: a backward pass without the alignment term fails it.
  model::RnnSearch net(tiny_config(false));
  rt::randomize(net.parameters(), 17, 0.5f);
  const data::Batch batch = data::make_batch(tiny_aligned_corpus(), {0, 1, 2});
  model::LossOptions guided;
  guided.guided_alignment_weight = 1.0f;
  auto forward = [&] {
    math::Matrix loss(1, 1);
    loss(0, 0) = static_cast<float>(net.loss(batch, guided, 0.0f).loss);
    return loss;
  };
  auto backward = [&](const math::Matrix& d_loss, std::vector<math::Matrix>&) { net.loss(batch, {}, d_loss(0, 0)); };
  BOOST_TEST(rt::check_gradients(net.parameters(), {}, forward, backward, 3, kModelStep).worst_error > 0.2);
}

BOOST_AUTO_TEST_CASE(guided_alignment_cost_is_the_attention_cross_entropy_of_the_links) {
  // loss(weight) - loss(0) = weight * sum over linked target pieces of
  // -sum_j g_j log(alpha_j + 1e-6), with g uniform over the piece's linked source pieces.
  model::RnnSearch net(tiny_config(false));
  rt::randomize(net.parameters(), 17, 0.5f);
  const data::Batch batch = data::make_batch(tiny_aligned_corpus(), {0, 1, 2});
  const auto attention = net.forced_attention(batch);  // [target + 1 x source + 1] per pair
  const auto log_alpha = [&](int pair, int t, int s) { return std::log(static_cast<double>(attention[pair](t, s)) + 1e-6); };
  const double cost = -(0.5 * log_alpha(0, 0, 0) + 0.5 * log_alpha(0, 0, 2) + log_alpha(0, 1, 1)) -
                      (log_alpha(1, 0, 0) + log_alpha(1, 2, 0));
  model::LossOptions options;
  const double plain = net.loss(batch, options, 0.0f).loss;
  options.guided_alignment_weight = 0.25f;
  const double guided = net.loss(batch, options, 0.0f).loss;
  BOOST_TEST(cost > 0.5);
  BOOST_TEST(std::fabs((guided - plain) - 0.25 * cost) < 1e-5 * cost);
}

// The alignment head, trained alone: the head-only loss is the guided cost of its
// weights beta; its gradient reaches the head's parameters (checked by central
// differences, coordinate by coordinate) and nothing else.
BOOST_AUTO_TEST_CASE(alignment_head_gradients_and_a_frozen_translation_model) {
  model::ModelOptions config = tiny_config(false);
  config.alignment_head = 4;
  model::RnnSearch net(config);
  rt::randomize(net.parameters(), 17, 0.5f);
  const data::Batch batch = data::make_batch(tiny_aligned_corpus(), {0, 1, 2});
  model::LossOptions options;
  options.alignment_head_only = true;
  options.guided_alignment_weight = 0.5f;
  options.dropout = 0.3f;  // ignored: the head reads the states of a clean forward pass
  util::Rng rng(3);
  net.parameters().zero_gradients();
  const nn::CrossEntropySum head = net.loss(batch, options, 1.0f, &rng);
  BOOST_TEST(head.tokens == 9u);  // 2 + 3 + 1 target pieces and three </s>
  std::size_t checked = 0;
  double worst = 0.0;
  for (nn::Parameter* p : net.parameters().all()) {
    const bool in_head = p->name.rfind("alignment_head.", 0) == 0;
    if (!in_head) {
      BOOST_TEST(p->gradient.isZero(0.0f), p->name << " got a gradient from the head's cost");
      continue;
    }
    for (Eigen::Index k = 0; k < p->value.size(); ++k) {
      const float kept = p->value.data()[k];
      p->value.data()[k] = kept + kModelStep;
      const double up = net.loss(batch, options, 0.0f).loss;
      p->value.data()[k] = kept - kModelStep;
      const double down = net.loss(batch, options, 0.0f).loss;
      p->value.data()[k] = kept;
      const double numeric = (up - down) / (2.0 * kModelStep), analytic = p->gradient.data()[k];
      worst = std::max(worst, std::fabs(analytic - numeric) / (0.01 + std::fabs(analytic) + std::fabs(numeric)));
      ++checked;
    }
  }
  BOOST_TEST(checked == static_cast<std::size_t>(4 * 4 + 6 * 4 + 4 + 4));  // U [2n x A'], W [(m+e) x A'], b, v
  BOOST_TEST(worst < kModelTolerance);

  // The head's cost is the cross-entropy of its own weights against the links.
  const auto beta = net.forced_attention(batch, model::AttentionSource::kAlignmentHead);
  const auto log_beta = [&](int pair, int t, int s) { return std::log(static_cast<double>(beta[pair](t, s)) + 1e-6); };
  const double cost = -(0.5 * log_beta(0, 0, 0) + 0.5 * log_beta(0, 0, 2) + log_beta(0, 1, 1)) -
                      (log_beta(1, 0, 0) + log_beta(1, 2, 0));
  BOOST_TEST(std::fabs(head.loss - 0.5 * cost) < 1e-5 * cost);
  // beta is a distribution over the real source positions, and not alpha.
  const auto alpha = net.forced_attention(batch);
  for (std::size_t b = 0; b < beta.size(); ++b) {
    BOOST_TEST(beta[b].rows() == alpha[b].rows());
    BOOST_TEST(beta[b].cols() == alpha[b].cols());
    for (Eigen::Index t = 0; t < beta[b].rows(); ++t) BOOST_TEST(std::fabs(beta[b].row(t).sum() - 1.0f) < 1e-5f);
    BOOST_TEST(!beta[b].isApprox(alpha[b], 1e-3f));
  }
}

BOOST_AUTO_TEST_CASE(a_model_without_an_alignment_head_has_none_to_train_or_read) {
  model::RnnSearch net(tiny_config(false));
  BOOST_TEST(!net.has_alignment_head());
  const data::Batch batch = data::make_batch(tiny_aligned_corpus(), {0, 1, 2});
  model::LossOptions options;
  options.alignment_head_only = true;
  options.guided_alignment_weight = 1.0f;
  BOOST_CHECK_THROW(net.loss(batch, options, 1.0f), util::Error);
  BOOST_CHECK_THROW(net.forced_attention(batch, model::AttentionSource::kAlignmentHead), util::Error);
}

// A model with a head copies the translation parameters of one without: the same
// translation loss, and only the head's parameters left as they were.
BOOST_AUTO_TEST_CASE(copy_matching_parameters_fills_everything_but_the_new_head) {
  model::RnnSearch plain(tiny_config(false));
  rt::randomize(plain.parameters(), 17, 0.5f);
  model::ModelOptions config = tiny_config(false);
  config.alignment_head = 4;
  model::RnnSearch with_head(config);
  rt::randomize(with_head.parameters(), 5, 0.5f);
  with_head.copy_matching_parameters_from(plain);
  const data::Batch batch = data::make_batch(tiny_corpus(), {0, 1, 2});
  BOOST_TEST(with_head.loss(batch, {}, 0.0f).loss == plain.loss(batch, {}, 0.0f).loss);
  BOOST_TEST(with_head.parameters().all().size() == plain.parameters().all().size() + 4);
  model::RnnSearch other_shape(tiny_config(true));
  BOOST_CHECK_THROW(with_head.copy_matching_parameters_from(other_shape), util::Error);
}

BOOST_AUTO_TEST_CASE(guided_alignment_without_weight_or_links_changes_nothing) {
  // Bit for bit: no term in the loss, nothing in any gradient.
  const LossAndGradients plain = loss_and_gradients(tiny_corpus(), 0.0f);
  BOOST_TEST(same(loss_and_gradients(tiny_aligned_corpus(), 0.0f), plain));  // weight 0
  BOOST_TEST(same(loss_and_gradients(tiny_corpus(), 1.0f), plain));          // no alignments
  data::ParallelCorpus unlinked = tiny_corpus();
  unlinked.alignments.assign(3, data::Alignment{});
  BOOST_TEST(same(loss_and_gradients(unlinked, 1.0f), plain));  // alignments without links
  const LossAndGradients guided = loss_and_gradients(tiny_aligned_corpus(), 1.0f);
  BOOST_TEST(!same(guided, plain));  // and links do change both
  BOOST_TEST(guided.loss > plain.loss);
}

BOOST_AUTO_TEST_CASE(transposed_copies_made_in_parts_give_the_same_gradients) {
  for (const auto form : {nn::AttentionForm::kAdditive, nn::AttentionForm::kDot}) {
    model::RnnSearch net(tiny_config(false, form));
    rt::randomize(net.parameters(), 17, 0.5f);
    model::TransposedWeights whole, parts;
    net.transpose_weights(whole);
    for (int part = 0; part < 3; ++part) net.transpose_weights(parts, part, 3);  // as three threads
    BOOST_TEST((parts.context == whole.context && parts.decoder.zr == whole.decoder.zr &&
                parts.decoder.h == whole.decoder.h && parts.encoder.forward.cells[0].zr == whole.encoder.forward.cells[0].zr &&
                parts.encoder.backward.cells[0].h == whole.encoder.backward.cells[0].h && parts.attention.query == whole.attention.query &&
                parts.output == whole.output));
    BOOST_TEST((whole.output == net.parameters().get("decoder.output.W").value.transpose()));
    BOOST_TEST((whole.context == net.parameters().get("decoder.gru.W").value.bottomRows(4).transpose()));

    const data::Batch batch = data::make_batch(tiny_corpus(), {0, 1, 2});
    LossAndGradients own, shared;
    model::LossOptions options;
    for (LossAndGradients* out : {&own, &shared}) {
      net.parameters().zero_gradients();
      options.transposed = out == &shared ? &parts : nullptr;
      out->loss = net.loss(batch, options, 1.0f).loss;
      for (const nn::Parameter* p : net.parameters().all()) out->gradients.push_back(p->gradient);
    }
    BOOST_TEST(same(own, shared));
    BOOST_TEST(own.gradients[0].cwiseAbs().maxCoeff() > 0.0f);
  }
}

BOOST_AUTO_TEST_CASE(a_wrong_gradient_scale_is_caught) {
  // The check is not vacuous: doubling the backward pass fails it.
  model::RnnSearch net(tiny_config(false));
  rt::randomize(net.parameters(), 17, 0.5f);
  const data::ParallelCorpus corpus = tiny_corpus();
  const data::Batch batch = data::make_batch(corpus, {0, 1, 2});
  auto forward = [&] {
    math::Matrix loss(1, 1);
    loss(0, 0) = static_cast<float>(net.loss(batch, {}, 0.0f).loss);
    return loss;
  };
  auto backward = [&](const math::Matrix& d_loss, std::vector<math::Matrix>&) { net.loss(batch, {}, 2 * d_loss(0, 0)); };
  BOOST_TEST(rt::check_gradients(net.parameters(), {}, forward, backward, 3, 1e-2f).worst_error > 0.2);
}

BOOST_AUTO_TEST_CASE(decoder_steps_give_the_training_loss) {
  for (const auto form : {nn::AttentionForm::kAdditive, nn::AttentionForm::kGeneral, nn::AttentionForm::kDot,
                          nn::AttentionForm::kNone}) {
    BOOST_TEST_CONTEXT(nn::attention_form_name(form)) { check_decoder_steps(form); }
  }
}

// A loss without gradients runs the forward pass only, and forced_attention only its
// decoder: the same numbers as the forward half of a training loss, and neither leaves the
// shared scratch in a state that changes the next training step's gradients.
BOOST_AUTO_TEST_CASE(forward_only_passes_give_the_training_pass_numbers) {
  for (const auto form : {nn::AttentionForm::kAdditive, nn::AttentionForm::kGeneral, nn::AttentionForm::kDot,
                          nn::AttentionForm::kNone}) {
    BOOST_TEST_CONTEXT(nn::attention_form_name(form)) {
      model::RnnSearch net(tiny_config(false, form));
      rt::randomize(net.parameters(), 5, 0.5f);
      const data::Batch batch = data::make_batch(tiny_aligned_corpus(), {0, 1, 2});
      model::LossOptions options;
      options.guided_alignment_weight = form == nn::AttentionForm::kNone ? 0.0f : 0.5f;
      const double forward_only = net.loss(batch, options, 0.0f).loss;
      net.parameters().zero_gradients();
      BOOST_TEST(net.loss(batch, options, 1.0f).loss == forward_only);
      std::vector<math::Matrix> gradients;
      for (const nn::Parameter* p : net.parameters().all()) gradients.push_back(p->gradient);

      net.parameters().zero_gradients();
      if (net.has_attention()) net.forced_attention(data::make_batch(tiny_corpus(), {2, 0}));
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
  // The analytic count of model/flops.h against math::gemm's own tally, for a training
  // step (forward and backward) on a padded batch, with each attention form.
  for (const auto form : {nn::AttentionForm::kAdditive, nn::AttentionForm::kGeneral, nn::AttentionForm::kDot,
                          nn::AttentionForm::kNone}) {
    model::ModelOptions config = tiny_config(false, form);
    model::RnnSearch net(config);
    rt::randomize(net.parameters(), 3, 0.5f);
    const data::Batch batch = data::make_batch(tiny_corpus(), {0, 1, 2});
    const double before = math::gemm_flops_done();
    net.loss(batch, {}, 1.0f);
    const double counted = math::gemm_flops_done() - before;
    const model::BatchShape shape{batch.sentences, batch.source_length, batch.target_length,
                                  static_cast<long>(batch.target_tokens()), static_cast<long>(batch.source_mask.sum())};
    BOOST_TEST(counted == model::training_flops(config, shape).matrix_products(), nn::attention_form_name(form));
  }
}

BOOST_AUTO_TEST_SUITE_END()
