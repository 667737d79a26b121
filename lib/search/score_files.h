#pragma once
// What nmt-score does: the log-probability of given translations under a model or an
// ensemble, log p(y | x) summed over the target pieces and </s>, force-decoded on
// nmt-decode's inference path (search/forced_scorer.h), so a translation of nmt-decode
// scores exactly its F0. Pairs come from
//   -s SRC -t TGT     two line-aligned files;
//   -i FILE / stdin   lines "source<TAB>target";
//   -s SRC --n-best L a Moses n-best list whose entry "N ||| ..." translates line N + 1 of
//                     SRC: each line is written back with " NAME= score" appended to its
//                     features field, the rest byte for byte.
// Output, one line per pair in input order: the score (util::general), then with
// word_scores a space and the scores per word (search/word_scores.h). With normalize =
// alpha > 0 the score is log p / (pieces + 1)^alpha, as nmt-decode --length-penalty ranks.
// An empty source scores 0 with an empty target (as nmt-decode's empty line) and -inf with
// any other. Sources longer than max_length are truncated with a warning, as nmt-decode
// does; targets are never truncated (more than kMaxSourcePieces pieces: an error).
// Lines are scored in windows of mini_batch * maxi_batch pairs, sorted by source length,
// batch by batch on `threads` model copies; a pair's score does not depend on either, and
// each window is written and flushed when done.
#include <cstddef>
#include <string>
#include <vector>

#include "data/language_check.h"
#include "data/unknown_tokens.h"
#include "math/precision.h"
#include "util/messages.h"

namespace rnnsearch::search {

struct ScoreOptions {
  std::vector<std::string> model_paths;  // several form an ensemble (the same target vocabulary)
  std::vector<double> weights;           // the ensemble's (search/ensemble.h); empty: equal
  std::string source, target;            // -s, -t
  std::string input = "-";               // "source<TAB>target" lines, when neither -t nor --n-best
  std::string n_best;                    // a Moses n-best list to add a feature to (with -s)
  std::string feature_name = "Score";    // its name (Marian's marian-scorer --n-best-feature)
  std::string output = "-";
  double normalize = 0.0;                // alpha; 0: the log-probability itself
  bool word_scores = false;
  int mini_batch = 32;
  int maxi_batch = 10;
  std::size_t max_length = 100;          // longer sources are truncated (0 = no limit)
  // --unknown-warning: the share of the source (or target) tokens unknown to the (first)
  // model above which the end of input warns (data/unknown_tokens.h); 1 = never.
  double unknown_warning = data::kUnknownWarningShare;
  // --language-warning: the ratio above which the sources do not look like the first
  // model's source language (data/language_check.h); 0 = never.
  double language_warning = data::kLanguageWarningRatio;
  int threads = 1;
  math::Precision precision = math::Precision::kFp32;
  bool progress = false;

  // Throws util::UsageError naming the option: a model, -s with -t or --n-best (or neither
  // for stdin pairs), the ranges of the numbers, --weights (one per model, positive), a
  // feature name without spaces, '=' or '|', --word-scores without --n-best, --unknown-warning
  // outside [0, 1], --language-warning outside [0, 100].
  void validate() const;
};

// Scores as above; `messages` receives a note per truncated source as it is read, and at
// the end of input one warning each: how many sources were truncated (search/truncated_lines.h),
// and, per side, when more than options.unknown_warning of its tokens are unknown to the first
// model (data/unknown_tokens.h); when the sources do not look like the first model's source
// language (data/language_check.h). Returns the number of pairs. Errors name the file and line: a line of -s without its line in -t (or
// the reverse), a stdin line without a tab, a malformed n-best line, a sentence number
// past the end of -s or smaller than the one before.
std::size_t score_files(const ScoreOptions& options, const util::Messages& messages);

}  // namespace rnnsearch::search
