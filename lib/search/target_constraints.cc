#include "search/target_constraints.h"

#include <algorithm>

#include "data/vocabulary.h"

namespace rnnsearch::search {

namespace {

using Phrase = std::vector<std::int32_t>;

std::uint64_t bit(std::size_t k) { return std::uint64_t{1} << k; }

// Unordered: the phrase `token` starts among those not met, if any: one it completes (a
// one-token phrase) first, else the first listed.
int phrase_started_by(const TargetConstraints& constraints, std::uint64_t met, std::int32_t token) {
  int first = -1;
  for (std::size_t k = 0; k < constraints.positive.size(); ++k) {
    const Phrase& phrase = constraints.positive[k];
    if ((met & bit(k)) || phrase.front() != token) continue;
    if (phrase.size() == 1) return static_cast<int>(k);
    if (first < 0) first = static_cast<int>(k);
  }
  return first;
}

ConstraintState advance_unordered(const TargetConstraints& constraints, ConstraintState state, std::int32_t token) {
  if (state.current >= 0) {
    const Phrase& phrase = constraints.positive[static_cast<std::size_t>(state.current)];
    if (phrase[static_cast<std::size_t>(state.matched)] == token) {
      ++state.matched;
      ++state.met_tokens;
      if (static_cast<std::size_t>(state.matched) == phrase.size()) {
        state.met |= bit(static_cast<std::size_t>(state.current));
        state.current = -1;
        state.matched = 0;
      }
      return state;
    }
    state.met_tokens = static_cast<std::int16_t>(state.met_tokens - state.matched);  // the phrase broke off
    state.current = -1;
    state.matched = 0;
  }
  const int k = phrase_started_by(constraints, state.met, token);
  if (k < 0) return state;
  ++state.met_tokens;
  if (constraints.positive[static_cast<std::size_t>(k)].size() == 1) {
    state.met |= bit(static_cast<std::size_t>(k));
  } else {
    state.current = static_cast<std::int16_t>(k);
    state.matched = 1;
  }
  return state;
}

ConstraintState advance_ordered(const TargetConstraints& constraints, ConstraintState state, std::int32_t token) {
  const auto next = static_cast<std::size_t>(state.current);
  if (next >= constraints.positive.size()) return state;
  const Phrase& phrase = constraints.positive[next];
  if (phrase[static_cast<std::size_t>(state.matched)] != token) {
    state.met_tokens = static_cast<std::int16_t>(state.met_tokens - state.matched);
    state.matched = 0;
    if (phrase.front() != token) return state;
  }
  ++state.matched;
  ++state.met_tokens;
  if (static_cast<std::size_t>(state.matched) == phrase.size()) {
    ++state.current;
    state.matched = 0;
  }
  return state;
}

}  // namespace

int TargetConstraints::positive_tokens() const {
  std::size_t tokens = 0;
  for (const Phrase& phrase : positive) tokens += phrase.size();
  return static_cast<int>(tokens);
}

std::size_t TargetConstraints::needed_length() const {
  const bool ends = !prefix.empty() && prefix.back() == data::Vocabulary::kEos;
  return prefix.size() - (ends ? 1 : 0) + static_cast<std::size_t>(positive_tokens());
}

ConstraintState initial_state(const TargetConstraints& constraints) {
  ConstraintState state;
  if (constraints.order == ConstraintOrder::kOrdered) state.current = 0;
  return state;
}

ConstraintState advance(const TargetConstraints& constraints, const ConstraintState& state, std::int32_t token) {
  if (constraints.positive.empty()) return state;
  return constraints.order == ConstraintOrder::kOrdered ? advance_ordered(constraints, state, token)
                                                        : advance_unordered(constraints, state, token);
}

bool all_met(const TargetConstraints& constraints, const ConstraintState& state) {
  return state.met_tokens == constraints.positive_tokens() && state.matched == 0;
}

void advancing_tokens(const TargetConstraints& constraints, const ConstraintState& state,
                      std::vector<std::int32_t>& tokens) {
  tokens.clear();
  const auto& positive = constraints.positive;
  if (constraints.order == ConstraintOrder::kOrdered) {
    const auto next = static_cast<std::size_t>(state.current);
    if (next < positive.size()) tokens.push_back(positive[next][static_cast<std::size_t>(state.matched)]);
    return;
  }
  if (state.current >= 0) {
    tokens.push_back(positive[static_cast<std::size_t>(state.current)][static_cast<std::size_t>(state.matched)]);
    return;
  }
  for (std::size_t k = 0; k < positive.size(); ++k) {
    if (!(state.met & bit(k))) tokens.push_back(positive[k].front());
  }
  std::sort(tokens.begin(), tokens.end());
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
}

}  // namespace rnnsearch::search
