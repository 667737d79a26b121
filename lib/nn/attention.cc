#include "nn/attention.h"

#include "math/softmax.h"
#include "nn/additive_attention.h"
#include "nn/fixed_context.h"
#include "nn/multiplicative_attention.h"
#include "util/error.h"

namespace rnnsearch::nn {

const char* attention_form_name(AttentionForm form) {
  switch (form) {
    case AttentionForm::kAdditive: return "additive";
    case AttentionForm::kDot: return "dot";
    case AttentionForm::kGeneral: return "general";
    case AttentionForm::kNone: return "none";
  }
  return "unknown";
}

std::unique_ptr<Attention> make_attention(AttentionForm form, ParameterRegistry& parameters, const std::string& name,
                                          int annotation_dim, int query_dim, int attention_dim) {
  switch (form) {
    case AttentionForm::kAdditive:
      return std::make_unique<AdditiveAttention>(parameters, name, annotation_dim, query_dim, attention_dim);
    case AttentionForm::kGeneral: return std::make_unique<GeneralAttention>(parameters, name, annotation_dim, query_dim);
    case AttentionForm::kDot: return std::make_unique<DotAttention>(name, annotation_dim, query_dim);
    case AttentionForm::kNone: return std::make_unique<FixedContext>(name, annotation_dim, query_dim);
  }
  throw util::Error(name + ": unknown attention form " + std::to_string(static_cast<int>(form)));
}

void Attention::context_backward(const StepCache& cache, const math::Matrix& d_context, const math::Matrix* d_weights,
                                 math::Matrix& d_annotations) {
  const math::Matrix& annotations = *cache.annotations;  // H: [(S*B) x 2n]
  const Eigen::Index B = cache.weights.rows(), S = cache.weights.cols();
  if (d_weights) {
    cache.d_weights = *d_weights;  // d_alpha: [B x S]
  } else {
    cache.d_weights.setZero(B, S);
  }
  for (Eigen::Index b = 0; b < B; ++b) {
    const int span = cache.span[static_cast<std::size_t>(b)];
    for (Eigen::Index j = 0; j < span; ++j) {
      const Eigen::Index r = j * B + b;
      cache.d_weights(b, j) += d_context.row(b).dot(annotations.row(r));
      d_annotations.row(r) += cache.weights(b, j) * d_context.row(b);
    }
  }
  cache.scores_bs.setZero(B, S);
  math::masked_softmax_backward(cache.weights, cache.d_weights, cache.scores_bs);
}

}  // namespace rnnsearch::nn
