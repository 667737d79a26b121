#include "demo/grammar.h"

#include <algorithm>
#include <optional>

#include "demo/lexicon.h"

namespace rnnsearch::demo {
namespace {

// How often each choice is made (out of 1).
constexpr float kDefinite = 0.5f;
constexpr float kPlural = 0.3f;
constexpr float kOneAdjective = 0.35f, kTwoAdjectives = 0.15f;
constexpr float kVery = 0.15f;
constexpr float kPast = 0.4f;
constexpr float kNegated = 0.2f;
constexpr float kMainAdpositional = 0.35f, kSubordinateAdpositional = 0.2f;
constexpr float kSubordinate = 0.3f;

bool chance(util::Rng& rng, float p) { return rng.uniform() < p; }
template <typename T>
int pick(util::Rng& rng, const std::vector<T>& items) { return static_cast<int>(rng.below(items.size())); }

struct NounPhrase {
  bool definite = false;
  bool plural = false;
  int noun = 0;
  std::vector<int> adjectives;  // in Avelic order
  std::vector<bool> very;       // per adjective
};

struct Clause {
  NounPhrase subject;
  int verb = 0;
  bool past = false;
  bool negated = false;
  std::optional<NounPhrase> object;
  std::optional<std::pair<int, NounPhrase>> adpositional;  // adposition, its noun phrase
};

NounPhrase draw_noun_phrase(util::Rng& rng) {
  const Lexicon& lex = lexicon();
  NounPhrase np;
  np.definite = chance(rng, kDefinite);
  np.plural = chance(rng, kPlural);
  np.noun = pick(rng, lex.nouns);
  const float r = rng.uniform();
  const int adjectives = r < kTwoAdjectives ? 2 : r < kTwoAdjectives + kOneAdjective ? 1 : 0;
  for (int i = 0; i < adjectives; ++i) {
    int adjective = pick(rng, lex.adjectives);
    while (std::find(np.adjectives.begin(), np.adjectives.end(), adjective) != np.adjectives.end()) {
      adjective = pick(rng, lex.adjectives);
    }
    np.adjectives.push_back(adjective);
    np.very.push_back(chance(rng, kVery));
  }
  return np;
}

Clause draw_clause(util::Rng& rng, float adpositional) {
  const Lexicon& lex = lexicon();
  Clause clause;
  clause.subject = draw_noun_phrase(rng);
  clause.verb = pick(rng, lex.verbs);
  clause.past = chance(rng, kPast);
  clause.negated = chance(rng, kNegated);
  if (lex.verbs[clause.verb].transitive) clause.object = draw_noun_phrase(rng);
  if (chance(rng, adpositional)) clause.adpositional.emplace(pick(rng, lex.adpositions), draw_noun_phrase(rng));
  return clause;
}

// Writes both sides: Avelic first (recording where each word went), then Borish in its
// own order, each Borish word linked to the Avelic words it translates.
class PairWriter {
 public:
  int source(std::string word) {
    pair_.source.push_back(std::move(word));
    return static_cast<int>(pair_.source.size()) - 1;
  }
  void target(std::string word, std::initializer_list<int> sources) {
    const int t = static_cast<int>(pair_.target.size());
    pair_.target.push_back(std::move(word));
    for (int s : sources) pair_.links.push_back({s, t});
  }
  SentencePair finish() {
    std::sort(pair_.links.begin(), pair_.links.end());
    return std::move(pair_);
  }

