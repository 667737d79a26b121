#pragma once
// The edit count of TER (Snover et al. 2006) for one hypothesis and one reference,
// as sacreBLEU 2.6.0's lib_ter.translation_edit_rate computes it (after Tercom):
//   edits = shifts + d(shifted hypothesis, reference),
// d a word-level Levenshtein distance (insert, delete, substitute: cost 1) limited to
// a beam around the length-scaled diagonal. Shifts are greedy: each round moves the
// block of up to 10 words (matching reference words that start at most 50 positions
// away) whose move lowers d the most (ties: longer block, earlier block, earlier
// target), until no move helps or 1000 candidate moves have been tried in total (the
// round that reaches 1000 is dropped).
#include <cstdint>
#include <vector>

namespace rnnsearch::eval {

// Words are integer ids (eval/segment_vocabulary.h): equal ids are equal words. One
// aligner can be reused for many pairs (its buffers are kept); it is not thread-safe.
class TerAligner {
 public:
  // Number of edits turning `hyp` into `ref`; hyp.size() when `ref` is empty.
  int edits(const std::vector<std::uint32_t>& hyp, const std::vector<std::uint32_t>& ref);

 private:
  struct Shift {
    int delta = 0;  // decrease of the edit distance
    int length = 0;
    int start = 0;   // first hypothesis word of the block
    int target = 0;  // insertion position (before this word of the unshifted hypothesis)
  };

  void set_up(int hyp_length, const std::vector<std::uint32_t>& ref);
  // Rows from+1..n of the distance matrix (with operations) of words_, rows 0..from kept.
  void fill_rows(int from);
  // Alignment of ref words to hyp words and error flags from the optimal trace.
  void trace_back();
  // Searches the shifts of words_; returns the best one with delta > 0, if any.
  bool best_shift(int pre_score, int& checked, Shift& best);
  // d(shifted_, ref) when at most `bound`; rows 0..first come from words_'s matrix.
  // Returns a value > bound when d is known to exceed it.
  int bounded_distance(int first, int bound);
  void perform_shift(int start, int length, int target);

  const std::uint32_t* ref_ = nullptr;
  int n_ = 0;   // hypothesis words
  int m_ = 0;   // reference words
  int width_ = 0;  // m_ + 1 cells a row
  std::vector<int> row_begin_, row_end_;  // beam of row i: columns [begin, end)
  std::vector<std::uint32_t> words_, shifted_;
  // Distance matrix of words_: [(n+1) x (m+1)], cells outside the beam infinite.
  std::vector<std::int32_t> cost_;
  std::vector<char> op_;
  std::vector<std::int32_t> scratch_;  // candidate rows, same shape as cost_
  std::vector<int> align_;             // ref word j -> hyp word (-1: before the first)
  std::vector<char> hyp_err_, ref_err_;           // word not matched
  std::vector<int> next_hyp_err_, next_ref_err_;  // first error at or after a position
};

}  // namespace rnnsearch::eval
