#include "search/ensemble.h"
#include "search/score_files.h"
#include "search/translator.h"
#include "util/error.h"
#include "util/option_range.h"

namespace rnnsearch::search {

void ScoreOptions::validate() const {
  if (model_paths.empty()) throw util::UsageError("--model MODEL is required");
  if (!target.empty() && !n_best.empty()) throw util::UsageError("--target and --n-best exclude each other");
  if ((!target.empty() || !n_best.empty()) && source.empty()) {
    throw util::UsageError(std::string(n_best.empty() ? "--target" : "--n-best") + " needs --source");
  }
  if (!source.empty() && target.empty() && n_best.empty()) {
    throw util::UsageError("--source needs --target (or --n-best); without both, stdin has 'source<TAB>target' lines");
  }
  if (feature_name.empty() || feature_name.find_first_of(" \t=|") != std::string::npos) {
    throw util::UsageError("--feature-name must be a word without spaces, '=' or '|', got '" + feature_name + "'");
  }
  if (word_scores && !n_best.empty()) throw util::UsageError("--word-scores does not apply to --n-best");
  check_ensemble_weights(weights, model_paths.size());
  util::check_range("normalize", normalize, 0.0, kMaxLengthPenalty);
  util::check_range("mini-batch", mini_batch, 1, kMaxMiniBatch);
  util::check_range("maxi-batch", maxi_batch, 1, kMaxMaxiBatch);
  util::check_range("max-length", max_length, std::size_t{0}, kMaxSourcePieces);
  data::check_unknown_warning(unknown_warning);
  data::check_language_warning(language_warning);
  math::check_precision_supported(precision);
}

}  // namespace rnnsearch::search