 private:
  SentencePair pair_;
};

// Where each Avelic word of a noun phrase is, for the Borish side.
struct NounPhrasePositions {
  int determiner = 0, noun = 0;
  std::vector<int> adjectives, very;  // very: -1 when absent
};

struct ClausePositions {
  NounPhrasePositions subject;
  std::optional<NounPhrasePositions> object, adpositional;
  int adposition = 0, verb = 0, past = -1, negation = -1;
};

NounPhrasePositions write_source(PairWriter& out, const NounPhrase& np) {
  const Lexicon& lex = lexicon();
  NounPhrasePositions at;
  at.determiner = out.source(np.definite ? "ta" : np.plural ? "som" : "ek");
  for (std::size_t i = 0; i < np.adjectives.size(); ++i) {
    at.very.push_back(np.very[i] ? out.source("moro") : -1);
    at.adjectives.push_back(out.source(lex.adjectives[np.adjectives[i]].source));
  }
  at.noun = out.source(lex.nouns[np.noun].source + (np.plural ? "s" : ""));
  return at;
}

ClausePositions write_source(PairWriter& out, const Clause& clause) {
  const Lexicon& lex = lexicon();
  ClausePositions at;
  at.subject = write_source(out, clause.subject);
  if (clause.past) at.past = out.source("wil");
  if (clause.negated) at.negation = out.source("nem");
  at.verb = out.source(lex.verbs[clause.verb].source);
  if (clause.object) at.object = write_source(out, *clause.object);
  if (clause.adpositional) {
    at.adposition = out.source(lex.adpositions[clause.adpositional->first].source);
    at.adpositional = write_source(out, clause.adpositional->second);
  }
  return at;
}

// Borish endings: [gender][plural].
std::string noun_ending(Gender g, bool plural) {
  return g == Gender::kA ? (plural ? "oi" : "o") : (plural ? "ai" : "a");
}
std::string adjective_ending(Gender g, bool plural) {
  return g == Gender::kA ? (plural ? "i" : "o") : (plural ? "e" : "a");
}
std::string determiner(const NounPhrase& np, Gender g) {
  const bool a = g == Gender::kA;
  if (np.definite) return np.plural ? (a ? "di" : "de") : (a ? "do" : "da");
  return np.plural ? (a ? "eni" : "ene") : (a ? "en" : "ena");
}

void write_target(PairWriter& out, const NounPhrase& np, const NounPhrasePositions& at) {
  const Lexicon& lex = lexicon();
  const Noun& noun = lex.nouns[np.noun];
  out.target(determiner(np, noun.gender), {at.determiner});
  out.target(noun.target_stem + noun_ending(noun.gender, np.plural), {at.noun});
  if (!noun.modifier.empty()) out.target(noun.modifier, {at.noun});
  // Adjectives follow the noun, the one nearest the noun in Avelic first.
  for (int i = static_cast<int>(np.adjectives.size()) - 1; i >= 0; --i) {
    const std::string form = lex.adjectives[np.adjectives[i]].target_stem + adjective_ending(noun.gender, np.plural);
    if (np.very[i]) {
      out.target("ul" + form, {at.very[i], at.adjectives[i]});
    } else {
      out.target(form, {at.adjectives[i]});
    }
  }
}

void write_target(PairWriter& out, const Clause& clause, const ClausePositions& at) {
  const Lexicon& lex = lexicon();
  write_target(out, clause.subject, at.subject);
  if (clause.object) write_target(out, *clause.object, *at.object);
  if (clause.adpositional) {
    write_target(out, clause.adpositional->second, *at.adpositional);
    out.target(lex.adpositions[clause.adpositional->first].target, {at.adposition});
  }
  const std::string ending = std::string(clause.past ? "u" : "e") + (clause.subject.plural ? "n" : "t");
  const std::string verb = lex.verbs[clause.verb].target_stem + ending;
  if (clause.past) {
    out.target(verb, {at.past, at.verb});
  } else {
    out.target(verb, {at.verb});
  }
  if (clause.negated) out.target("nu", {at.negation});
}

}  // namespace

SentencePair generate_pair(util::Rng& rng) {
  const Clause main = draw_clause(rng, kMainAdpositional);
  std::optional<Clause> subordinate;
  if (chance(rng, kSubordinate)) subordinate = draw_clause(rng, kSubordinateAdpositional);

  PairWriter out;
  const ClausePositions main_at = write_source(out, main);
  std::optional<ClausePositions> subordinate_at;
  int comma = -1, that = -1;
  if (subordinate) {
    comma = out.source(",");
    that = out.source("ke");
    subordinate_at = write_source(out, *subordinate);
  }
  const int stop = out.source(".");

  write_target(out, main, main_at);
  if (subordinate) {
    out.target(",", {comma});
    out.target("so", {that});
    write_target(out, *subordinate, *subordinate_at);
  }
  out.target(".", {stop});
  return out.finish();
}

namespace {

// Tokens joined by spaces (none before punctuation when `detokenized`), the first letter
// capitalized as a sentence's is.
std::string sentence_text(const std::vector<std::string>& tokens, bool detokenized) {
  std::string text;
  for (const auto& token : tokens) {
    if (!text.empty() && !(detokenized && (token == "," || token == "."))) text += ' ';
    text += token;
  }
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}

}  // namespace

std::string tokenized_text(const std::vector<std::string>& tokens) { return sentence_text(tokens, false); }

std::string raw_text(const std::vector<std::string>& tokens) { return sentence_text(tokens, true); }

}  // namespace rnnsearch::demo
