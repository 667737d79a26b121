#include "nn/additive_attention.h"

#include "math/shape_check.h"
#include "math/gemm.h"
#include "math/softmax.h"
#include "math/step_ops.h"
#include "math/tanh_dot.h"
#include "math/vector_ops.h"
#include "math/transpose.h"
#include "util/error.h"

namespace rnnsearch::nn {

using math::check_shape;
using math::shape_text;
using math::Transpose;

namespace {

// Asks for the cache lines of two rows of n floats (the next (sentence, position) of a loop
// that visits rows B apart, which the hardware's stream detection does not see coming).
void prefetch_rows(const float* a, const float* b, Eigen::Index n) {
  constexpr Eigen::Index kLine = 64 / sizeof(float);
  for (Eigen::Index k = 0; k < n; k += kLine) {
    __builtin_prefetch(a + k);
    __builtin_prefetch(b + k, 1);
  }
}

}  // namespace

AdditiveAttention::AdditiveAttention(ParameterRegistry& parameters, const std::string& name, int annotation_dim,
                                     int query_dim, int attention_dim)
    : Attention(annotation_dim, query_dim),
      keys_weight_(parameters.add(name + ".U", annotation_dim, attention_dim)),
      query_weight_(parameters.add(name + ".W", query_dim, attention_dim)),
      bias_(parameters.add(name + ".b", 1, attention_dim)),
      score_weight_(parameters.add(name + ".v", attention_dim, 1)) {}

void AdditiveAttention::precompute_keys(const math::Matrix& annotations, math::Matrix& keys) const {
  check_shape(annotations, annotations.rows(), annotation_dim(), keys_weight_.name + " annotations");
  keys.resize(annotations.rows(), attention_dim());  // keys: [(S*B) x A]
  math::gemm(annotations, packed_keys_weight_.get(), keys_weight_.value, Transpose::kNo, keys, 1.0f, 0.0f,
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

void AdditiveAttention::set_inference_precision(math::Precision precision) {
  packed_keys_weight_ = math::pack_for_inference(keys_weight_.value, precision);
  packed_query_weight_ = math::pack_for_inference(query_weight_.value, precision);
  score_arithmetic_ = precision == math::Precision::kFp32 ? ScoreArithmetic::kExact : ScoreArithmetic::kFastTanh;
}

void AdditiveAttention::step(const math::Matrix& query, const math::Matrix& annotations, const math::Matrix& keys,
                             const math::Matrix& source_mask, StepCache& cache, math::Matrix& context,
                             math::Matrix& weights, const std::vector<int>* row_sentence) const {
  const Eigen::Index S = source_mask.rows(), B = source_mask.cols();  // source_mask: [S x B]
  const Eigen::Index R = row_sentence ? static_cast<Eigen::Index>(row_sentence->size()) : B;
  const Eigen::Index D = annotation_dim(), A = attention_dim();
  check_shape(query, R, query_dim(), query_weight_.name + " query");
  check_shape(annotations, S * B, D, keys_weight_.name + " annotations");
  check_shape(keys, S * B, A, keys_weight_.name + " keys");
  const math::Matrix& mask = map_rows(source_mask, row_sentence, cache);  // [S x R]

  cache.annotations = &annotations;
  cache.keys = &keys;  // step_backward computes the tanh rows again
  if (!row_sentence) cache.query = query;  // s: [B x m], for step_backward (which refuses a mapped step)
  cache.projected_query.resize(R, A);  // q: [R x A]
  math::gemm(query, packed_query_weight_.get(), query_weight_.value, Transpose::kNo, cache.projected_query, 1.0f,
             0.0f, query_weight_.name.c_str());
  math::add_row_to_rows(cache.projected_query, bias_.value);

  if (row_sentence && score_arithmetic_ == ScoreArithmetic::kFastTanh) {
    fast_scores(keys, B, mask, cache);
  } else {
    exact_scores(keys, B, mask, cache);
  }
  math::masked_softmax(cache.scores_bs, mask, math::MaskLayout::kTransposed, cache.weights);
  weights = cache.weights;  // alpha: [R x S]
  weighted_context(cache, annotations, B, context);
}

void AdditiveAttention::exact_scores(const math::Matrix& keys, Eigen::Index B, const math::Matrix& mask,
                                     StepCache& cache) const {
  const Eigen::Index S = mask.rows(), R = mask.cols(), A = attention_dim();
  // Vector products per position (e_rj = v . hidden row) run here, on the row just
  // computed, rather than as one-column products through math::gemm. No row is kept:
  // step_backward computes each again from q and K (the same bits), which costs less than
  // storing S*B rows per step and reading them back from memory (15 MB a batch half).
  cache.hidden_row.resize(1, A);
  cache.scores_bs.resize(R, S);  // e: [R x S]
  // tanh(q + k) and its dot product with v_a in one kernel (math::tanh_score), which
  // step_backward's math::tanh_score_backward computes again with the same bits.
  const float* v = score_weight_.value.data();  // v_a: [A x 1], contiguous
  float* hidden = cache.hidden_row.data();
  for (Eigen::Index j = 0; j < S; ++j) {
    for (Eigen::Index r = 0; r < R; ++r) {
      if (mask(j, r) != 0.0f) {
        const float* key = keys.row(j * B + sentence_of(cache, r)).data();
        cache.scores_bs(r, j) =
            math::tanh_score(cache.projected_query.row(r).data(), key, v, hidden, static_cast<int>(A));
      } else {
        cache.scores_bs(r, j) = 0.0f;
      }
    }
  }
}

void AdditiveAttention::fast_scores(const math::Matrix& keys, Eigen::Index B, const math::Matrix& mask,
                                    StepCache& cache) const {
  const Eigen::Index S = mask.rows(), R = mask.cols();
  const int A = attention_dim();
  const math::TanhDotFunction tanh_dot = math::tanh_dot_function();
  const float* v = score_weight_.value.data();  // v_a: [A x 1], contiguous
  cache.scores_bs.resize(R, S);  // e: [R x S]
  for (Eigen::Index j = 0; j < S; ++j) {
    for (Eigen::Index r = 0; r < R; ++r) {
      const float* key = keys.row(j * B + sentence_of(cache, r)).data();
      cache.scores_bs(r, j) =
          mask(j, r) != 0.0f ? tanh_dot(cache.projected_query.row(r).data(), key, v, A) : 0.0f;
    }
  }
}

void AdditiveAttention::step_backward(const StepCache& cache, const math::Matrix& d_context,
                                      const math::Matrix* d_weights, math::Matrix& d_query,
                                      math::Matrix& d_annotations, math::Matrix& d_keys,
                                      WeightGradients weights, const TransposedWeights* transposed) const {
  check_backward_cache(cache, keys_weight_.name);
  const Eigen::Index B = cache.weights.rows(), S = cache.weights.cols();
  const Eigen::Index D = annotation_dim(), A = attention_dim();
  check_shape(d_context, B, D, keys_weight_.name, "gradient d_context");
  if (d_weights) check_shape(*d_weights, B, S, keys_weight_.name, "gradient d_weights");
  check_shape(d_query, B, query_dim(), query_weight_.name, "gradient d_query");
  check_shape(d_annotations, S * B, D, keys_weight_.name, "gradient d_annotations");
  check_shape(d_keys, S * B, A, keys_weight_.name, "gradient d_keys");

  if (!cache.keys) throw util::Error(keys_weight_.name + ": step_backward without the step's keys");
  const math::Matrix& keys = *cache.keys;
  check_shape(keys, S * B, A, keys_weight_.name, "keys");
  context_backward(cache, d_context, d_weights, d_annotations);  // d_e into cache.scores_bs

  // d_pre = d_e v^T (1 - tanh^2) row by row, with the tanh row computed again as step did
  // (math::tanh_score_backward); it is exactly 0 wherever d_e is (all padding). Sentence by
  // sentence (dv's order of sums): key rows B apart, so the next one is fetched ahead.
  cache.d_projected_query.setZero(B, A);       // d_q: [B x A]
  cache.d_score_weight.setZero(1, A);          // dv, as a row: [1 x A]
  const float* v = score_weight_.value.data();  // [A x 1]
  float* dv = cache.d_score_weight.data();
  for (Eigen::Index b = 0; b < B; ++b) {
    float* dq = cache.d_projected_query.row(b).data();
    const float* q = cache.projected_query.row(b).data();
    const int span = cache.span[static_cast<std::size_t>(b)];
    for (Eigen::Index j = 0; j < span; ++j) {
      const float g = cache.scores_bs(b, j);
      if (g == 0.0f) continue;
      const Eigen::Index r = j * B + b;
      if (j + 1 < span) prefetch_rows(keys.row(r + B).data(), d_keys.row(r + B).data(), A);
      math::tanh_score_backward(g, q, keys.row(r).data(), v, dv, d_keys.row(r).data(), dq, static_cast<int>(A));
    }
  }
  score_weight_.gradient.col(0) += cache.d_score_weight.row(0).transpose();
  if (weights == WeightGradients::kNow) {
    query_weights_backward(cache.query, cache.d_projected_query);
  }
  if (transposed) {  // d_query += d_q W_a^T
    check_shape(transposed->query, A, query_dim(), query_weight_.name, "transposed copy");
    math::gemm(cache.d_projected_query, Transpose::kNo, transposed->query, Transpose::kNo, d_query, 1.0f, 1.0f,
               query_weight_.name.c_str());
  } else {
    math::gemm(cache.d_projected_query, Transpose::kNo, query_weight_.value, Transpose::kYes, d_query, 1.0f, 1.0f,
               query_weight_.name.c_str());
  }
}

void AdditiveAttention::transpose_weights(TransposedWeights& out) const {
  math::transpose(query_weight_.value, out.query);
}

void AdditiveAttention::query_weights_backward(const math::ConstMatrixRef& queries,
                                               const math::ConstMatrixRef& d_projected_queries) const {
  math::gemm(queries, Transpose::kYes, d_projected_queries, Transpose::kNo, query_weight_.gradient, 1.0f, 1.0f,
             query_weight_.name.c_str());
  bias_.gradient.row(0) += d_projected_queries.colwise().sum();
}

}  // namespace rnnsearch::nn
