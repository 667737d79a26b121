#include "nn/additive_attention.h"

#include "math/shape_check.h"
#include "math/gemm.h"
#include "math/softmax.h"
#include "util/error.h"

namespace rnnsearch::nn {

using math::check_shape;
using math::shape_text;
using math::Transpose;

AdditiveAttention::AdditiveAttention(ParameterRegistry& parameters, const std::string& name, int annotation_dim,
                                     int query_dim, int attention_dim)
    : keys_weight_(parameters.add(name + ".U", annotation_dim, attention_dim)),
      query_weight_(parameters.add(name + ".W", query_dim, attention_dim)),
      bias_(parameters.add(name + ".b", 1, attention_dim)),
      score_weight_(parameters.add(name + ".v", attention_dim, 1)) {}

void AdditiveAttention::precompute_keys(const math::Matrix& annotations, math::Matrix& keys) const {
  check_shape(annotations, annotations.rows(), annotation_dim(), keys_weight_.name + " annotations");
  keys.resize(annotations.rows(), attention_dim());  // keys: [(S*B) x A]
  math::gemm(annotations, Transpose::kNo, keys_weight_.value, Transpose::kNo, keys, 1.0f, 0.0f,
             keys_weight_.name.c_str());
}

void AdditiveAttention::keys_backward(const math::Matrix& annotations, const math::Matrix& d_keys,
                                      math::Matrix& d_annotations) const {
  check_shape(annotations, annotations.rows(), annotation_dim(), keys_weight_.name + " annotations");
  check_shape(d_keys, annotations.rows(), attention_dim(), keys_weight_.name + " gradient d_keys");
  check_shape(d_annotations, annotations.rows(), annotation_dim(), keys_weight_.name + " gradient d_annotations");
  math::gemm(annotations, Transpose::kYes, d_keys, Transpose::kNo, keys_weight_.gradient, 1.0f, 1.0f,
             keys_weight_.name.c_str());
  math::gemm(d_keys, Transpose::kNo, keys_weight_.value, Transpose::kYes, d_annotations, 1.0f, 1.0f,
             keys_weight_.name.c_str());
}

void AdditiveAttention::step(const math::Matrix& query, const math::Matrix& annotations, const math::Matrix& keys,
                             const math::Matrix& source_mask, StepCache& cache, math::Matrix& context,
                             math::Matrix& weights) const {
  const Eigen::Index S = source_mask.rows(), B = source_mask.cols();  // source_mask: [S x B]
  const Eigen::Index D = annotation_dim(), A = attention_dim();
  check_shape(query, B, query_dim(), query_weight_.name + " query");
  check_shape(annotations, S * B, D, keys_weight_.name + " annotations");
  check_shape(keys, S * B, A, keys_weight_.name + " keys");

  cache.annotations = &annotations;
  cache.query = query;  // s: [B x m]
  cache.projected_query.resize(B, A);  // q: [B x A]
  math::gemm(query, Transpose::kNo, query_weight_.value, Transpose::kNo, cache.projected_query, 1.0f, 0.0f,
             query_weight_.name.c_str());
  cache.projected_query.rowwise() += bias_.value.row(0);

  cache.span.assign(static_cast<std::size_t>(B), 0);
  cache.hidden.resize(S * B, A);  // tanh(q_b + K_{j,b}): [(S*B) x A]
  for (Eigen::Index j = 0; j < S; ++j) {
    for (Eigen::Index b = 0; b < B; ++b) {
      const Eigen::Index r = j * B + b;
      if (source_mask(j, b) != 0.0f) {
        cache.hidden.row(r) = (cache.projected_query.row(b) + keys.row(r)).array().tanh();
        cache.span[static_cast<std::size_t>(b)] = static_cast<int>(j + 1);
      } else {
        cache.hidden.row(r).setZero();
      }
    }
  }
  cache.scores.resize(S * B, 1);  // e: [(S*B) x 1], i.e. [S x B]
  math::gemm(cache.hidden, Transpose::kNo, score_weight_.value, Transpose::kNo, cache.scores, 1.0f, 0.0f,
             score_weight_.name.c_str());
  cache.scores_bs.resize(B, S);  // e: [B x S]
  cache.scores_bs = math::ConstMatrixMap(cache.scores.data(), S, B).transpose();
  math::masked_softmax(cache.scores_bs, source_mask, math::MaskLayout::kTransposed, cache.weights);
  weights = cache.weights;  // alpha: [B x S]

  // c_b = alpha_b H_b, H_b: [span x 2n] with rows B*2n apart; padding past the span is skipped.
  context.resize(B, D);  // c: [B x 2n]
  for (Eigen::Index b = 0; b < B; ++b) {
    const int span = cache.span[static_cast<std::size_t>(b)];
    if (span == 0) {
      context.row(b).setZero();
      continue;
    }
    math::gemm_raw(Transpose::kNo, Transpose::kNo, 1, static_cast<int>(D), span, 1.0f, cache.weights.data() + b * S,
                   static_cast<int>(S), annotations.data() + b * D, static_cast<int>(B * D), 0.0f,
                   context.data() + b * D, static_cast<int>(D));
  }
}

void AdditiveAttention::step_backward(const StepCache& cache, const math::Matrix& d_context,
                                      const math::Matrix* d_weights, math::Matrix& d_query,
                                      math::Matrix& d_annotations, math::Matrix& d_keys) const {
  if (!cache.annotations) throw util::Error(keys_weight_.name + ": step_backward before step");
  const math::Matrix& annotations = *cache.annotations;  // H: [(S*B) x 2n]
  const Eigen::Index B = cache.weights.rows(), S = cache.weights.cols();
  const Eigen::Index D = annotation_dim(), A = attention_dim();
  check_shape(d_context, B, D, keys_weight_.name + " gradient d_context");
  if (d_weights) check_shape(*d_weights, B, S, keys_weight_.name + " gradient d_weights");
  check_shape(d_query, B, query_dim(), query_weight_.name + " gradient d_query");
  check_shape(d_annotations, S * B, D, keys_weight_.name + " gradient d_annotations");
  check_shape(d_keys, S * B, A, keys_weight_.name + " gradient d_keys");

  // d_alpha_b = d_c_b H_b^T (+ d_weights);  dH_b += alpha_b^T d_c_b.
  if (d_weights) {
    cache.d_weights = *d_weights;  // d_alpha: [B x S]
  } else {
    cache.d_weights.setZero(B, S);
  }
  for (Eigen::Index b = 0; b < B; ++b) {
    const int span = cache.span[static_cast<std::size_t>(b)];
    if (span == 0) continue;
    math::gemm_raw(Transpose::kNo, Transpose::kYes, 1, span, static_cast<int>(D), 1.0f, d_context.data() + b * D,
                   static_cast<int>(D), annotations.data() + b * D, static_cast<int>(B * D), 1.0f,
                   cache.d_weights.data() + b * S, static_cast<int>(S));
    math::gemm_raw(Transpose::kYes, Transpose::kNo, span, static_cast<int>(D), 1, 1.0f, cache.weights.data() + b * S,
                   static_cast<int>(S), d_context.data() + b * D, static_cast<int>(D), 1.0f,
                   d_annotations.data() + b * D, static_cast<int>(B * D));
  }

  cache.scores_bs.setZero(B, S);  // d_e: [B x S]
  math::masked_softmax_backward(cache.weights, cache.d_weights, cache.scores_bs);

  // d_pre = d_e v^T (1 - tanh^2) row by row; it is exactly 0 wherever d_e is (all padding).
  cache.scores.setZero(S * B, 1);              // d_e: [(S*B) x 1]
  cache.d_projected_query.setZero(B, A);       // d_q: [B x A]
  cache.d_pre.resize(1, A);                    // one row of d_pre: [1 x A]
  for (Eigen::Index b = 0; b < B; ++b) {
    for (Eigen::Index j = 0; j < cache.span[static_cast<std::size_t>(b)]; ++j) {
      const float g = cache.scores_bs(b, j);
      if (g == 0.0f) continue;
      const Eigen::Index r = j * B + b;
      cache.scores(r, 0) = g;
      cache.d_pre.array() =
          g * score_weight_.value.col(0).transpose().array() * (1.0f - cache.hidden.row(r).array().square());
      d_keys.row(r) += cache.d_pre;
      cache.d_projected_query.row(b) += cache.d_pre;
    }
  }
  math::gemm(cache.hidden, Transpose::kYes, cache.scores, Transpose::kNo, score_weight_.gradient, 1.0f, 1.0f,
             score_weight_.name.c_str());
  math::gemm(cache.query, Transpose::kYes, cache.d_projected_query, Transpose::kNo, query_weight_.gradient, 1.0f,
             1.0f, query_weight_.name.c_str());
  bias_.gradient.row(0) += cache.d_projected_query.colwise().sum();
  math::gemm(cache.d_projected_query, Transpose::kNo, query_weight_.value, Transpose::kYes, d_query, 1.0f, 1.0f,
             query_weight_.name.c_str());
}

}  // namespace rnnsearch::nn
