#pragma once
// nmt-align hmm: the links of an HMM aligner pair trained by agreement (align/hmm.h) on two
// line-aligned files of words, or aligned with the parameters of an earlier run.
#include <string>

#include "align/command_common.h"
#include "align/hmm.h"
#include "align/word_stems.h"
#include "data/unknown_tokens.h"
#include "util/messages.h"

namespace rnnsearch::align {

struct HmmFilesOptions {
  std::string source;        // -s: tokenized source sentences
  std::string target;        // -t: target sentences, line-aligned with the source
  std::string output = "-";  // links, source index first; "-" = stdout; a file is written atomically
  bool progress = true;      // progress lines on stderr (never when the output is a terminal)
  // --save-params: the trained model (align/hmm_params.h), written atomically after the links;
  // table entries below params_threshold left out (0: none).
  std::string save_params;
  double params_threshold = 0.0;
  // --load-params: align with this model instead of training (the iteration options unused).
  std::string load_params;
  // With --load-params: warn when more than this share of a side's tokens are words the
  // loaded parameters never name (data/unknown_tokens.h).
  double unknown_warning = data::kUnknownWarningShare;
  HmmOptions hmm;
  // Training: rare words read as their first letters (align/word_stems.h), words seen fewer
  // than 50 times and longer than 4 code points; --save-params keeps the rule, and
  // --load-params replays it on the words of new text.
  StemRule stems{4, 50};

  // util::UsageError "-s SOURCE and -t TARGET are required", for --save-params with
  // --load-params, --params-threshold outside [0, 1], --stem-length outside [0, 100],
  // --stem-below outside [0, 2^31], -o and --save-params naming one file
  // (util/distinct_outputs.h), or what hmm.validate() throws.
  void validate() const;
};

// Validates `options`, reads the pairs, trains (or loads) and writes the links. Once they are
// written (before the output is committed), `messages` gets a note per EM iteration:
// "hmm iteration 2: log-likelihood forward -1234.5, reverse -1200.1; p-empty forward 0.21,
// reverse 0.19"; with --load-params, a warning per side whose tokens the parameters mostly
// do not know. util::Error naming file and line for a line without words or of more than
// kMaxIbm2Words words.
void hmm_files(const HmmFilesOptions& options, const util::Messages& messages = {});

}  // namespace rnnsearch::align
