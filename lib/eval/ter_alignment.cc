#include "eval/ter_alignment.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "util/error.h"

namespace rnnsearch::eval {
namespace {

// sacreBLEU's constants (lib_ter.py).
constexpr int kMaxShiftSize = 10;
constexpr int kMaxShiftDist = 50;
constexpr int kBeamWidth = 25;
constexpr int kMaxShiftCandidates = 1000;
// Cells outside the beam; adding a cost to it never beats it, as with sacreBLEU's 1e16.
constexpr std::int32_t kInfinity = 1 << 30;

// Operations rewriting the hypothesis into the reference.
enum Op : char { kUndefined, kMatch, kSubstitute, kInsert /* a reference word */, kDelete /* a hyp word */ };

}  // namespace

void TerAligner::set_up(int hyp_length, const std::vector<std::uint32_t>& ref) {
  ref_ = ref.data();
  n_ = hyp_length;
  m_ = static_cast<int>(ref.size());
  width_ = m_ + 1;

  // The beam follows the pseudo-diagonal j = floor(i * m / n); it widens when the
  // lengths differ so much that neighbouring rows would not overlap.
  const double ratio = n_ > 0 ? static_cast<double>(m_) / n_ : 1.0;
  const int beam = kBeamWidth < ratio / 2 ? static_cast<int>(std::ceil(ratio / 2 + kBeamWidth)) : kBeamWidth;
  row_begin_.assign(n_ + 1, 0);
  row_end_.assign(n_ + 1, width_);
  for (int i = 1; i <= n_; ++i) {
    const int diagonal = static_cast<int>(std::floor(i * ratio));
    row_begin_[i] = std::max(0, diagonal - beam);
    row_end_[i] = i == n_ ? width_ : std::min(width_, diagonal + beam);
  }

  // Cells outside the beam stay infinite (undefined); those inside are always
  // written before they are read, so only the former need setting.
  const std::size_t cells = static_cast<std::size_t>(n_ + 1) * width_;
  if (cost_.size() < cells) {
    cost_.resize(cells);
    op_.resize(cells);
    scratch_.resize(cells);
  }
  for (int j = 0; j < width_; ++j) {  // row 0: reference words inserted one by one
    cost_[j] = j;
    op_[j] = kInsert;
    scratch_[j] = j;
  }
  for (int i = 1; i <= n_; ++i) {
    const std::size_t row = static_cast<std::size_t>(i) * width_;
    const auto outside = [&](int from, int to) {
      std::fill(cost_.begin() + row + from, cost_.begin() + row + to, kInfinity);
      std::fill(op_.begin() + row + from, op_.begin() + row + to, kUndefined);
      std::fill(scratch_.begin() + row + from, scratch_.begin() + row + to, kInfinity);
    };
    outside(0, row_begin_[i]);
    outside(row_end_[i], width_);
  }
}

void TerAligner::fill_rows(int from) {
  for (int i = from + 1; i <= n_; ++i) {
    std::int32_t* row = &cost_[static_cast<std::size_t>(i) * width_];
    const std::int32_t* prev = row - width_;
    char* ops = &op_[static_cast<std::size_t>(i) * width_];
    const std::uint32_t word = words_[i - 1];
    int j = row_begin_[i];
    if (j == 0) {
      row[0] = prev[0] + 1;
      ops[0] = kDelete;
      j = 1;
    }
    for (const int end = row_end_[i]; j < end; ++j) {
      // Ties prefer match/substitution, then deletion, then insertion: Tercom's order
      // with insertion and deletion swapped, as the trace is read from the reference side.
      const bool match = word == ref_[j - 1];
      std::int32_t best = prev[j - 1] + !match;
      Op op = match ? kMatch : kSubstitute;
      const std::int32_t del = prev[j] + 1;
      op = del < best ? kDelete : op;
      best = std::min(best, del);
      const std::int32_t ins = row[j - 1] + 1;
      op = ins < best ? kInsert : op;
      best = std::min(best, ins);
      op = best >= kInfinity ? kUndefined : op;  // no finite neighbour: outside the beam
      row[j] = std::min(best, kInfinity);
      ops[j] = op;
    }
  }
}

void TerAligner::trace_back() {
  align_.assign(m_, -1);
  hyp_err_.assign(n_, 0);
  ref_err_.assign(m_, 0);
  int i = n_;
  int j = m_;
  while (i > 0 || j > 0) {
    switch (op_[static_cast<std::size_t>(i) * width_ + j]) {
      case kMatch:
      case kSubstitute: {
        const char err = op_[static_cast<std::size_t>(i) * width_ + j] == kSubstitute;
        align_[j - 1] = i - 1;
        hyp_err_[i - 1] = err;
        ref_err_[j - 1] = err;
        --i;
        --j;
        break;
      }
      case kInsert:  // reference word j-1 has no hypothesis word: aligned after word i-1
        align_[j - 1] = i - 1;
        ref_err_[j - 1] = 1;
        --j;
        break;
      case kDelete:
        hyp_err_[i - 1] = 1;
        --i;
        break;
      default:
        throw util::Error("TER: the edit distance beam lost the alignment (" + std::to_string(n_) +
                          " hypothesis words, " + std::to_string(m_) + " reference words)");
    }
  }
  next_hyp_err_.resize(n_ + 1);
  next_hyp_err_[n_] = n_;
  for (int k = n_ - 1; k >= 0; --k) next_hyp_err_[k] = hyp_err_[k] ? k : next_hyp_err_[k + 1];
  next_ref_err_.resize(m_ + 1);
  next_ref_err_[m_] = m_;
  for (int k = m_ - 1; k >= 0; --k) next_ref_err_[k] = ref_err_[k] ? k : next_ref_err_[k + 1];
}

void TerAligner::perform_shift(int start, int length, int target) {
  const auto w = words_.begin();
  shifted_.clear();
  if (target < start) {
    shifted_.insert(shifted_.end(), w, w + target);
    shifted_.insert(shifted_.end(), w + start, w + start + length);
    shifted_.insert(shifted_.end(), w + target, w + start);
    shifted_.insert(shifted_.end(), w + start + length, words_.end());
  } else if (target > start + length) {
    shifted_.insert(shifted_.end(), w, w + start);
    shifted_.insert(shifted_.end(), w + start + length, w + target);
    shifted_.insert(shifted_.end(), w + start, w + start + length);
    shifted_.insert(shifted_.end(), w + target, words_.end());
  } else {
    // Target inside the block: sacreBLEU moves the block right by target - start
    // words (Python slices clip at the end of the list).
    const int middle_end = std::min(n_, length + target);
    shifted_.insert(shifted_.end(), w, w + start);
    shifted_.insert(shifted_.end(), w + start + length, w + middle_end);
    shifted_.insert(shifted_.end(), w + start, w + start + length);
    shifted_.insert(shifted_.end(), w + middle_end, words_.end());
  }
}

int TerAligner::bounded_distance(int first, int bound) {
  const std::int32_t* prev = &cost_[static_cast<std::size_t>(first) * width_];
  if (first == n_) return prev[m_];
  for (int i = first + 1; i <= n_; ++i) {
    std::int32_t* row = &scratch_[static_cast<std::size_t>(i) * width_];
    const std::uint32_t word = shifted_[i - 1];
    const int remaining_hyp = n_ - i;
    // Any path from cell (i, j) to the end costs at least |remaining length difference|,
    // and costs never decrease along a path: this row's smallest such sum bounds d.
    std::int32_t lower = kInfinity;
    int j = row_begin_[i];
    if (j == 0) {
      row[0] = prev[0] + 1;
      lower = row[0] + std::abs(remaining_hyp - m_);
      j = 1;
    }
    for (const int end = row_end_[i]; j < end; ++j) {
      std::int32_t best = prev[j - 1] + (word == ref_[j - 1] ? 0 : 1);
      best = std::min(best, prev[j] + 1);
      best = std::min(best, row[j - 1] + 1);
      best = std::min(best, kInfinity);
      row[j] = best;
      lower = std::min(lower, best + std::abs(remaining_hyp - (m_ - j)));
    }
    if (lower > bound) return bound + 1;
    prev = row;
  }
  return prev[m_];
}

bool TerAligner::best_shift(int pre_score, int& checked, Shift& best) {
  bool found = false;
  for (int start_h = 0; start_h < n_; ++start_h) {
    // Shift only a block with an error on both sides (skipping the starts where no
    // block can have one changes nothing: such blocks are never candidates).
    const int hyp_error = next_hyp_err_[start_h];  // n_: none
    if (hyp_error == n_ || hyp_error >= start_h + kMaxShiftSize) continue;
    const int first_r = std::max(0, start_h - kMaxShiftDist);
    const int last_r = std::min(m_ - 1, start_h + kMaxShiftDist);
    for (int start_r = first_r; start_r <= last_r; ++start_r) {
      const int ref_error = next_ref_err_[start_r];  // m_: none
      if (ref_error == m_ || ref_error >= start_r + kMaxShiftSize) continue;
      // Every common run words_[start_h..] = ref[start_r..] of length 1..10 is a block.
      int length = 0;
      while (length < kMaxShiftSize && words_[start_h + length] == ref_[start_r + length]) {
        ++length;
        // ... that is not already where the reference wants it.
        const int aligned = align_[start_r];
        if (hyp_error < start_h + length && ref_error < start_r + length &&
            !(start_h <= aligned && aligned < start_h + length)) {
          int previous_target = -1;
          for (int offset = -1; offset < length; ++offset) {
            const int target = start_r + offset == -1 ? 0 : align_[start_r + offset] + 1;
            if (target == previous_target) continue;
            previous_target = target;
            ++checked;
            // Only a shift that beats the best so far matters: the tuple
            // (delta, length, -start, -target) must be larger, and delta > 0.
            int needed = 1;
            if (found) {
              const bool wins_tie = length > best.length || (length == best.length && start_h < best.start) ||
                                    (length == best.length && start_h == best.start && target < best.target);
              needed = wins_tie ? best.delta : best.delta + 1;
            }
            const int bound = pre_score - needed;
            if (bound < 0) continue;
            perform_shift(start_h, length, target);
            const int distance = bounded_distance(std::min(start_h, target), bound);
            if (distance <= bound) {
              best = Shift{pre_score - distance, length, start_h, target};
              found = true;
            }
          }
          if (checked >= kMaxShiftCandidates) return found;
        }
        if (start_h + length == n_ || start_r + length == m_) break;
      }
    }
  }
  return found;
}

int TerAligner::edits(const std::vector<std::uint32_t>& hyp, const std::vector<std::uint32_t>& ref) {
  if (ref.empty()) return static_cast<int>(hyp.size());
  set_up(static_cast<int>(hyp.size()), ref);
  words_ = hyp;
  fill_rows(0);

  int shifts = 0;
  int checked = 0;
  for (;;) {
    const int pre_score = cost_[static_cast<std::size_t>(n_) * width_ + m_];
    trace_back();
    Shift best;
    const bool found = best_shift(pre_score, checked, best);
    // sacreBLEU drops the round that exhausts the candidate budget, even if it found a shift.
    if (checked >= kMaxShiftCandidates || !found) return shifts + pre_score;
    perform_shift(best.start, best.length, best.target);
    words_.swap(shifted_);
    ++shifts;
    fill_rows(std::min(best.start, best.target));
  }
}

}  // namespace rnnsearch::eval
