#include "align/hmm.h"

#include <algorithm>
#include <cmath>

#include "align/posterior_links.h"
#include "util/error.h"
#include "util/option_range.h"
#include "util/parallel.h"

namespace rnnsearch::align {

HmmDecoding parse_hmm_decoding(const std::string& name) {
  if (name == "posterior") return HmmDecoding::kPosterior;
  if (name == "viterbi") return HmmDecoding::kViterbi;
  throw util::UsageError("--decode must be posterior or viterbi, got '" + name + "'");
}

HmmLinks parse_hmm_links(const std::string& name) {
  if (name == "forward") return HmmLinks::kForward;
  if (name == "reverse") return HmmLinks::kReverse;
  if (name == "agreed") return HmmLinks::kAgreed;
  if (name == "average") return HmmLinks::kAverage;
  throw util::UsageError("--links must be forward, reverse, agreed or average, got '" + name + "'");
}

HmmAgreementEmpty parse_hmm_agreement_empty(const std::string& name) {
  if (name == "product") return HmmAgreementEmpty::kProduct;
  if (name == "own") return HmmAgreementEmpty::kOwn;
  throw util::UsageError("--agreement-empty must be product or own, got '" + name + "'");
}

PEmptyMode parse_p_empty_mode(const std::string& name) {
  if (name == "learned") return PEmptyMode::kLearned;
  if (name == "fixed") return PEmptyMode::kFixed;
  if (name == "by-length") return PEmptyMode::kByLength;
  throw util::UsageError("--p-empty-mode must be learned, fixed or by-length, got '" + name + "'");
}

void HmmOptions::validate() const {
  util::check_range("model1-iterations", model1_iterations, 0, 100);
  util::check_range("hmm-iterations", hmm_iterations, 0, 100);
  if (model1_iterations + hmm_iterations == 0) {
    throw util::UsageError("--model1-iterations and --hmm-iterations are both 0: nothing would be trained");
  }
  util::check_range("jump-width", jump_width, 1, 100);
  util::check_range("p-empty", p_empty, 0.001, 0.9);
  util::check_range("alpha", alpha, 0.0, 100.0);
  util::check_range("threshold", threshold, 0.0, 1.0);
  util::check_range("threads", threads, 1, 1024);
  util::check_range<std::size_t>("cache-mb", index_cache_mb, 0, std::size_t{1} << 30);
}

namespace {

constexpr int kForward = 0, kReverse = 1;

// The two directions' views of the corpus: direction d's conditioning side (the HMM's states)
// and generated side (its observations).
struct Directions {
  CorpusSide conditioning[2], generated[2];

  explicit Directions(const Ibm2Corpus& corpus) {
    const CorpusSide source{&corpus.source, &corpus.source_begin, 1, corpus.source_types};
    const CorpusSide target{&corpus.target, &corpus.target_begin, 0, corpus.target_types};
    conditioning[kForward] = source;
    generated[kForward] = target;
    conditioning[kReverse] = target;
    generated[kReverse] = source;
  }
  // Cells of pair k in direction d: (conditioning words + 1) x generated words.
  std::size_t cells(int d, std::size_t k) const {
    return (conditioning[d].length(k) + 1) * generated[d].length(k);
  }
};

// Where each cell's t is in its table, for the first pairs of the corpus in each direction,
// found in the first pass and read back in the others (half the memory each way).
class IndexCache {
 public:
  // `used[d]`: whether the passes read direction d (a decode pass of one direction's links
  // does not read the other); an unused direction holds nothing.
  IndexCache(const Directions& directions, std::size_t max_bytes, const bool (&used)[2]) {
    for (int d = 0; d < 2; ++d) {
      auto& begin = cell_begin_[d];
      begin.push_back(0);
      for (std::size_t k = 0; used[d] && k < directions.generated[d].sentences(); ++k) {
        const std::size_t cells = directions.cells(d, k);
        if ((begin.back() + cells) * sizeof(std::uint32_t) > max_bytes / 2) break;
        begin.push_back(begin.back() + cells);
      }
      at_[d].resize(begin.back());
    }
  }
  // Pair k's cells in direction d, or null past the cache.
  std::uint32_t* cells(int d, std::size_t k) {
    return k + 1 < cell_begin_[d].size() ? at_[d].data() + cell_begin_[d][k] : nullptr;
  }
  // Finds the positions of every cached cell, table row by table row: while a row's cells
  // are found, its entries stay in the processor's cache (pair by pair, every search would
  // go to memory). Each cell belongs to one row, so threads sharing the rows write apart.
  void fill(const Directions& directions, const HmmModel& model, int threads) {
    for (int d = 0; d < 2; ++d) fill_direction(directions, d == 0 ? model.forward.table : model.reverse.table, d, threads);
    filled = true;
  }
  bool filled = false;  // every cached cell's position is known

