#include "nn/attention.h"

#include <algorithm>

#include "math/softmax.h"
#include "math/weighted_rows.h"
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
  // Position by position, so that the rows j*B + b follow each other in memory.
  const int longest = cache.span.empty() ? 0 : *std::max_element(cache.span.begin(), cache.span.end());
  for (Eigen::Index j = 0; j < longest; ++j) {
    for (Eigen::Index b = 0; b < B; ++b) {
      if (j >= cache.span[static_cast<std::size_t>(b)]) continue;
      const Eigen::Index r = j * B + b;
      cache.d_weights(b, j) += d_context.row(b).dot(annotations.row(r));
      d_annotations.row(r) += cache.weights(b, j) * d_context.row(b);
    }
  }
  cache.scores_bs.setZero(B, S);
  math::masked_softmax_backward(cache.weights, cache.d_weights, cache.scores_bs);
}

const math::Matrix& Attention::map_rows(const math::Matrix& source_mask, const std::vector<int>* row_sentence,
                                       StepCache& cache) {
  const Eigen::Index S = source_mask.rows(), B = source_mask.cols();  // source_mask: [S x B]
  cache.row_sentence = row_sentence;
  const Eigen::Index R = row_sentence ? static_cast<Eigen::Index>(row_sentence->size()) : B;
  if (row_sentence) {
    cache.row_mask.resize(S, R);
    for (Eigen::Index r = 0; r < R; ++r) {
      const int b = (*row_sentence)[static_cast<std::size_t>(r)];
      if (b < 0 || b >= B) {
        throw util::Error("attention step: row " + std::to_string(r) + " reads sentence " + std::to_string(b) +
                          " of a batch of " + std::to_string(B));
      }
      cache.row_mask.col(r) = source_mask.col(b);
    }
  }
  const math::Matrix& mask = row_sentence ? cache.row_mask : source_mask;  // [S x R]
  cache.span.assign(static_cast<std::size_t>(R), 0);
  for (Eigen::Index j = 0; j < S; ++j) {
    for (Eigen::Index r = 0; r < R; ++r) {
      if (mask(j, r) != 0.0f) cache.span[static_cast<std::size_t>(r)] = static_cast<int>(j + 1);
    }
  }
  return mask;
}

void Attention::weighted_context(const StepCache& cache, const math::Matrix& annotations, Eigen::Index B,
                                 math::Matrix& context) {
  const Eigen::Index R = cache.weights.rows();
  const auto D = static_cast<int>(annotations.cols());
  context.resize(R, D);  // c: [R x 2n]
  for (Eigen::Index r = 0; r < R; ++r) {
    const Eigen::Index b = sentence_of(cache, r);
    const int span = cache.span[static_cast<std::size_t>(r)];
    math::weighted_rows(cache.weights.row(r).data(), span, annotations.row(b).data(), static_cast<long>(B * D), D,
                  context.row(r).data());
  }
}

void Attention::check_backward_cache(const StepCache& cache, const std::string& label) {
  if (!cache.annotations) throw util::Error(label + ": step_backward before step");
  if (cache.row_sentence) throw util::Error(label + ": step_backward after an inference step with a row map");
}

}  // namespace rnnsearch::nn
