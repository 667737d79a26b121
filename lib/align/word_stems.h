#pragma once
// Rare words aligned by their stems. With little data a word seen a few times has a
// translation table row learned from a few sentences, and it tends to collect the counts of
// whatever its sentences leave unexplained (Moore 2004's garbage collectors). Read as its first
// few letters instead, it shares a row with its inflections and derivations ("gouvernement",
// "gouvernements", "gouverner" -> "gouv"), which between them were seen often enough. The
// aligners' links are positions, so replacing a word by its stem changes what the tables
// learn, never the shape of the output.
//
// The rule (StemRule): a word seen fewer than `below` times on its side of the training pairs
// and longer than `length` code points is read as its first `length` code points. Frequent
// words and short words stay whole. So in the trained tables every word longer than `length`
// is a frequent one, and the rule can be replayed on new text from the tables alone: a word
// longer than `length` that the tables do not name is read as its stem (stem_unnamed_words).
// On the training pairs that gives exactly the training's words; on new text it gives an unseen
// word the row of its stem.
#include <cstdint>
#include <functional>
#include <string_view>

#include "align/ibm2.h"

namespace rnnsearch::align {

struct StemRule {
  int length = 0;          // code points a stem keeps; 0: no stems
  std::int64_t below = 0;  // a word seen fewer times than this is read as its stem; 0: none is
  bool on() const { return length > 0 && below > 0; }
};

// The first `code_points` code points of `word` (all of it when it has no more). A byte that
// does not start a whole UTF-8 sequence counts as one.
std::string_view word_prefix(std::string_view word, int code_points);

// `corpus` with each side's rare words (StemRule) replaced by their stems, ids renumbered in
// order of first sight as Ibm2CorpusBuilder numbers them. The pairs and their lengths are
// unchanged. With the rule off, `corpus` as it is.
Ibm2Corpus stem_rare_words(Ibm2Corpus corpus, const StemRule& rule);

// Whether the trained tables name a word of one side.
using NamedWord = std::function<bool(std::string_view word)>;

// `corpus` with every word longer than `length` code points that its side's `named` does not
// know replaced by its stem: the rule of trained tables replayed on new text (see above).
Ibm2Corpus stem_unnamed_words(Ibm2Corpus corpus, int length, const NamedWord& source_named,
                              const NamedWord& target_named);

}  // namespace rnnsearch::align