 private:
  void fill_direction(const Directions& directions, const CooccurrenceTable& table, int d, int threads) {
    const CorpusSide& conditioning = directions.conditioning[d];
    const CorpusSide& generated = directions.generated[d];
    const std::size_t pairs = cell_begin_[d].size() - 1;
    // occurrences[begin[r] .. begin[r + 1]): the (pair, position) of row r's word in the
    // cached pairs, position 0 (the empty word, row 0) once for every pair.
    const auto row_of = [&](std::int32_t word) { return static_cast<std::size_t>(word - conditioning.first_id) + 1; };
    std::vector<std::size_t> begin(table.rows() + 1, 0);
    for (std::size_t k = 0; k < pairs; ++k) {
      ++begin[1];
      for (std::size_t i = 0; i < conditioning.length(k); ++i) ++begin[row_of(conditioning.sentence(k)[i]) + 1];
    }
    for (std::size_t r = 1; r < begin.size(); ++r) begin[r] += begin[r - 1];
    std::vector<std::pair<std::uint32_t, std::uint32_t>> occurrences(begin.back());
    std::vector<std::size_t> put(begin.begin(), begin.end() - 1);
    for (std::size_t k = 0; k < pairs; ++k) {
      occurrences[put[0]++] = {static_cast<std::uint32_t>(k), 0};
      for (std::size_t i = 0; i < conditioning.length(k); ++i) {
        occurrences[put[row_of(conditioning.sentence(k)[i])]++] = {static_cast<std::uint32_t>(k),
                                                                 static_cast<std::uint32_t>(i + 1)};
      }
    }
    util::run_on_threads(std::max(1, threads), [&](int worker) {
      for (std::size_t r = static_cast<std::size_t>(worker); r < table.rows(); r += static_cast<std::size_t>(std::max(1, threads))) {
        for (std::size_t o = begin[r]; o < begin[r + 1]; ++o) {
          const auto [k, i] = occurrences[o];
          const std::size_t width = conditioning.length(k) + 1;
          const std::int32_t* f = generated.sentence(k);
          std::uint32_t* at = at_[d].data() + cell_begin_[d][k];
          for (std::size_t j = 0; j < generated.length(k); ++j) {
            at[j * width + i] = static_cast<std::uint32_t>(table.find(r, f[j]));
          }
        }
      }
    });
  }

  std::vector<std::size_t> cell_begin_[2];
  std::vector<std::uint32_t> at_[2];
};

// What one pass does with the posteriors.
enum class PassKind { kModel1, kHmm, kDecode };

// One pass over a block of pairs: threads compute each pair's posteriors (and its counts or
// links); accumulate() then adds the counts in corpus order, each direction's table by one
// thread.
class BlockPass {
 public:
  static constexpr std::size_t kPairs = 2048;

  // `learner` receives the counts (null when decoding).
  BlockPass(const Directions& directions, const HmmModel& model, HmmModel* learner, IndexCache& cache,
            const HmmOptions& options, PassKind kind)
      : directions_(directions), model_(model), learner_(learner), cache_(cache), options_(options), kind_(kind) {}

