#pragma once
// From a force-decoded attention matrix over BPE pieces to word alignments, with the
// choices that decide their quality (measured on the Hansards gold: data/results/README.md,
// "Word alignments"):
//   step   which decoder step's attention stands for target piece i: the step that emits
//          it (row i, whose query s_{i-1} has not seen it) or the next one (row i + 1,
//          whose query has just read it; the target </s> row serves the last piece);
//   merge  pieces: link pieces, then a word pair is linked when any of its pieces are;
//          words: first sum the weights over each source word's pieces and average them
//          over each target word's pieces, then link words;
//   eos    the source </s> column: ignore it (links among the words only); renormalize
//          (the words' weights divided by their sum); or null (a target unit whose
//          strongest column is </s> stays unaligned, then as ignore);
//   mode   hard (each target unit to its strongest source unit) or threshold (every
//          source unit with weight >= threshold).
#include <string>
#include <vector>

#include "data/alignment.h"
#include "math/types.h"

namespace rnnsearch::align {

enum class AttentionStep { kEmit, kNext };
enum class EosRule { kIgnore, kRenormalize, kNull };
// What the weights are linked (or drawn) over: BPE pieces, or words with the weights merged.
enum class MergeTo { kPieces, kWords };

struct WordAlignmentRules {
  AttentionStep step = AttentionStep::kEmit;
  MergeTo merge_to = MergeTo::kPieces;  // kPieces: link pieces, then map them to words
  EosRule eos = EosRule::kIgnore;
  bool hard = true;  // false: threshold
  float threshold = 0.3f;
};

// Parsers of the command-line spellings ("emit"/"next", "pieces"/"words",
// "ignore"/"renormalize"/"null"); util::UsageError for anything else.
AttentionStep parse_attention_step(const std::string& name);
EosRule parse_eos_rule(const std::string& name);
MergeTo parse_merge_to(const std::string& name);

// The attention of the target units over the source units and </s> (the last column):
// weights is [(target pieces + 1) x (source pieces + 1)] as model::RnnSearch::forced_attention
// gives it; source_unit and target_unit give each piece's unit (word_of_piece for words,
// 0, 1, 2, ... for pieces). A source unit's weight is the sum over its pieces, a target
// unit's row the mean of its pieces' rows (the rows chosen by `step`). With kEmit,
// target_unit may also give the target </s> row a unit (its last entry), as a heatmap does.
math::Matrix unit_attention(const math::Matrix& weights, const std::vector<int>& source_unit,
                            const std::vector<int>& target_unit, AttentionStep step);

// Drops the </s> column; with kRenormalize each row is divided by its sum of words.
math::Matrix words_only(const math::Matrix& unit_weights, EosRule eos);

// Word links of one sentence pair under `rules`; source_words and target_words are
// word_of_piece of the two sides.
data::Alignment attention_links(const math::Matrix& weights, const std::vector<int>& source_words,
                                const std::vector<int>& target_words, const WordAlignmentRules& rules);

}  // namespace rnnsearch::align
