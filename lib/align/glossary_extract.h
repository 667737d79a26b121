#pragma once
// nmt-glossary extract: a glossary (text/glossary.h's format) made from a tokenized
// parallel corpus and its word alignments, meant for the training data and the links an
// aligner gave it (nmt-align symmetrize, fast_align): the frequent source phrases of one to
// a few words that the corpus translates one way.
//
// Phrase pairs are extracted from each sentence pair as in phrase-based translation (Och &
// Ney 2004; Koehn, Och & Marcu 2003): a source span and the target span its links reach
// form a pair when no link leaves the box they make, both spans at most max_length words.
// Only tight pairs are taken: the source span's first and last words are linked, and the
// target span is exactly what its links reach (the usual extension by unlinked neighbouring
// words would count "the house" and "house" as two translations of one phrase and split
// its count). A source phrase is kept when
//   - it occurs at least min_count times in the source side (every occurrence counts, also
//     those whose links give no consistent pair: a phrase the aligner cannot place is no
//     reliable term),
//   - its most frequent target phrase takes at least min_share of those occurrences,
//   - each side has a token of at least min_letters letters (Unicode letters; 0 keeps
//     punctuation and numbers too), which leaves out punctuation, numbers and most
//     function words.
// Output: "source<TAB>target" lines, by the pair's count (highest first), then source and
// target in byte order, so the same data give the same bytes.
//
// Tokens are the runs between ASCII whitespace (as nmt-align and fast_align count words);
// alignments are Pharaoh "i-j" lines, source index first.
#include <cstddef>
#include <string>
#include <vector>

#include "data/alignment.h"

namespace rnnsearch::align {

// A phrase pair as word spans [begin, end) of one sentence pair.
struct PhrasePairSpan {
  std::size_t source_begin, source_end, target_begin, target_end;
  bool operator==(const PhrasePairSpan& o) const {
    return source_begin == o.source_begin && source_end == o.source_end && target_begin == o.target_begin &&
           target_end == o.target_end;
  }
};

// The tight consistent phrase pairs of a sentence pair of `source_words` and
// `target_words` words with `links` (inside both), each side at most `max_length` words,
// by source span (begin, then end).
std::vector<PhrasePairSpan> tight_phrase_pairs(std::size_t source_words, std::size_t target_words,
                                               const data::Alignment& links, std::size_t max_length);

struct GlossaryExtractOptions {
  std::string source;     // -s: tokenized source side (read twice: a file)
  std::string target;     // -t: tokenized target side
  std::string alignment;  // -a: Pharaoh links, a line per pair
  std::string output = "-";  // "-" = stdout; a file is written atomically
  int min_count = 20;        // occurrences of the source phrase
  double min_share = 0.8;    // of them, the dominant translation's
  int max_length = 3;        // words on each side
  int min_letters = 3;       // each side needs a token with this many letters

  // Throws util::UsageError naming the option that is missing or out of range.
  void validate() const;
};

// Validates `options`, reads the three files in step (util::Error naming file and line for
// a link outside its pair or a malformed one, and both files when their lengths differ),
// counts the source phrases again in a second pass over the source, and writes the
// glossary.
void extract_glossary_file(const GlossaryExtractOptions& options);

}  // namespace rnnsearch::align