  void compute(std::size_t begin, std::size_t end) {
    begin_ = begin;
    const std::size_t pairs = end - begin;
    for (int d = 0; d < 2; ++d) {
      auto& cell_begin = cell_begin_[d];
      cell_begin.assign(pairs + 1, 0);
      for (std::size_t s = 0; s < pairs; ++s) cell_begin[s + 1] = cell_begin[s] + directions_.cells(d, begin + s);
      at_[d].resize(cell_begin.back());
      pair_at_[d].resize(pairs);
      counts_[d].resize(kind_ == PassKind::kDecode ? 0 : cell_begin.back());
      jump_counts_[d].assign(pairs * jump_stride(), 0.0);
      log_likelihood_[d].assign(pairs, 0.0);
    }
    links_.resize(kind_ == PassKind::kDecode ? pairs : 0);
    const auto workers = static_cast<std::size_t>(std::max(1, std::min<int>(options_.threads, static_cast<int>(pairs))));
    const std::size_t total = cell_begin_[kForward].back();
    if (work_.size() < workers) work_.resize(workers);
    util::run_on_threads(static_cast<int>(workers), [&](int worker) {
      const auto w = static_cast<std::size_t>(worker);
      const std::size_t first = first_pair_at(total * w / workers), last = first_pair_at(total * (w + 1) / workers);
      for (std::size_t s = first; s < last; ++s) compute_pair(s, work_[w].pair);
    });
  }

  // Adds the block's counts into the tables and its sums into the iteration's.
  void accumulate(std::vector<double> (&jump_totals)[2], HmmIteration& iteration) {
    const bool counting = kind_ != PassKind::kDecode;
    util::run_on_threads(counting && options_.threads > 1 ? 2 : 1, [&](int worker) {
      for (int d = 0; d < 2; ++d) {
        if (options_.threads > 1 && d != worker) continue;
        for (std::size_t s = 0; counting && s + 1 < cell_begin_[d].size(); ++s) {
          const std::uint32_t* at = pair_at_[d][s];
          const float* count = counts_[d].data() + cell_begin_[d][s];
          const std::size_t cells = cell_begin_[d][s + 1] - cell_begin_[d][s];
          CooccurrenceTable& table = d == kForward ? learner_->forward.table : learner_->reverse.table;
          for (std::size_t c = 0; c < cells; ++c) table.add(at[c], count[c]);
        }
      }
    });
    for (int d = 0; d < 2; ++d) {
      double& log_likelihood = d == kForward ? iteration.forward_log_likelihood : iteration.reverse_log_likelihood;
      for (std::size_t s = 0; s < log_likelihood_[d].size(); ++s) {
        log_likelihood += log_likelihood_[d][s];
        for (std::size_t c = 0; kind_ == PassKind::kHmm && c < jump_stride(); ++c) {
          jump_totals[d][c] += jump_counts_[d][s * jump_stride() + c];
        }
      }
    }
  }

  const data::Alignment& links(std::size_t pair) const { return links_[pair - begin_]; }

  // Per pair and direction: the jump classes' counts and opportunities, with boundary jumps
  // then the start's and the end's (HmmPair::boundary_counts), then the empty-word count and
  // the words.
  std::size_t jump_stride() const {
    return (model_.forward.jumps.boundary() ? 6 : 2) * model_.forward.jumps.weight.size() + 2;
  }

 private:
  const HmmDirection& direction(int d) const { return d == kForward ? model_.forward : model_.reverse; }
  std::size_t first_pair_at(std::size_t cell) const {
    const auto& begin = cell_begin_[kForward];
    return static_cast<std::size_t>(std::lower_bound(begin.begin(), begin.end() - 1, cell) - begin.begin());
  }

  void compute_pair(std::size_t s, HmmPair (&work)[2]);
  void fill_emissions(int d, std::size_t s, HmmPair& pair);
  void count(std::size_t s, HmmPair (&work)[2]);
  data::Alignment read_links(std::size_t s, HmmPair (&work)[2]) const;

