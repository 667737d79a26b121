#pragma once
// Alignments of given sentence pairs from a model's attention: each target is
// force-decoded (teacher-forced) and its attention weights turned into links between
// words under align::WordAlignmentRules (align/word_attention.h). Subword pieces ("@@ "
// joins, as nmt-bpe writes them) are merged back to words, so indices refer to the tokens
// of the text before BPE.
//   hard:       each target unit to its most attended source unit
//   threshold:  every unit pair with weight >= threshold
//   soft:       per target word, the weights summed over each source word's pieces and
//               averaged over the target word's pieces (rules.step and rules.eos apply):
//               rows joined by ' ', weights by ','
#include <string>
#include <vector>

#include "align/heatmap.h"
#include "align/word_attention.h"
#include "data/unknown_tokens.h"
#include "data/vocabulary.h"
#include "model/replicas.h"
#include "model/rnnsearch.h"

namespace rnnsearch::align {

// The most pieces (or words) a sentence may have for nmt-align: attention over a pair
// takes |source| x |target| weights, so one runaway line (a file without line breaks)
// would take gigabytes and IBM model 2 minutes per iteration.
constexpr std::size_t kMaxAlignPieces = 1000;
// IBM Model 2 holds (n + 1) x m numbers a pair while it aligns it, no model state: it
// reads the long lines of real corpora (the Hansards reach 1,020 words).
constexpr std::size_t kMaxIbm2Words = 4000;

// Throws util::Error "PATH:LINE: N pieces, more than nmt-align reads (1000)" for the
// first line of `lines` (lines[0] being line `first_line` of PATH) with more than
// `max_pieces` space-separated pieces.
void check_line_lengths(const std::vector<std::string>& lines, const std::string& path, std::size_t first_line = 1,
                        std::size_t max_pieces = kMaxAlignPieces);

// nmt-align --mode: links to the strongest source word, links over a threshold, or soft rows.
enum class AlignmentMode { kHard, kThreshold, kSoft };

// "hard", "threshold" or "soft"; util::UsageError for anything else.
AlignmentMode parse_alignment_mode(const std::string& name);

struct ExtractOptions {
  bool soft = false;         // soft rows instead of links
  bool invert = false;       // links written target index first (a reverse model's in forward order)
  WordAlignmentRules rules;  // hard or threshold, step, merge, eos
  int batch_size = 32;
  // Threads, each force-decoding whole mini-batches with its own copy of the model; the
  // output does not depend on it.
  int threads = 1;
  // The decoder's attention or the model's alignment head (model/rnnsearch.h).
  model::AttentionSource weights = model::AttentionSource::kDecoder;

  // Sets `soft` and `rules.hard` as --mode does.
  void set_mode(AlignmentMode mode);
  // Throws util::UsageError "--threshold must be in [0, 1], got nan", and for --mini-batch
  // outside [1, 1000] and --threads outside [1, 1024].
  void validate() const;
};

// One output line per pair; an empty source or target gives an empty line. Thread k
// (of options.threads) runs on models[k]. With `unknown`, the pairs' pieces are counted
// into it (both sides, in order).
std::vector<std::string> extract_alignments(model::Replicas& models, const data::Vocabulary& source_vocabulary,
                                            const data::Vocabulary& target_vocabulary,
                                            const std::vector<std::string>& sources,
                                            const std::vector<std::string>& targets, const ExtractOptions& options,
                                            data::UnknownTokens* unknown = nullptr);

// The teacher-forced attention of the pairs sources[k], targets[k] with their pieces (and
// </s>) as labels, titled "line N" with N = line_numbers[k], for align::attention_svg;
// with MergeTo::kWords, each pair merged to words as heatmap_of_words does. With `unknown`,
// the pairs' pieces are counted into it.
std::vector<HeatmapPair> attention_heatmaps(model::RnnSearch& model, const data::Vocabulary& source_vocabulary,
                                            const data::Vocabulary& target_vocabulary,
                                            const std::vector<std::string>& sources,
                                            const std::vector<std::string>& targets,
                                            const std::vector<std::size_t>& line_numbers,
                                            model::AttentionSource weights = model::AttentionSource::kDecoder,
                                            MergeTo merge_to = MergeTo::kPieces, data::UnknownTokens* unknown = nullptr);

// A heatmap over pieces (labels ending in </s>, as attention_heatmaps gives it) merged to
// the words of word_of_piece: a source word's column is the sum of its pieces' columns, a
// target word's row the mean of its pieces' rows (unit_attention with AttentionStep::kEmit,
// the rows drawn over pieces), and a word's label its pieces joined as text::undo_bpe joins
// them ("écono@@ mique" -> "économique"). The source </s> column and the target </s> row
// stay units of their own.
HeatmapPair heatmap_of_words(const HeatmapPair& pieces);

}  // namespace rnnsearch::align
