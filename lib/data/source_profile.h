#pragma once
// The source profile: what a model keeps of its training source text to tell, when it is
// given an input, whether the input looks like text of the same language. It is a
// character trigram model of the training source, lowercased, its BPE joins undone
// ("Fuß@@ ball" reads "fußball"), each line between two start marks and an end mark:
//   P3(c | a b) = (N(abc) + T(ab) P2(c | b)) / (N(ab) + T(ab))    (Witten-Bell)
//   P2(c | b)   = (N(bc)  + T(b)  P1(c))     / (N(b)  + T(b))
//   P1(c)       = (N(c) + 1) / (N + V + 1)
// N(abc) counts the trigram, N(ab) and T(ab) the trigrams kept after ab (their count and
// how many), N and V the characters kept; a context with no trigram kept backs off to the
// lower order. Only the kMaxEntries most frequent n-grams of each order are kept (ties by
// key), so a profile is a few tens of kilobytes whatever the corpus. It also keeps the
// training text's own cross-entropy under the model (bits per character, counted over
// every trigram before the cut), the share of its words that BPE split into several
// pieces, and the training source file's name.
//
// An input's cross-entropy divided by the training text's is the language check's ratio
// (LanguageCheck): near 1 for text of the training language, whatever its domain, well
// above for another language (data/results/README.md measures both).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rnnsearch::data {

// One order's n-grams: keys ascending (code points packed 21 bits each, the last
// character in the low bits), a count per key.
struct NgramTable {
  std::vector<std::uint64_t> keys;
  std::vector<std::uint32_t> counts;
};

// What a profile keeps beside its tables.
struct ProfileFigures {
  std::string training_source;      // the file's name, without its folder
  double bits_per_character = 0.0;  // the training text's own cross-entropy under the profile
  double split_share = 0.0;         // of its words, those written as several pieces
};

// A line's words (pieces up to one without the "@@" join) and those of several pieces.
struct WordSplits {
  std::size_t words = 0, split = 0;
};
WordSplits word_splits(std::string_view line);

class SourceProfile {
 public:
  static constexpr std::array<std::size_t, 3> kMaxEntries = {1024, 4096, 4096};  // unigrams, bigrams, trigrams
  static constexpr char32_t kStart = 0x02, kEnd = 0x03;  // the marks around a line

  SourceProfile() = default;  // no profile (a model file written before format version 6)
  // From stored tables (orders 1, 2, 3), checked: util::Error naming `path` ("damaged:
  // ...") for a table over its size, keys out of order, a count of 0, a bad figure.
  SourceProfile(std::array<NgramTable, 3> tables, ProfileFigures figures, const std::string& path);

  bool empty() const { return tables_[0].keys.empty(); }
  const NgramTable& table(int order) const { return tables_[static_cast<std::size_t>(order - 1)]; }
  const ProfileFigures& figures() const { return figures_; }
  double training_bits() const { return figures_.bits_per_character; }
  const std::string& training_source() const { return figures_.training_source; }
  // -log2 P3(c | a b).
  double bits(char32_t a, char32_t b, char32_t c) const;

 private:
  struct Context {
    std::uint64_t total = 0;
    std::uint32_t types = 0;
  };
  void index();
  double p1(char32_t c) const;
  double backed_off(int order, std::uint64_t context, std::uint64_t key, double lower) const;

  std::array<NgramTable, 3> tables_;
  std::array<std::unordered_map<std::uint64_t, Context>, 2> contexts_;  // of bigrams, of trigrams
  std::uint64_t characters_ = 0;  // N
  ProfileFigures figures_;
};

// Counts a BPE'd text line by line, then builds its profile.
class ProfileBuilder {
 public:
  void add_line(std::string_view line);
  // `training_source`: the file's name, kept in the profile.
  SourceProfile build(const std::string& training_source) const;

 private:
  std::unordered_map<std::uint64_t, std::uint64_t> trigrams_;
  WordSplits splits_;
};

// The profile of a BPE'd text file (nmt-train's source side), read once.
SourceProfile profile_of_file(const std::string& path);

// `line` (BPE'd pieces or plain text) as the profile reads it: two start marks, its
// characters lowercased (text::lowercase) with every "@@ " join undone (a piece's "@@" before the end of line too),
// the end mark. Invalid UTF-8 reads as U+FFFD.
std::u32string profile_text(std::string_view line);

}  // namespace rnnsearch::data