  const Directions& directions_;
  const HmmModel& model_;
  HmmModel* learner_;
  IndexCache& cache_;
  const HmmOptions& options_;
  const PassKind kind_;
  std::size_t begin_ = 0;
  std::vector<std::size_t> cell_begin_[2];
  std::vector<std::uint32_t> at_[2];               // positions of pairs past the cache
  std::vector<const std::uint32_t*> pair_at_[2];  // each pair's positions, in the cache or at_
  std::vector<float> counts_[2];
  std::vector<double> jump_counts_[2], log_likelihood_[2];
  std::vector<data::Alignment> links_;
  // Each worker's scratch, kept from block to block.
  struct Work {
    HmmPair pair[2];
  };
  std::vector<Work> work_;
};

void BlockPass::fill_emissions(int d, std::size_t s, HmmPair& pair) {
  const std::size_t k = begin_ + s;
  const CorpusSide& conditioning = directions_.conditioning[d];
  const CorpusSide& generated = directions_.generated[d];
  const auto n = static_cast<int>(conditioning.length(k)), m = static_cast<int>(generated.length(k));
  pair.resize(n, m);
  std::uint32_t* cached = cache_.cells(d, k);
  std::uint32_t* at = cached != nullptr ? cached : at_[d].data() + cell_begin_[d][s];
  pair_at_[d][s] = at;
  const CooccurrenceTable& table = direction(d).table;
  if (cached == nullptr || !cache_.filled) {
    const std::int32_t* e = conditioning.sentence(k);
    const std::int32_t* f = generated.sentence(k);
    for (int j = 0; j < m; ++j) {
      std::uint32_t* row = at + static_cast<std::size_t>(j) * static_cast<std::size_t>(n + 1);
      row[0] = static_cast<std::uint32_t>(table.find(0, f[j]));
      for (int i = 1; i <= n; ++i) {
        const auto table_row = static_cast<std::size_t>(e[i - 1] - conditioning.first_id) + 1;
        row[i] = static_cast<std::uint32_t>(table.find(table_row, f[j]));
      }
    }
  }
  for (std::size_t c = 0; c < pair.emission.size(); ++c) pair.emission[c] = table.probability(at[c]);
}

void BlockPass::compute_pair(std::size_t s, HmmPair (&work)[2]) {
  const bool hmm = kind_ == PassKind::kHmm || (kind_ == PassKind::kDecode && model_.hmm);
  const bool need_both = kind_ != PassKind::kDecode || options_.links == HmmLinks::kAgreed ||
                         options_.links == HmmLinks::kAverage;
  for (int d = 0; d < 2; ++d) {
    if (!need_both && (d == kForward) != (options_.links == HmmLinks::kForward)) continue;
    fill_emissions(d, s, work[d]);
    if (hmm) {
      hmm_forward_backward(direction(d).jumps, work[d], kind_ == PassKind::kHmm);
    } else {
      model1_posteriors(work[d]);
    }
    log_likelihood_[d][s] = work[d].log_likelihood;
  }
  if (kind_ == PassKind::kDecode) {
    links_[s] = read_links(s, work);
  } else {
    count(s, work);
  }
}

// Each direction's counts: its own posteriors, or with agreement the product of both.
void BlockPass::count(std::size_t s, HmmPair (&work)[2]) {
  HmmPair& fwd = work[kForward];
  HmmPair& rev = work[kReverse];
  const int n = fwd.source_length, m = fwd.target_length;
  float* forward = counts_[kForward].data() + cell_begin_[kForward][s];
  float* reverse = counts_[kReverse].data() + cell_begin_[kReverse][s];
  if (!options_.agreement) {
    std::copy(fwd.posterior.begin(), fwd.posterior.end(), forward);
    std::copy(rev.posterior.begin(), rev.posterior.end(), reverse);
  } else {
    // forward[j][i] and reverse[i][j] (rows j of I + 1, rows i of J + 1, column 0 the empty word).
    const bool own_empty = options_.agreement_empty == HmmAgreementEmpty::kOwn;
    const auto fwd_width = static_cast<std::size_t>(n + 1), rev_width = static_cast<std::size_t>(m + 1);
    for (int i = 1; i <= n; ++i) reverse[static_cast<std::size_t>(i - 1) * rev_width] = 1.0F;
    for (int j = 1; j <= m; ++j) {
      float* row = forward + static_cast<std::size_t>(j - 1) * fwd_width;
      const float* posterior = fwd.posterior.data() + static_cast<std::size_t>(j - 1) * fwd_width;
      float rest = 1.0F;
      for (int i = 1; i <= n; ++i) {
        const std::size_t back = static_cast<std::size_t>(i - 1) * rev_width + static_cast<std::size_t>(j);
        const float both = posterior[i] * rev.posterior[back];
        row[i] = both;
        reverse[back] = both;
        rest -= both;
        reverse[static_cast<std::size_t>(i - 1) * rev_width] -= both;
      }
      row[0] = own_empty ? posterior[0] : std::max(0.0F, rest);
    }
    for (int i = 1; i <= n; ++i) {
      float& rest = reverse[static_cast<std::size_t>(i - 1) * rev_width];
      rest = own_empty ? rev.posterior[static_cast<std::size_t>(i - 1) * rev_width] : std::max(0.0F, rest);
    }
  }
  for (int d = 0; d < 2 && kind_ == PassKind::kHmm; ++d) {
    double* out = jump_counts_[d].data() + s * jump_stride();
    out = std::copy(work[d].jump_counts.begin(), work[d].jump_counts.end(), out);
    out = std::copy(work[d].jump_opportunities.begin(), work[d].jump_opportunities.end(), out);
    if (direction(d).jumps.boundary()) std::copy(work[d].boundary_counts.begin(), work[d].boundary_counts.end(), out);
    out = jump_counts_[d].data() + s * jump_stride();
    out[jump_stride() - 2] = work[d].empty_count;
    out[jump_stride() - 1] = work[d].target_length;
  }
}

// ++grid[i * J + j] for the links (i, j) of the direction's best path (0-based words of each
// side). Viterbi without the HMM (Model 1) is each word's most probable source.
void mark_links(const HmmPair& pair, const JumpModel* jumps, bool reverse, std::vector<char>& grid) {
  // The pair's states are the source words forward, the target words reverse.
  const int states = pair.source_length, emitted = pair.target_length;
  const auto mark = [&](int state, int word) {
    const int i = reverse ? word : state, j = reverse ? state : word;
    const int words_j = reverse ? states : emitted;
    ++grid[static_cast<std::size_t>(i) * static_cast<std::size_t>(words_j) + static_cast<std::size_t>(j)];
  };
  std::vector<int> path;
  if (jumps != nullptr) {
    path = hmm_viterbi(*jumps, pair);
  } else {
    for (int w = 0; w < emitted; ++w) {
      const auto row = pair.posterior.begin() + static_cast<std::ptrdiff_t>(w) * (states + 1);
      path.push_back(static_cast<int>(std::max_element(row, row + states + 1) - row));
    }
  }
  for (int w = 0; w < emitted; ++w) {
    if (path[static_cast<std::size_t>(w)] > 0) mark(path[static_cast<std::size_t>(w)] - 1, w);
  }
}

data::Alignment BlockPass::read_links(std::size_t s, HmmPair (&work)[2]) const {
  const HmmPair& fwd = work[kForward];
  const HmmPair& rev = work[kReverse];
  const auto n = static_cast<int>(directions_.conditioning[kForward].length(begin_ + s));
  const auto m = static_cast<int>(directions_.generated[kForward].length(begin_ + s));
  const auto cells = static_cast<std::size_t>(n) * static_cast<std::size_t>(m);
  if (options_.decoding == HmmDecoding::kPosterior) {
    // score[i][j]: the chosen direction's posterior of the link, or both directions' product
    // or mean.
    std::vector<float> score(cells);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < m; ++j) {
        const float forward = options_.links == HmmLinks::kReverse ? 0.0F
                              : fwd.posterior[static_cast<std::size_t>(j) * static_cast<std::size_t>(n + 1) +
                                              static_cast<std::size_t>(i + 1)];
        const float reverse = options_.links == HmmLinks::kForward ? 0.0F
                              : rev.posterior[static_cast<std::size_t>(i) * static_cast<std::size_t>(m + 1) +
                                              static_cast<std::size_t>(j + 1)];
        float& cell = score[static_cast<std::size_t>(i * m + j)];
        switch (options_.links) {
          case HmmLinks::kForward: cell = forward; break;
          case HmmLinks::kReverse: cell = reverse; break;
          case HmmLinks::kAgreed: cell = forward * reverse; break;
          case HmmLinks::kAverage: cell = 0.5F * (forward + reverse); break;
        }
      }
    }
    return posterior_links(score, n, m, static_cast<float>(options_.threshold), options_.competitive);
  }
  std::vector<char> grid(cells, 0);  // [i][j]: how many directions' paths hold the link
  const JumpModel* forward_jumps = model_.hmm ? &model_.forward.jumps : nullptr;
  const JumpModel* reverse_jumps = model_.hmm ? &model_.reverse.jumps : nullptr;
  if (options_.links != HmmLinks::kReverse) mark_links(fwd, forward_jumps, false, grid);
  if (options_.links != HmmLinks::kForward) mark_links(rev, reverse_jumps, true, grid);
  const int needed = options_.links == HmmLinks::kAgreed ? 2 : 1;  // agreed: the intersection
  data::Alignment links;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) {
      if (grid[static_cast<std::size_t>(i * m + j)] >= needed) links.push_back({i, j});
    }
  }
  return links;
}

