#pragma once
// nmt-align heatmap: the teacher-forced attention of chosen pairs of two line-aligned files
// (align::attention_heatmaps) drawn into one SVG file (align::attention_svg).
#include <cstddef>
#include <string>
#include <vector>

#include "align/word_attention.h"
#include "data/language_check.h"
#include "data/unknown_tokens.h"
#include "util/messages.h"

namespace rnnsearch::align {

struct HeatmapFilesOptions {
  std::string model;                      // -m: model file written by nmt-train
  std::string source;                     // -s: source sentences, BPE'd as in training
  std::string target;                     // -t: target sentences, line-aligned with the source
  std::string lines = "1";                // --lines: the pairs to draw, 1-based line numbers, comma-separated
  std::string attention_source = "auto";  // auto, decoder or head, resolved against the model
  MergeTo merge_to = MergeTo::kPieces;    // --merge: a cell per piece pair, or per word pair
  std::string output = "attention.svg";   // "-" = stdout; a file is written atomically
  // --unknown-warning: the share of a side's pieces (in the pairs drawn) unknown to the
  // model above which a warning follows the picture (data/unknown_tokens.h); 1 = never.
  double unknown_warning = data::kUnknownWarningShare;
  // --language-warning: the ratio above which the source lines drawn do not look like the model's source
  // language (data/language_check.h); 0 = never.
  double language_warning = data::kLanguageWarningRatio;

  // Throws util::UsageError "-m MODEL, -s SOURCE and -t TARGET are required", or
  // parse_line_numbers's for `lines`, --unknown-warning outside [0, 1], --language-warning outside [0, 100].
  void validate() const;
};

// "3,7,12" -> {3, 7, 12}. Throws util::UsageError "--lines takes 1-based line numbers in
// [1, 999999999] separated by commas, got 'TEXT'" for anything else (a number of more than
// 9 digits cannot name a line nmt-align reads).
std::vector<std::size_t> parse_line_numbers(const std::string& text);

// Validates `options` and draws the pairs; `messages` is told the note "attention of 2
// pair(s) in FILE" when the output is a file, and a warning per side whose share of unknown
// pieces is above options.unknown_warning, and one when the sources drawn do not look like the
// model's source language (options.language_warning). util::Error naming the file for a line number
// past its end, files of different lengths, a pair with an empty side.
void heatmap_files(const HeatmapFilesOptions& options, const util::Messages& messages = {});

}  // namespace rnnsearch::align
