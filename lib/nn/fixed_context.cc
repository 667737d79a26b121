#include "nn/fixed_context.h"

#include "math/shape_check.h"
#include "util/error.h"

namespace rnnsearch::nn {

using math::check_shape;

FixedContext::FixedContext(const std::string& name, int annotation_dim, int query_dim)
    : Attention(annotation_dim, query_dim), label_(name + " (none)") {
  if (annotation_dim % 2 != 0) {
    throw util::Error(label_ + ": annotations of two directions need an even width, got " +
                      std::to_string(annotation_dim));
  }
}

void FixedContext::precompute_keys(const math::Matrix& annotations, math::Matrix& keys) const {
  check_shape(annotations, annotations.rows(), annotation_dim(), label_ + " annotations");
  keys.resize(annotations.rows(), 0);
}

void FixedContext::keys_backward(const math::Matrix& annotations, const math::Matrix& d_keys,
                                 math::Matrix& d_annotations) const {
  check_shape(d_keys, annotations.rows(), 0, label_ + " gradient d_keys");
  check_shape(d_annotations, annotations.rows(), annotation_dim(), label_ + " gradient d_annotations");
}

void FixedContext::step(const math::Matrix& query, const math::Matrix& annotations, const math::Matrix& keys,
                        const math::Matrix& source_mask, StepCache& cache, math::Matrix& context,
                        math::Matrix& weights, const std::vector<int>* row_sentence) const {
  const Eigen::Index S = source_mask.rows(), B = source_mask.cols();  // source_mask: [S x B]
  const Eigen::Index R = row_sentence ? static_cast<Eigen::Index>(row_sentence->size()) : B;
  const Eigen::Index D = annotation_dim(), n = D / 2;
  check_shape(query, R, query_dim(), label_ + " query");
  check_shape(annotations, S * B, D, label_ + " annotations");
  check_shape(keys, S * B, 0, label_ + " keys");
  map_rows(source_mask, row_sentence, cache);

  cache.annotations = &annotations;
  cache.weights.setZero(R, S);
  weights = cache.weights;  // alpha: [R x S], zeros
  context.setZero(R, D);    // c: [R x 2n]
  for (Eigen::Index r = 0; r < R; ++r) {
    const int span = cache.span[static_cast<std::size_t>(r)];
    if (span == 0) continue;
    const Eigen::Index b = sentence_of(cache, r);
    context.row(r).head(n) = annotations.row((span - 1) * B + b).head(n);  // f_{L-1}
    context.row(r).tail(n) = annotations.row(b).tail(n);                   // b_0
  }
}

void FixedContext::step_backward(const StepCache& cache, const math::Matrix& d_context,
                                 const math::Matrix* /*d_weights*/, math::Matrix& d_query,
                                 math::Matrix& d_annotations, math::Matrix& d_keys,
                                 WeightGradients /*weights*/, const TransposedWeights* /*transposed*/) const {
  check_backward_cache(cache, label_);
  const Eigen::Index B = cache.weights.rows(), S = cache.weights.cols();
  const Eigen::Index D = annotation_dim(), n = D / 2;
  check_shape(d_context, B, D, label_ + " gradient d_context");
  check_shape(d_query, B, query_dim(), label_ + " gradient d_query");
  check_shape(d_annotations, S * B, D, label_ + " gradient d_annotations");
  check_shape(d_keys, S * B, 0, label_ + " gradient d_keys");
  for (Eigen::Index b = 0; b < B; ++b) {
    const int span = cache.span[static_cast<std::size_t>(b)];
    if (span == 0) continue;
    d_annotations.row((span - 1) * B + b).head(n) += d_context.row(b).head(n);
    d_annotations.row(b).tail(n) += d_context.row(b).tail(n);
  }
}

}  // namespace rnnsearch::nn
