#include "model/model_options.h"

#include "util/error.h"
#include "util/option_range.h"

namespace rnnsearch::model {

void ModelOptions::validate() const {
  util::check_range("dim-emb", embedding, 1, kMaxDimension);
  util::check_range("dim-enc", encoder_hidden, 1, kMaxDimension);
  util::check_range("dim-dec", decoder_hidden, 1, kMaxDimension);
  util::check_range("dim-att", attention, 1, kMaxDimension);
  util::check_range("dim-maxout", maxout, 1, kMaxDimension);
  if (source_vocabulary < 5 || target_vocabulary < 5 || source_vocabulary > kMaxVocabulary ||
      target_vocabulary > kMaxVocabulary) {
    throw util::UsageError("vocabularies need at least one token besides the 4 specials and at most " +
                           std::to_string(kMaxVocabulary) + " entries, got " + std::to_string(source_vocabulary) +
                           " source and " + std::to_string(target_vocabulary) + " target entries");
  }
  if (attention_form != nn::AttentionForm::kAdditive && attention_form != nn::AttentionForm::kDot &&
      attention_form != nn::AttentionForm::kGeneral && attention_form != nn::AttentionForm::kNone) {
    throw util::UsageError("unknown attention form " + std::to_string(static_cast<int>(attention_form)));
  }
  util::check_range("alignment-head", alignment_head, 0, kMaxDimension);
  util::check_range("enc-cell-depth", encoder_depth, 1, kMaxCellDepth);
  util::check_range("dec-cell-depth", decoder_depth, 1, kMaxCellDepth);
  if (tied_embeddings && maxout != embedding) {
    throw util::UsageError("--tied-embeddings needs --dim-maxout equal to --dim-emb, got " + std::to_string(maxout) +
                           " and " + std::to_string(embedding));
  }
}

std::string ModelOptions::summary() const {
  const auto depth = [](int d) { return d > 1 ? " depth " + std::to_string(d) : std::string(); };
  return "emb " + std::to_string(embedding) + ", enc " + std::to_string(encoder_hidden) + "x2" + depth(encoder_depth) +
         ", dec " + std::to_string(decoder_hidden) + (conditional_decoder() ? " conditional" : "") +
         depth(decoder_depth) + (layer_norm ? ", layer norm" : "") + ", att " + nn::attention_form_name(attention_form) +
         (attention_form == nn::AttentionForm::kAdditive ? " " + std::to_string(attention) : std::string()) +
         ", maxout " + std::to_string(maxout) + (tied_embeddings ? " (tied)" : "") +
         (alignment_head > 0 ? ", alignment head " + std::to_string(alignment_head) : std::string()) + ", vocab " +
         std::to_string(source_vocabulary) + "/" + std::to_string(target_vocabulary);
}

nn::AttentionForm parse_attention_form(const std::string& name) {
  for (const auto form : {nn::AttentionForm::kAdditive, nn::AttentionForm::kDot, nn::AttentionForm::kGeneral,
                          nn::AttentionForm::kNone}) {
    if (name == nn::attention_form_name(form)) return form;
  }
  throw util::UsageError("--attention must be one of additive, dot, general, none, got '" + name + "'");
}

}  // namespace rnnsearch::model
