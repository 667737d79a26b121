#include "demo/lexicon.h"

#include <set>

#include "util/rng.h"

namespace rnnsearch::demo {
namespace {

constexpr int kNouns = 80;
constexpr int kTwoWordNouns = 12;  // the first nouns translate as head + modifier
constexpr int kAdjectives = 30;
constexpr int kVerbs = 40;
constexpr int kIntransitiveVerbs = 12;
constexpr std::uint64_t kLexiconSeed = 2015;  // the paper's year; never changes

// Draws words that are new to `taken`, from open syllables in each language's sounds.
class WordMaker {
 public:
  WordMaker(std::set<std::string> taken, std::string consonants, std::string vowels)
      : taken_(std::move(taken)), consonants_(std::move(consonants)), vowels_(std::move(vowels)) {}

  // Avelic: `syllables` consonant-vowel syllables, so every word ends in a vowel.
  std::string open(util::Rng& rng, int syllables) {
    return fresh([&] {
      std::string word;
      for (int i = 0; i < syllables; ++i) word += std::string{pick(rng, consonants_), pick(rng, vowels_)};
      return word;
    });
  }

  // Borish stems: consonant-vowel syllables closed by a consonant, ready for endings.
  std::string closed(util::Rng& rng, int syllables) {
    return fresh([&] {
      std::string word;
      for (int i = 0; i < syllables; ++i) word += std::string{pick(rng, consonants_), pick(rng, vowels_)};
      return word + pick(rng, consonants_);
    });
  }

 private:
  static char pick(util::Rng& rng, const std::string& letters) { return letters[rng.below(letters.size())]; }

  template <typename Draw>
  std::string fresh(Draw draw) {
    for (;;) {
      std::string word = draw();
      if (taken_.insert(word).second) return word;
    }
  }

  std::set<std::string> taken_;
  std::string consonants_;
  std::string vowels_;
};

Lexicon build_lexicon() {
  util::Rng rng(kLexiconSeed);
  // Function words of each language, which content words must not repeat.
  WordMaker avelic({"ta", "ek", "som", "wil", "nem", "ke", "moro"}, "bdgklmnprstv", "aeiou");
  // Borish postpositions and particles; stems start with a consonant and end in one, so no
  // inflected form can equal another word.
  WordMaker borish({"vaz", "hun", "tir", "josk", "ruml"}, "fhjklmnrstvz", "aeiouy");
  Lexicon lex;
  for (int i = 0; i < kNouns; ++i) {
    Noun noun;
    noun.source = avelic.open(rng, 2 + static_cast<int>(rng.below(2)));
    noun.target_stem = borish.closed(rng, 1 + static_cast<int>(rng.below(2)));
    noun.gender = rng.below(2) == 0 ? Gender::kA : Gender::kB;
    if (i < kTwoWordNouns) noun.modifier = borish.closed(rng, 1) + "ek";
    lex.nouns.push_back(noun);
  }
  for (int i = 0; i < kAdjectives; ++i) {
    lex.adjectives.push_back({avelic.open(rng, 2), borish.closed(rng, 1 + static_cast<int>(rng.below(2)))});
  }
  for (int i = 0; i < kVerbs; ++i) {
    lex.verbs.push_back({avelic.open(rng, 2), borish.closed(rng, 1), i >= kIntransitiveVerbs});
  }
  lex.adpositions = {{"pe", "vaz"}, {"abu", "hun"}, {"sint", "tir"}, {"oro", "josk"}, {"dal", "ef"}, {"ikum", "ruml"}};
  return lex;
}

}  // namespace

const Lexicon& lexicon() {
  static const Lexicon lex = build_lexicon();
  return lex;
}

}  // namespace rnnsearch::demo
