#pragma once
// The words of the demo corpus's two made-up languages: Avelic (the source, code xa) and
// Borish (the target, code xb). The lexicon is fixed: its words are drawn once from a
// constant seed, so corpora generated with different seeds speak the same languages.
//
// Avelic nouns end in a vowel and take -s in the plural; Borish nouns have one of two
// genders, which their endings, their determiners and their adjectives show. Some Avelic
// nouns translate as two Borish words (a head noun and an invariable modifier).
#include <string>
#include <vector>

namespace rnnsearch::demo {

enum class Gender { kA, kB };

struct Noun {
  std::string source;       // "dalema"; plural "dalemas"
  std::string target_stem;  // "hask"; Gender::kA: "hasko", "haskoi"; kB: "haska", "haskai"
  Gender gender = Gender::kA;
  std::string modifier;     // non-empty: the noun translates as two words, "hasko velk"
};

struct Adjective {
  std::string source;       // "pobe"
  std::string target_stem;  // "friz": agrees with its noun, "frizo friza frizi frize"
};

struct Verb {
  std::string source;       // "kuti"
  std::string target_stem;  // "jorv": "jorvet" (present, singular subject), "jorvun" (past, plural)
  bool transitive = true;
};

struct Adposition {
  std::string source;  // a preposition, before its noun phrase
  std::string target;  // a postposition, after it
};

struct Lexicon {
  std::vector<Noun> nouns;
  std::vector<Adjective> adjectives;
  std::vector<Verb> verbs;
  std::vector<Adposition> adpositions;
};

// The one lexicon (built on first use).
const Lexicon& lexicon();

}  // namespace rnnsearch::demo