// One pass over the corpus, block by block.
HmmIteration run_pass(const Directions& directions, const HmmModel& model, HmmModel* learner, IndexCache& cache, const HmmOptions& options,
                      PassKind kind, const HmmLinkSink& on_links, const HmmProgress& progress,
                      std::vector<double> (&jump_totals)[2]) {
  HmmIteration iteration;
  iteration.hmm = kind == PassKind::kHmm;
  iteration.forward_p_empty = model.forward.jumps.p_empty;
  iteration.reverse_p_empty = model.reverse.jumps.p_empty;
  iteration.p_empty_by_length = model.forward.jumps.p_empty_mode == PEmptyMode::kByLength;
  BlockPass pass(directions, model, learner, cache, options, kind);
  for (int d = 0; d < 2; ++d) jump_totals[d].assign(pass.jump_stride(), 0.0);
  const std::size_t pairs = directions.generated[kForward].sentences();
  for (std::size_t begin = 0; begin < pairs; begin += BlockPass::kPairs) {
    const std::size_t end = std::min(pairs, begin + BlockPass::kPairs);
    pass.compute(begin, end);
    pass.accumulate(jump_totals, iteration);
    for (std::size_t k = begin; kind == PassKind::kDecode && k < end; ++k) on_links(k, pass.links(k));
    if (progress) progress(end - begin);
  }
  cache.filled = true;
  return iteration;
}

