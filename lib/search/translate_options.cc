#include "search/ensemble.h"
#include "search/translator.h"
#include "model/model_file.h"
#include "util/error.h"
#include "util/option_range.h"

namespace rnnsearch::search {

void TranslateOptions::validate() const {
  util::check_range("beam-size", beam.beam_size, 1, kMaxBeamSize);
  util::check_range("n-best", n_best, 0, beam.beam_size);
  util::check_range("length-penalty", beam.length_penalty, 0.0, kMaxLengthPenalty);
  util::check_range("max-length-ratio", beam.max_length_ratio, 0.01, kMaxLengthRatio);
  util::check_range("max-length", max_length, std::size_t{0}, kMaxSourcePieces);
  data::check_unknown_warning(unknown_warning);
  data::check_language_warning(language_warning);
  util::check_range("mini-batch", beam.batch_size, 1, kMaxMiniBatch);
  util::check_range("maxi-batch", maxi_batch, 1, kMaxMaxiBatch);
  if (word_scores && n_best == 0) throw util::UsageError("--word-scores needs --n-best");
  math::check_precision_supported(precision);
  if (!prefix_file.empty() && (constraint_input.force_decode || constraint_input.json)) {
    throw util::UsageError(std::string("--prefix and ") + (constraint_input.json ? "--json-input" : "--force-decode") +
                           " both give the prefix; use one");
  }
  if (constraint_input.json && constraint_input.force_decode) {
    throw util::UsageError("--json-input gives the prefix as \"target_prefix\"; --force-decode reads tab-separated lines");
  }
}

AlignmentOutput parse_alignment_output(const std::string& name) {
  if (name == "hard") return AlignmentOutput::kHard;
  if (name == "soft") return AlignmentOutput::kSoft;
  throw util::UsageError("--alignment must be hard or soft, got '" + name + "'");
}

void DecodeOptions::validate() const {
  if (model_paths.empty()) throw util::UsageError("--model MODEL is required");
  translate.validate();
  check_ensemble_weights(translate.beam.weights, model_paths.size());
  model::check_attention_source_name(attention_source);
}

}  // namespace rnnsearch::search
