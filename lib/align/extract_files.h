#pragma once
// nmt-align's default command: the word alignments of the pairs of two line-aligned files
// from a model's attention (align/extract.h), one output line per pair, written as they are
// found: memory stays flat however long the corpus is.
#include <string>

#include "align/extract.h"
#include "data/language_check.h"
#include "util/messages.h"

namespace rnnsearch::align {

struct ExtractFilesOptions {
  std::string model;         // the model file written by nmt-train (-m)
  std::string source;        // source sentences, BPE'd as in training (-s)
  std::string target;        // target sentences, line-aligned with the source (-t)
  std::string output = "-";  // "-" = stdout; a file is written atomically
  // auto, decoder or head, resolved against the model by model::choose_attention_source.
  std::string attention_source = "auto";
  bool progress = true;    // a progress line on stderr (never when the output is a terminal)
  ExtractOptions extract;  // mode, rules, mini-batch, threads; `weights` comes from attention_source
  // --unknown-warning: the share of a side's pieces unknown to the model above which the
  // end of input warns (data/unknown_tokens.h); 1 = never.
  double unknown_warning = data::kUnknownWarningShare;
  // --language-warning: the ratio above which the source file do not look like the model's source
  // language (data/language_check.h); 0 = never.
  double language_warning = data::kLanguageWarningRatio;

  // Throws util::UsageError "--invert applies to links, not to --mode soft", "-m MODEL,
  // -s SOURCE and -t TARGET are required", --unknown-warning outside [0, 1], --language-warning outside [0, 100], or what
  // extract.validate() throws.
  void validate() const;
};

// Validates `options`, reads the model and aligns the files; util::Error naming file and
// line for bad input (a line of more than kMaxAlignPieces pieces, files of different lengths).
// At the end of input, `messages` gets a warning per side whose share of pieces unknown to
// the model is above options.unknown_warning, and one when the source does not look like the
// model's source language (options.language_warning).
void extract_files(const ExtractFilesOptions& options, const util::Messages& messages = {});

}  // namespace rnnsearch::align