// The M-step of the jumps: each class's weight (of one of its positions) is its expected
// count over its opportunities, and the empty word's probability its share of the words (the
// totals laid out as BlockPass::jump_stride says).
// weights[c] from counts[c] / opportunities[c], normalized; unchanged without any count.
void estimate_weights(const double* counts, const double* opportunities, std::vector<double>& weights) {
  const std::size_t classes = weights.size();
  std::vector<double> rate(classes, 0.0);
  double total = 0.0;
  for (std::size_t c = 0; c < classes; ++c) {
    rate[c] = opportunities[c] > 0.0 ? counts[c] / opportunities[c] : 0.0;
    total += rate[c];
  }
  if (total <= 0.0) return;
  // A little of every class, so that no jump becomes impossible.
  const double floor = 1e-6 * total;
  total += floor * static_cast<double>(classes);
  for (std::size_t c = 0; c < classes; ++c) weights[c] = (rate[c] + floor) / total;
}

void update_jumps(JumpModel& jumps, const std::vector<double>& totals) {
  const std::size_t classes = jumps.weight.size();
  estimate_weights(totals.data(), totals.data() + classes, jumps.weight);
  if (jumps.boundary()) {
    estimate_weights(totals.data() + 2 * classes, totals.data() + 3 * classes, jumps.start);
    estimate_weights(totals.data() + 4 * classes, totals.data() + 5 * classes, jumps.end);
  }
  const double words = totals[totals.size() - 1];
  if (words > 0.0 && jumps.p_empty_mode == PEmptyMode::kLearned) {
    jumps.p_empty = std::clamp(totals[totals.size() - 2] / words, 0.001, 0.9);
  }
}

}  // namespace

