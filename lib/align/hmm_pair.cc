#include "align/hmm_pair.h"

#include <cmath>

namespace rnnsearch::align {

namespace {

// Scales below this are taken as this: a pair whose every emission underflowed still gets
// finite posteriors (all of them then from the jumps alone).
constexpr double kSmallestScale = 1e-300;

std::size_t size(int n) { return static_cast<std::size_t>(n); }

// transition[k][i - 1] = (1 - p_empty) jump(i - k) / sum_i' jump(i' - k), k = 0..I, i = 1..I,
// and its transpose.
void fill_transitions(const JumpModel& jumps, HmmPair& pair) {
  const int n = pair.source_length;
  pair.transition.resize(size(n + 1) * size(n));
  pair.transition_t.resize(size(n) * size(n + 1));
  for (int k = 0; k <= n; ++k) {
    float* row = pair.transition.data() + size(k) * size(n);
    double total = 0.0;
    for (int i = 1; i <= n; ++i) total += jumps.weight[size(jumps.jump_class(i - k))];
    const double factor = (1.0 - jumps.p_empty) / total;
    for (int i = 1; i <= n; ++i) {
      row[i - 1] = static_cast<float>(jumps.weight[size(jumps.jump_class(i - k))] * factor);
      pair.transition_t[size(i - 1) * size(n + 1) + size(k)] = row[i - 1];
    }
  }
}

// Forward pass, scaled: forward_word[j][i] and forward_empty[j][k] sum to 1 over a row's
// states, scale[j] the factor divided out.
void forward(const JumpModel& jumps, HmmPair& pair) {
  const int n = pair.source_length, m = pair.target_length;
  const std::size_t width = size(n + 1);
  // Every entry is written below, but word[0] (no word at position 0), set here.
  pair.forward_word.resize(size(m) * width);
  pair.forward_empty.resize(size(m) * width);
  pair.scale.assign(size(m), 0.0);
  pair.scratch.assign(width, 0.0F);
  float* into_word = pair.scratch.data();  // into_word[i]: sum_k previous(k) transition[k][i]
  const auto p_empty = static_cast<float>(jumps.p_empty);
  pair.log_likelihood = 0.0;
  for (int j = 0; j < m; ++j) {
    std::fill(into_word, into_word + width, 0.0F);
    const float* previous_word = j > 0 ? pair.forward_word.data() + size(j - 1) * width : nullptr;
    const float* previous_empty = j > 0 ? pair.forward_empty.data() + size(j - 1) * width : nullptr;
    float* word = pair.forward_word.data() + size(j) * width;
    float* empty = pair.forward_empty.data() + size(j) * width;
    word[0] = 0.0F;
    for (int k = 0; k <= n; ++k) {
      const float from = j == 0 ? (k == 0 ? 1.0F : 0.0F) : previous_word[k] + previous_empty[k];
      empty[k] = from;
      if (from == 0.0F) continue;
      const float* row = pair.transition.data() + size(k) * size(n);
      for (int i = 1; i <= n; ++i) into_word[i] += from * row[i - 1];
    }
    const float* e = pair.emission.data() + size(j) * width;
    const float empty_emission = e[0] * p_empty;
    double total = 0.0;
    for (int i = 1; i <= n; ++i) {
      word[i] = e[i] * into_word[i];
      total += word[i];
    }
    for (int k = 0; k <= n; ++k) {
      empty[k] *= empty_emission;
      total += empty[k];
    }
    total = std::max(total, kSmallestScale);
    pair.scale[size(j)] = total;
    pair.log_likelihood += std::log(total);
    const auto inverse = static_cast<float>(1.0 / total);
    for (std::size_t s = 0; s < width; ++s) {
      word[s] *= inverse;
      empty[s] *= inverse;
    }
  }
}

// Backward pass, scaled by the forward pass's factors: backward[j][k] for the states at
// position k (word k and empty after k, which have the same future).
void backward(const JumpModel& jumps, HmmPair& pair) {
  const int n = pair.source_length, m = pair.target_length;
  const std::size_t width = size(n + 1);
  pair.backward.resize(size(m) * width);
  std::fill(pair.backward.end() - static_cast<std::ptrdiff_t>(width), pair.backward.end(), 1.0F);
  pair.scratch.assign(width, 0.0F);
  float* ahead = pair.scratch.data();  // ahead[i] = e(j, i) backward[j][i]
  const auto p_empty = static_cast<float>(jumps.p_empty);
  for (int j = m - 1; j > 0; --j) {
    const float* e = pair.emission.data() + size(j) * width;
    const float* next = pair.backward.data() + size(j) * width;
    float* here = pair.backward.data() + size(j - 1) * width;
    for (int i = 1; i <= n; ++i) ahead[i] = e[i] * next[i];
    const float stay = e[0] * p_empty;
    for (int k = 0; k <= n; ++k) here[k] = stay * next[k];
    for (int i = 1; i <= n; ++i) {
      const float* column = pair.transition_t.data() + size(i - 1) * width;
      const float a = ahead[i];
      for (int k = 0; k <= n; ++k) here[k] += a * column[k];
    }
    const auto inverse = static_cast<float>(1.0 / pair.scale[size(j)]);
    for (int k = 0; k <= n; ++k) here[k] *= inverse;
  }
}

// The expected jumps: for each target word j, moving from position k (the state before)
// to word i has posterior before(k) transition[k][i] e(j, i) backward[j][i] / scale[j].
void count_jumps(const JumpModel& jumps, HmmPair& pair) {
  const int n = pair.source_length, m = pair.target_length;
  const std::size_t width = size(n + 1);
  // sum[k][i - 1]: sum over j of before(k) e(j, i) backward[j][i] / scale[j], times the
  // transition once at the end.
  std::vector<float>& sum = pair.moves;
  sum.assign(size(n + 1) * size(n), 0.0F);
  pair.scratch.assign(width, 0.0F);
  float* arrival = pair.scratch.data();
  for (int j = 0; j < m; ++j) {
    const float* e = pair.emission.data() + size(j) * width;
    const float* after = pair.backward.data() + size(j) * width;
    const auto inverse = static_cast<float>(1.0 / pair.scale[size(j)]);
    for (int i = 1; i <= n; ++i) arrival[i] = e[i] * after[i] * inverse;
    for (int k = 0; k <= n; ++k) {
      const float from = j == 0 ? (k == 0 ? 1.0F : 0.0F)
                                : pair.forward_word[size(j - 1) * width + size(k)] +
                                      pair.forward_empty[size(j - 1) * width + size(k)];
      if (from == 0.0F) continue;
      float* row = sum.data() + size(k) * size(n);
      for (int i = 1; i <= n; ++i) row[i - 1] += from * arrival[i];
    }
  }
  // How often each position k was the one jumped from (to a word): the opportunities.
  std::vector<double> departures(width, 0.0);
  for (int j = 0; j < m; ++j) {
    const double to_word = 1.0 - pair.posterior[size(j) * width];
    for (int k = 0; k <= n; ++k) {
      const double from = j == 0 ? (k == 0 ? 1.0 : 0.0)
                                 : static_cast<double>(pair.forward_word[size(j - 1) * width + size(k)]) +
                                       pair.forward_empty[size(j - 1) * width + size(k)];
      departures[size(k)] += from * to_word;
    }
  }
  pair.jump_counts.assign(jumps.weight.size(), 0.0);
  pair.jump_opportunities.assign(jumps.weight.size(), 0.0);
  for (int k = 0; k <= n; ++k) {
    for (int i = 1; i <= n; ++i) {
      const std::size_t at = size(k) * size(n) + size(i - 1);
      const std::size_t jump_class = size(jumps.jump_class(i - k));
      pair.jump_counts[jump_class] += static_cast<double>(sum[at]) * pair.transition[at];
      pair.jump_opportunities[jump_class] += departures[size(k)];
    }
  }
}

}  // namespace

JumpModel JumpModel::uniform(int width, double p_empty) {
  JumpModel model;
  model.width = width;
  model.p_empty = p_empty;
  model.weight.assign(size(2 * width + 1), 1.0 / (2 * width + 1));
  return model;
}

void HmmPair::resize(int source_words, int target_words) {
  source_length = source_words;
  target_length = target_words;
  emission.resize(size(target_words) * size(source_words + 1));
}

void hmm_forward_backward(const JumpModel& jumps, HmmPair& pair, bool want_jumps) {
  const int n = pair.source_length, m = pair.target_length;
  const std::size_t width = size(n + 1);
  fill_transitions(jumps, pair);
  forward(jumps, pair);
  backward(jumps, pair);
  pair.posterior.resize(size(m) * width);
  pair.empty_count = 0.0;
  for (int j = 0; j < m; ++j) {
    const std::size_t row = size(j) * width;
    const float* word = pair.forward_word.data() + row;
    const float* empty = pair.forward_empty.data() + row;
    const float* after = pair.backward.data() + row;
    float* out = pair.posterior.data() + row;
    double empty_total = 0.0, total = 0.0;
    for (int k = 0; k <= n; ++k) empty_total += static_cast<double>(empty[k]) * after[k];
    out[0] = static_cast<float>(empty_total);
    total = empty_total;
    for (int i = 1; i <= n; ++i) {
      out[i] = word[i] * after[i];
      total += out[i];
    }
    const auto inverse = static_cast<float>(1.0 / std::max(total, kSmallestScale));
    for (std::size_t s = 0; s < width; ++s) out[s] *= inverse;
    pair.empty_count += out[0];
  }
  if (want_jumps) count_jumps(jumps, pair);
}

void model1_posteriors(HmmPair& pair) {
  const int n = pair.source_length, m = pair.target_length;
  const std::size_t width = size(n + 1);
  pair.posterior.resize(size(m) * width);
  pair.log_likelihood = 0.0;
  for (int j = 0; j < m; ++j) {
    const float* e = pair.emission.data() + size(j) * width;
    float* out = pair.posterior.data() + size(j) * width;
    double total = 0.0;
    for (std::size_t s = 0; s < width; ++s) total += e[s];
    total = std::max(total, kSmallestScale);
    pair.log_likelihood += std::log(total / static_cast<double>(width));
    const auto inverse = static_cast<float>(1.0 / total);
    for (std::size_t s = 0; s < width; ++s) out[s] = e[s] * inverse;
  }
}

// Products of probabilities, rescaled at each word so that the best is 1: no logarithm, whose
// last bits the C library may compute differently on different CPUs.
std::vector<int> hmm_viterbi(const JumpModel& jumps, const HmmPair& pair) {
  const int n = pair.source_length, m = pair.target_length;
  const std::size_t width = size(n + 1);
  // move[k][i - 1]: the transition probability, as fill_transitions computes it but in double.
  std::vector<double> move(width * size(n));
  for (int k = 0; k <= n; ++k) {
    double total = 0.0;
    for (int i = 1; i <= n; ++i) total += jumps.weight[size(jumps.jump_class(i - k))];
    for (int i = 1; i <= n; ++i) {
      move[size(k) * size(n) + size(i - 1)] = (1.0 - jumps.p_empty) * jumps.weight[size(jumps.jump_class(i - k))] / total;
    }
  }
  // best[k]: the best (rescaled) probability of a path whose last word aligned is at k (k = 0:
  // none yet); came_by_word[j][k]: whether that path's state at j is word k (else empty after k).
  std::vector<double> best(width, 0.0), next(width);
  best[0] = 1.0;
  std::vector<int> from(size(m) * width, 0);
  std::vector<char> came_by_word(size(m) * width, 0);
  for (int j = 0; j < m; ++j) {
    const float* e = pair.emission.data() + size(j) * width;
    const double stay = jumps.p_empty * e[0];
    double largest = 0.0;
    for (int i = 0; i <= n; ++i) {
      double word = -1.0;
      int argmax = 0;
      for (int k = 0; i > 0 && k <= n; ++k) {
        const double score = best[size(k)] * move[size(k) * size(n) + size(i - 1)];
        if (score > word) {
          word = score;
          argmax = k;
        }
      }
      if (i > 0) word *= e[i];
      const double empty = best[size(i)] * stay;
      const std::size_t at = size(j) * width + size(i);
      came_by_word[at] = word > empty ? 1 : 0;
      from[at] = argmax;
      next[size(i)] = std::max(word, empty);
      largest = std::max(largest, next[size(i)]);
    }
    for (std::size_t k = 0; k < width; ++k) best[k] = largest > 0.0 ? next[k] / largest : (k == 0 ? 1.0 : 0.0);
  }
  int k = static_cast<int>(std::max_element(best.begin(), best.end()) - best.begin());
  std::vector<int> links(size(m), 0);
  for (int j = m - 1; j >= 0; --j) {
    const std::size_t at = size(j) * width + size(k);
    if (came_by_word[at] != 0) {
      links[size(j)] = k;
      k = from[at];
    }
  }
  return links;
}

}  // namespace rnnsearch::align
