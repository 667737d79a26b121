#pragma once
// What a line asks of its translation beyond the model's choice, in target ids:
//   prefix    the translation starts with these tokens (nmt-decode --force-decode, --prefix);
//             a prefix may end with </s>, which ends the translation there
//   positive  phrases that must appear (--constraints ordered|unordered): ordered, in the
//             order given, one after another; unordered, in any order
//   avoid     phrases that must not appear (a phrase is banned when the tokens before it
//             are its first ones; the prefix itself is taken as given)
// ConstraintState follows one hypothesis through the positive phrases as its tokens come,
// as the beam search's dynamic beam allocation needs (Post and Vilar 2018): how many
// constraint tokens it has met (met phrases plus the matched start of the one in progress),
// and which tokens would take it further. A token that breaks a phrase in progress undoes
// that phrase's matched part, and may start another phrase (or the same one) afresh.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rnnsearch::search {

// At most this many positive phrases per line: their met set is one 64-bit mask.
constexpr std::size_t kMaxPositiveConstraints = 64;

enum class ConstraintOrder { kUnordered, kOrdered };

struct TargetConstraints {
  std::vector<std::int32_t> prefix;
  std::vector<std::vector<std::int32_t>> positive;  // none empty, at most kMaxPositiveConstraints
  std::vector<std::vector<std::int32_t>> avoid;     // none empty
  ConstraintOrder order = ConstraintOrder::kUnordered;

  bool empty() const { return prefix.empty() && positive.empty() && avoid.empty(); }
  // The positive phrases' tokens together: how many constraint tokens a hypothesis can meet.
  int positive_tokens() const;
  // The fewest target tokens that hold the prefix and every positive phrase, </s> not counted.
  std::size_t needed_length() const;
};

struct ConstraintState {
  std::uint64_t met = 0;     // unordered: bit k set when phrase k is met
  std::int16_t current = -1;  // unordered: the phrase in progress (-1 none); ordered: the next phrase
  std::int16_t matched = 0;   // tokens of that phrase matched so far
  std::int16_t met_tokens = 0;

  bool operator==(const ConstraintState& other) const {
    return met == other.met && current == other.current && matched == other.matched && met_tokens == other.met_tokens;
  }
};

// The state before any token (ordered: the first phrase next).
ConstraintState initial_state(const TargetConstraints& constraints);
// The state after `token`.
ConstraintState advance(const TargetConstraints& constraints, const ConstraintState& state, std::int32_t token);
// True when every positive phrase is met (always, without positive phrases).
bool all_met(const TargetConstraints& constraints, const ConstraintState& state);
// The tokens that would meet one more constraint token from `state`, ascending, none twice:
// the next token of the phrase in progress; else (unordered) the first token of every
// phrase not met, or (ordered) the next phrase's first token.
void advancing_tokens(const TargetConstraints& constraints, const ConstraintState& state,
                      std::vector<std::int32_t>& tokens);

}  // namespace rnnsearch::search
