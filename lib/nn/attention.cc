#include "nn/attention.h"

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

}  // namespace rnnsearch::nn
