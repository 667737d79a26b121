#include "nn/multiplicative_attention.h"

#include <algorithm>

#include "math/gemm.h"
#include "math/shape_check.h"
#include "math/softmax.h"
#include "util/error.h"

namespace rnnsearch::nn {

using math::check_shape;
using math::Transpose;

namespace {

// out: [rows x k] (resized), out_r = sum over columns c = r (mod k) of x_c.
void fold_columns(const math::Matrix& x, Eigen::Index k, math::Matrix& out) {
  out.setZero(x.rows(), k);
  for (Eigen::Index start = 0; start < x.cols(); start += k) {
    const Eigen::Index width = std::min(k, x.cols() - start);
    out.leftCols(width) += x.middleCols(start, width);
  }
}

// d_x += the gradient of fold_columns: column c of d_x gets column c mod k of d_out.
void unfold_columns_add(const math::Matrix& d_out, math::Matrix& d_x) {
  const Eigen::Index k = d_out.cols();
  for (Eigen::Index start = 0; start < d_x.cols(); start += k) {
    const Eigen::Index width = std::min(k, d_x.cols() - start);
    d_x.middleCols(start, width) += d_out.leftCols(width);
  }
}

}  // namespace

MultiplicativeAttention::MultiplicativeAttention(int annotation_dim, int query_dim, std::string label)
    : Attention(annotation_dim, query_dim), label_(std::move(label)) {}

void MultiplicativeAttention::step(const math::Matrix& query, const math::Matrix& annotations,
                                   const math::Matrix& keys, const math::Matrix& source_mask, StepCache& cache,
                                   math::Matrix& context, math::Matrix& weights,
                                   const std::vector<int>* row_sentence) const {
  const Eigen::Index S = source_mask.rows(), B = source_mask.cols();  // source_mask: [S x B]
  const Eigen::Index R = row_sentence ? static_cast<Eigen::Index>(row_sentence->size()) : B;
  const Eigen::Index D = annotation_dim(), K = key_dim();
  check_shape(query, R, query_dim(), label_ + " query");
  check_shape(annotations, S * B, D, label_ + " annotations");
  check_shape(keys, S * B, K, label_ + " keys");
  const math::Matrix& mask = map_rows(source_mask, row_sentence, cache);  // [S x R]

  cache.annotations = &annotations;
  cache.keys = &keys;
  map_query(query, cache.projected_query);  // q: [R x k]

  // e_rj = q_r . K_{j,b} at real positions; padded keys are never read.
  cache.scores_bs.resize(R, S);  // e: [R x S]
  for (Eigen::Index j = 0; j < S; ++j) {
    for (Eigen::Index r = 0; r < R; ++r) {
      cache.scores_bs(r, j) =
          mask(j, r) != 0.0f ? cache.projected_query.row(r).dot(keys.row(j * B + sentence_of(cache, r))) : 0.0f;
    }
  }
  math::masked_softmax(cache.scores_bs, mask, math::MaskLayout::kTransposed, cache.weights);
  weights = cache.weights;  // alpha: [R x S]
  weighted_context(cache, annotations, B, context);
}

void MultiplicativeAttention::step_backward(const StepCache& cache, const math::Matrix& d_context,
                                            const math::Matrix* d_weights, math::Matrix& d_query,
                                            math::Matrix& d_annotations, math::Matrix& d_keys,
                                            WeightGradients /*weights*/,
                                            const TransposedWeights* /*transposed*/) const {
  check_backward_cache(cache, label_);
  if (!cache.keys) throw util::Error(label_ + ": step_backward before step");
  const math::Matrix& keys = *cache.keys;                // K: [(S*B) x k]
  const Eigen::Index B = cache.weights.rows(), S = cache.weights.cols();
  const Eigen::Index D = annotation_dim(), K = key_dim();
  check_shape(d_context, B, D, label_ + " gradient d_context");
  if (d_weights) check_shape(*d_weights, B, S, label_ + " gradient d_weights");
  check_shape(d_query, B, query_dim(), label_ + " gradient d_query");
  check_shape(d_annotations, S * B, D, label_ + " gradient d_annotations");
  check_shape(d_keys, S * B, K, label_ + " gradient d_keys");

  context_backward(cache, d_context, d_weights, d_annotations);  // d_e into cache.scores_bs

  // d_q_b = sum_j d_e_bj K_{j,b};  dK_{j,b} += d_e_bj q_b (d_e is exactly 0 at padding).
  cache.d_projected_query.setZero(B, K);  // d_q: [B x k]
  for (Eigen::Index b = 0; b < B; ++b) {
    for (Eigen::Index j = 0; j < cache.span[static_cast<std::size_t>(b)]; ++j) {
      const float g = cache.scores_bs(b, j);
      if (g == 0.0f) continue;
      const Eigen::Index r = j * B + b;
      cache.d_projected_query.row(b) += g * keys.row(r);
      d_keys.row(r) += g * cache.projected_query.row(b);
    }
  }
  map_query_backward(cache.d_projected_query, d_query);
}

GeneralAttention::GeneralAttention(ParameterRegistry& parameters, const std::string& name, int annotation_dim,
                                   int query_dim)
    : MultiplicativeAttention(annotation_dim, query_dim, name + ".W"),
      weight_(parameters.add(name + ".W", query_dim, annotation_dim)) {}

void GeneralAttention::precompute_keys(const math::Matrix& annotations, math::Matrix& keys) const {
  check_shape(annotations, annotations.rows(), annotation_dim(), label_ + " annotations");
  keys.resize(annotations.rows(), query_dim());  // K: [(S*B) x m]
  math::gemm(annotations, Transpose::kNo, weight_.value, Transpose::kYes, keys, 1.0f, 0.0f, weight_.name.c_str());
}

void GeneralAttention::keys_backward(const math::Matrix& annotations, const math::Matrix& d_keys,
                                     math::Matrix& d_annotations) const {
  check_shape(annotations, annotations.rows(), annotation_dim(), label_ + " annotations");
  check_shape(d_keys, annotations.rows(), query_dim(), label_ + " gradient d_keys");
  check_shape(d_annotations, annotations.rows(), annotation_dim(), label_ + " gradient d_annotations");
  math::gemm(d_keys, Transpose::kYes, annotations, Transpose::kNo, weight_.gradient, 1.0f, 1.0f,
             weight_.name.c_str());
  math::gemm(d_keys, Transpose::kNo, weight_.value, Transpose::kNo, d_annotations, 1.0f, 1.0f, weight_.name.c_str());
}

void GeneralAttention::map_query(const math::Matrix& query, math::Matrix& projected) const { projected = query; }

void GeneralAttention::map_query_backward(const math::Matrix& d_projected, math::Matrix& d_query) const {
  d_query += d_projected;
}

DotAttention::DotAttention(const std::string& name, int annotation_dim, int query_dim)
    : MultiplicativeAttention(annotation_dim, query_dim, name + " (dot)") {}

int DotAttention::key_dim() const { return std::min(annotation_dim(), query_dim()); }

void DotAttention::precompute_keys(const math::Matrix& annotations, math::Matrix& keys) const {
  check_shape(annotations, annotations.rows(), annotation_dim(), label_ + " annotations");
  fold_columns(annotations, key_dim(), keys);  // K: [(S*B) x k]
}

void DotAttention::keys_backward(const math::Matrix& annotations, const math::Matrix& d_keys,
                                 math::Matrix& d_annotations) const {
  check_shape(d_keys, annotations.rows(), key_dim(), label_ + " gradient d_keys");
  check_shape(d_annotations, annotations.rows(), annotation_dim(), label_ + " gradient d_annotations");
  unfold_columns_add(d_keys, d_annotations);
}

void DotAttention::map_query(const math::Matrix& query, math::Matrix& projected) const {
  fold_columns(query, key_dim(), projected);  // q: [B x k]
}

void DotAttention::map_query_backward(const math::Matrix& d_projected, math::Matrix& d_query) const {
  unfold_columns_add(d_projected, d_query);
}

}  // namespace rnnsearch::nn
