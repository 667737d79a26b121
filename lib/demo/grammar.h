#pragma once
// The grammar of the demo corpus: sentences of Avelic (source) and their Borish
// translations (target), with the gold word alignment of each pair.
//
//   Avelic  (SVO; adjectives before the noun; prepositions; a past auxiliary)
//     Ta moro pobe dalema wil kuti ek rino pe ta sulo , ke ...
//   Borish  (verb-final clauses; adjectives after the noun, agreeing in gender and number;
//           postpositions; determiners agreeing with the noun; verbs agreeing with the
//           subject and carrying the tense)
//     Do dalemo ulfrizo en rinu do sulo vaz jorvut , so ...
//
// What the alignment has to get right:
//   - word order: adjective-noun swapped (several adjectives mirrored), objects and
//     adpositional phrases before the verb, verb at the end of every clause;
//   - agreement: determiner, noun ending and adjective endings follow the noun's gender
//     and number; the verb ending follows the subject's number;
//   - many-to-one: "wil V" (past) is one Borish verb form; "moro ADJ" (very) is one
//     adjective with the prefix ul-;
//   - one-to-many: some nouns are a Borish head noun and a modifier word.
// Every word has at least one link: the alignment has no null links.
#include <string>
#include <vector>

#include "data/alignment.h"
#include "util/rng.h"

namespace rnnsearch::demo {

// One sentence pair as tokens (Moses-tokenized form: punctuation is separate) and the
// gold links, sorted.
struct SentencePair {
  std::vector<std::string> source;
  std::vector<std::string> target;
  data::Alignment links;
};

// Draws one sentence pair.
SentencePair generate_pair(util::Rng& rng);

// A side of the pair as raw text (tokens joined by spaces, none before ',' and '.') and
// as tokenized text (all tokens space-separated), both with the first letter capitalized:
// nmt-tokenize turns the raw text into the tokenized text exactly.
std::string raw_text(const std::vector<std::string>& tokens);
std::string tokenized_text(const std::vector<std::string>& tokens);

}  // namespace rnnsearch::demo
