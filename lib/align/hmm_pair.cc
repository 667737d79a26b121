#include "align/hmm_pair.h"

#include <cmath>

namespace rnnsearch::align {

namespace {

// Scales below this are taken as this: a pair whose every emission underflowed still gets
// finite posteriors (all of them then from the jumps alone).
constexpr double kSmallestScale = 1e-300;

std::size_t size(int n) { return static_cast<std::size_t>(n); }

// The transitions, O(I x width) instead of O(I^2): a jump of d = i - k with |d| < width has
// its own class, every wider jump shares its side's, so the wider part of a sum over k (or i)
// is a prefix sum. leave[k] = (1 - p_empty) / sum_{i = 1..I} jump(i - k); a move k -> i has
// probability leave[k] * jump(i - k).
struct Band {
  int width;          // classes -width .. width; |d| < width the band, the rest shared
  double left, right;  // the shared weights: d <= -width, d >= width
  std::vector<double> weight;  // weight[d + width] for |d| < width

  explicit Band(const JumpModel& jumps)
      : width(jumps.width), left(jumps.weight.front()), right(jumps.weight.back()), weight(jumps.weight) {}

  // How many of positions 1..n a jump from k reaches with |d| >= width, on the right and left.
  static int far_right(int n, int k, int width) { return std::max(0, n - std::max(1, k + width) + 1); }
  static int far_left(int n, int k, int width) { return std::max(0, std::min(n, k - width)); }
};

// sum_{i = first..last} weights[class(i - k)].
double class_sum(const JumpModel& jumps, const std::vector<double>& weights, int k, int first, int last) {
  double total = 0.0;
  for (int i = first; i <= last; ++i) total += weights[size(jumps.jump_class(i - k))];
  return total;
}

// With boundary jumps, the factor of a path whose last word aligned is at k: its move to the
// end position n + 1, by the end weights normalized over positions 1..n + 1.
double end_factor(const JumpModel& jumps, int n, int k) {
  return jumps.end[size(jumps.jump_class(n + 1 - k))] / class_sum(jumps, jumps.end, k, 1, n + 1);
}

// leave[k], and with boundary jumps finish[k] = end_factor(k).
void fill_leave(const JumpModel& jumps, const Band& band, HmmPair& pair) {
  const int n = pair.source_length, w = band.width;
  pair.leave.resize(size(n + 1));
  for (int k = 0; k <= n; ++k) {
    double total = band.right * Band::far_right(n, k, w) + band.left * Band::far_left(n, k, w);
    for (int d = 1 - w; d < w; ++d) {
      if (k + d >= 1 && k + d <= n) total += band.weight[size(d + w)];
    }
    pair.leave[size(k)] = (1.0 - jumps.p_empty_for(n)) / total;
  }
  if (!jumps.boundary()) return;
  pair.leave[0] = (1.0 - jumps.p_empty_for(n)) / class_sum(jumps, jumps.start, 0, 1, n);
  pair.finish.resize(size(n + 1));
  for (int k = 0; k <= n; ++k) {
    pair.finish[size(k)] = end_factor(jumps, n, k);
  }
}

// into[i] = sum_k from[k] leave[k] jump(i - k) for i = 1..n; prefix[x] = sum_{k <= x} of
// from[k] leave[k] (double), kept for the caller.
// With boundary jumps, position 0's moves go by the start weights instead.
void spread(const JumpModel& jumps, const Band& band, const HmmPair& pair, const float* from, float* into,
            std::vector<double>& prefix, std::vector<float>& weighted) {
  const int n = pair.source_length, w = band.width;
  prefix.resize(size(n + 1));
  weighted.resize(size(n + 1));
  double running = 0.0;
  for (int k = 0; k <= n; ++k) {
    const double leaving = k == 0 && jumps.boundary() ? 0.0 : from[k] * pair.leave[size(k)];
    weighted[size(k)] = static_cast<float>(leaving);
    running += leaving;
    prefix[size(k)] = running;
  }
  for (int i = 1; i <= n; ++i) {
    double far = 0.0;
    if (i - w >= 0) far += band.right * prefix[size(i - w)];
    if (i + w <= n) far += band.left * (running - prefix[size(i + w - 1)]);
    into[i] = static_cast<float>(far);
  }
  for (int d = 1 - w; d < w; ++d) {
    const auto jump = static_cast<float>(band.weight[size(d + w)]);
    // i - d = k in 0..n and i in 1..n
    const int first = std::max(1, d), last = std::min(n, n + d);
    for (int i = first; i <= last; ++i) into[i] += jump * weighted[size(i - d)];
  }
  if (!jumps.boundary()) return;
  const double leaving = from[0] * pair.leave[0];
  for (int i = 1; i <= n; ++i) into[i] += static_cast<float>(leaving * jumps.start[size(jumps.jump_class(i))]);
}

// Forward pass, scaled: forward_word[j][i] and forward_empty[j][k] sum to 1 over a row's
// states, scale[j] the factor divided out.
void forward(const JumpModel& jumps, const Band& band, HmmPair& pair) {
  const int n = pair.source_length, m = pair.target_length;
  const std::size_t width = size(n + 1);
  pair.forward_word.resize(size(m) * width);
  pair.forward_empty.resize(size(m) * width);
  pair.scale.assign(size(m), 0.0);
  pair.scratch.assign(2 * width, 0.0F);
  float* into_word = pair.scratch.data();  // into_word[i]: sum_k previous(k) P(k -> i)
  float* from = pair.scratch.data() + width;
  const auto p_empty = static_cast<float>(jumps.p_empty_for(n));
  pair.log_likelihood = 0.0;
  for (int j = 0; j < m; ++j) {
    float* word = pair.forward_word.data() + size(j) * width;
    float* empty = pair.forward_empty.data() + size(j) * width;
    for (int k = 0; k <= n; ++k) {
      from[k] = j == 0 ? (k == 0 ? 1.0F : 0.0F)
                       : pair.forward_word[size(j - 1) * width + size(k)] + pair.forward_empty[size(j - 1) * width + size(k)];
    }
    spread(jumps, band, pair, from, into_word, pair.prefix, pair.weighted);
    const float* e = pair.emission.data() + size(j) * width;
    const float empty_emission = e[0] * p_empty;
    double total = 0.0;
    word[0] = 0.0F;
    for (int i = 1; i <= n; ++i) {
      word[i] = e[i] * into_word[i];
      total += word[i];
    }
    for (int k = 0; k <= n; ++k) {
      empty[k] = from[k] * empty_emission;
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
  if (!jumps.boundary()) return;
  const std::size_t last = size(m - 1) * width;
  double ending = 0.0;
  for (std::size_t k = 0; k < width; ++k) {
    ending += (static_cast<double>(pair.forward_word[last + k]) + pair.forward_empty[last + k]) * pair.finish[k];
  }
  pair.end_scale = std::max(ending, kSmallestScale);
  pair.log_likelihood += std::log(pair.end_scale);
}

// gathered[k] = sum_i jump(i - k) ahead[i] for k = 0..n (ahead[1..n]); prefix[x] = sum_{i <= x}
// ahead[i] (double), kept for the caller.
// With boundary jumps, position 0's by the start weights.
void gather(const JumpModel& jumps, const Band& band, int n, const float* ahead, float* gathered,
            std::vector<double>& prefix) {
  const int w = band.width;
  prefix.resize(size(n + 1));
  prefix[0] = 0.0;
  for (int i = 1; i <= n; ++i) prefix[size(i)] = prefix[size(i - 1)] + ahead[i];
  for (int k = 0; k <= n; ++k) {
    double far = 0.0;
    if (k + w <= n) far += band.right * (prefix[size(n)] - prefix[size(k + w - 1)]);
    if (k - w >= 1) far += band.left * prefix[size(k - w)];
    gathered[k] = static_cast<float>(far);
  }
  for (int d = 1 - w; d < w; ++d) {
    const auto jump = static_cast<float>(band.weight[size(d + w)]);
    // i = k + d in 1..n and k in 0..n
    const int first = std::max(0, 1 - d), last = std::min(n, n - d);
    for (int k = first; k <= last; ++k) gathered[k] += jump * ahead[k + d];
  }
  if (!jumps.boundary()) return;
  double from_start = 0.0;
  for (int i = 1; i <= n; ++i) from_start += jumps.start[size(jumps.jump_class(i))] * ahead[i];
  gathered[0] = static_cast<float>(from_start);
}

// Backward pass, scaled by the forward pass's factors: backward[j][k] for the states at
// position k (word k and empty after k, which have the same future).
void backward(const JumpModel& jumps, const Band& band, HmmPair& pair) {
  const int n = pair.source_length, m = pair.target_length;
  const std::size_t width = size(n + 1);
  pair.backward.resize(size(m) * width);
  float* last = pair.backward.data() + size(m - 1) * width;
  // Scaled as the forward pass's rows are: every row's forward x backward sums to 1.
  for (std::size_t k = 0; k < width; ++k) {
    last[k] = jumps.boundary() ? static_cast<float>(pair.finish[k] / pair.end_scale) : 1.0F;
  }
  pair.scratch.assign(2 * width, 0.0F);
  float* ahead = pair.scratch.data();  // ahead[i] = e(j, i) backward[j][i]
  float* gathered = pair.scratch.data() + width;
  const auto p_empty = static_cast<float>(jumps.p_empty_for(n));
  for (int j = m - 1; j > 0; --j) {
    const float* e = pair.emission.data() + size(j) * width;
    const float* next = pair.backward.data() + size(j) * width;
    float* here = pair.backward.data() + size(j - 1) * width;
    for (int i = 1; i <= n; ++i) ahead[i] = e[i] * next[i];
    gather(jumps, band, n, ahead, gathered, pair.prefix);
    const float stay = e[0] * p_empty;
    const auto inverse = static_cast<float>(1.0 / pair.scale[size(j)]);
    for (int k = 0; k <= n; ++k) {
      here[k] = (static_cast<float>(pair.leave[size(k)]) * gathered[k] + stay * next[k]) * inverse;
    }
  }
}

// The expected jumps: for each target word j, moving from position k (the state before) to
// word i has posterior before(k) leave[k] jump(i - k) e(j, i) backward[j][i] / scale[j].
void count_jumps(const JumpModel& jumps, const Band& band, HmmPair& pair) {
  const int n = pair.source_length, m = pair.target_length, w = band.width;
  const std::size_t width = size(n + 1);
  pair.jump_counts.assign(jumps.weight.size(), 0.0);
  pair.jump_opportunities.assign(jumps.weight.size(), 0.0);
  std::vector<double>& arrival = pair.arrival;  // prefix sums of e(j, i) backward[j][i] / scale[j]
  arrival.resize(width);
  // The expected moves from each position k to a word (the posterior of k -> some i, summed
  // over the target words): each is an opportunity for every class's positions.
  std::vector<double>& departures = pair.departures;
  departures.assign(width, 0.0);
  const std::size_t classes = jumps.weight.size();
  double start_departures = 0.0;
  if (jumps.boundary()) pair.boundary_counts.assign(4 * classes, 0.0);
  for (int j = 0; j < m; ++j) {
    const float* e = pair.emission.data() + size(j) * width;
    const float* after = pair.backward.data() + size(j) * width;
    const double inverse = 1.0 / pair.scale[size(j)];
    arrival[0] = 0.0;
    for (int i = 1; i <= n; ++i) arrival[size(i)] = arrival[size(i - 1)] + static_cast<double>(e[i]) * after[i] * inverse;
    for (int k = 0; k <= n; ++k) {
      const double from = j == 0 ? (k == 0 ? 1.0 : 0.0)
                                 : static_cast<double>(pair.forward_word[size(j - 1) * width + size(k)]) +
                                       pair.forward_empty[size(j - 1) * width + size(k)];
      if (from == 0.0) continue;
      const double leaving = from * pair.leave[size(k)];
      if (k == 0 && jumps.boundary()) {
        for (int i = 1; i <= n; ++i) {
          const double moved = leaving * jumps.start[size(jumps.jump_class(i))] * (arrival[size(i)] - arrival[size(i - 1)]);
          pair.boundary_counts[size(jumps.jump_class(i))] += moved;
          start_departures += moved;
        }
        continue;
      }
      double moved = 0.0;
      const auto add = [&](std::size_t jump_class, double count) {
        pair.jump_counts[jump_class] += count;
        moved += count;
      };
      if (k + w <= n) add(size(2 * w), leaving * band.right * (arrival[size(n)] - arrival[size(k + w - 1)]));
      if (k - w >= 1) add(0, leaving * band.left * arrival[size(k - w)]);
      for (int d = std::max(1 - w, 1 - k); d < w && k + d <= n; ++d) {
        add(size(d + w), leaving * band.weight[size(d + w)] * (arrival[size(k + d)] - arrival[size(k + d - 1)]));
      }
      departures[size(k)] += moved;
    }
  }
  for (int k = 0; k <= n; ++k) {
    const double leaving = departures[size(k)];
    pair.jump_opportunities.back() += leaving * Band::far_right(n, k, w);
    pair.jump_opportunities.front() += leaving * Band::far_left(n, k, w);
    for (int d = std::max(1 - w, 1 - k); d < w && k + d <= n; ++d) pair.jump_opportunities[size(d + w)] += leaving;
  }
  if (!jumps.boundary()) return;
  double* start_opportunities = pair.boundary_counts.data() + classes;
  double* end_counts = pair.boundary_counts.data() + 2 * classes;
  double* end_opportunities = pair.boundary_counts.data() + 3 * classes;
  for (int i = 1; i <= n; ++i) start_opportunities[jumps.jump_class(i)] += start_departures;
  // The end move from k has the posterior of the last word's position being k (end_scale, the
  // forward pass's sum of these products, normalizes them).
  const std::size_t last = size(m - 1) * width;
  for (int k = 0; k <= n; ++k) {
    const double at_k = (static_cast<double>(pair.forward_word[last + size(k)]) + pair.forward_empty[last + size(k)]) *
                        pair.finish[size(k)] / pair.end_scale;
    end_counts[jumps.jump_class(n + 1 - k)] += at_k;
    for (int i = 1; i <= n + 1; ++i) end_opportunities[jumps.jump_class(i - k)] += at_k;
  }
}

}  // namespace

JumpModel JumpModel::uniform(int width, double p_empty, PEmptyMode mode, bool boundary) {
  JumpModel model;
  model.width = width;
  model.p_empty = p_empty;
  model.p_empty_mode = mode;
  model.weight.assign(size(2 * width + 1), 1.0 / (2 * width + 1));
  if (boundary) model.start = model.end = model.weight;
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
  const Band band(jumps);
  fill_leave(jumps, band, pair);
  forward(jumps, band, pair);
  backward(jumps, band, pair);
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
  if (want_jumps) count_jumps(jumps, band, pair);
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
  const double p_empty = jumps.p_empty_for(n);
  // move[k][i - 1]: the transition probability, as fill_transitions computes it but in double.
  std::vector<double> move(width * size(n));
  for (int k = 0; k <= n; ++k) {
    const std::vector<double>& weights = k == 0 && jumps.boundary() ? jumps.start : jumps.weight;
    const double total = class_sum(jumps, weights, k, 1, n);
    for (int i = 1; i <= n; ++i) {
      move[size(k) * size(n) + size(i - 1)] = (1.0 - p_empty) * weights[size(jumps.jump_class(i - k))] / total;
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
    const double stay = p_empty * e[0];
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
  if (jumps.boundary()) {
    for (int at = 0; at <= n; ++at) {
      best[size(at)] *= end_factor(jumps, n, at);
    }
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