HmmModel hmm_start_model(const Ibm2Corpus& corpus, const HmmOptions& options) {
  const Directions directions(corpus);
  HmmModel model;
  model.hmm = options.hmm_iterations > 0;
  for (int d = 0; d < 2; ++d) {
    HmmDirection& direction = d == kForward ? model.forward : model.reverse;
    direction.jumps = JumpModel::uniform(options.jump_width, options.p_empty, options.p_empty_mode,
                                         options.boundary_jumps && model.hmm);
    direction.table = CooccurrenceTable(directions.conditioning[d], directions.generated[d], options.threads);
    if (direction.table.size() > UINT32_MAX) throw util::Error("nmt-align hmm: more than 2^32 co-occurring word pairs");
  }
  return model;
}

std::vector<HmmIteration> hmm_train(const Ibm2Corpus& corpus, const HmmOptions& options, HmmModel& model,
                                    const HmmProgress& progress, const HmmLinkSink& on_links) {
  const Directions directions(corpus);
  const bool both[2] = {true, true};
  IndexCache cache(directions, options.index_cache_mb << 20, both);
  cache.fill(directions, model, options.threads);
  std::vector<HmmIteration> iterations;
  std::vector<double> jump_totals[2];
  model.hmm = options.hmm_iterations > 0;
  for (int iteration = 0; iteration < options.model1_iterations + options.hmm_iterations; ++iteration) {
    const PassKind kind = iteration < options.model1_iterations ? PassKind::kModel1 : PassKind::kHmm;
    iterations.push_back(run_pass(directions, model, &model, cache, options, kind, {}, progress, jump_totals));
    // The prior only once the HMM iterations start: Model 1's first counts are spread evenly
    // over every co-occurring pair, and a small prior would keep only the most frequent ones.
    const double alpha = kind == PassKind::kHmm ? options.alpha : 0.0;
    model.forward.table.normalize(alpha);
    model.reverse.table.normalize(alpha);
    if (kind == PassKind::kHmm) {
      update_jumps(model.forward.jumps, jump_totals[kForward]);
      update_jumps(model.reverse.jumps, jump_totals[kReverse]);
    }
  }
  if (on_links) run_pass(directions, model, nullptr, cache, options, PassKind::kDecode, on_links, progress, jump_totals);
  return iterations;
}

void hmm_decode(const Ibm2Corpus& corpus, const HmmOptions& options, const HmmModel& model,
                const HmmLinkSink& on_links, const HmmProgress& progress) {
  const Directions directions(corpus);
  const bool used[2] = {options.links != HmmLinks::kReverse, options.links != HmmLinks::kForward};
  IndexCache cache(directions, options.index_cache_mb << 20, used);
  cache.fill(directions, model, options.threads);
  std::vector<double> jump_totals[2];
  run_pass(directions, model, nullptr, cache, options, PassKind::kDecode, on_links, progress, jump_totals);
}

}  // namespace rnnsearch::align
