#pragma once
// Applying BPE merges to tokenized text exactly as subword-nmt's apply_bpe.py (commit
// 92d6139): each space-separated word is split into characters ("</w>" on the last),
// the lowest-ranked merge present is applied everywhere in the word, left to right,
// until none applies; all pieces but a word's last carry the separator ("@@").
// Leading and trailing spaces of a line are kept. Tab-separated fields (nmt-decode
// --constraints' "SOURCE<TAB>TERM..." lines) are segmented each on its own, the tabs kept
// where they are (apply_bpe.py takes a tab for a character of the word it is in; a line
// without a tab gets its bytes as before). A "\r" inside a line is an ordinary
// character of the word it is in, so a line in gives one line out (a tool never changes
// the number of lines); apply_bpe.py, reading with Python's universal newlines, breaks
// the line there instead. A CRLF line end never gets here: util::LineReader strips it.
//
// Vocabulary filter (--vocabulary): a piece that is not in the vocabulary (with the
// separator appended unless it ends the word) is split back by reversing its merge,
// recursively, until every part is known or a single character. An empty vocabulary
// filters nothing (as in apply_bpe).
//
// Glossaries: words equal to a glossary are never split, and a glossary inside a word is
// cut out as its own piece. Difference: subword-nmt reads glossaries as Python regular
// expressions; here they are literal strings. The text after a word's last glossary is
// segmented as usual ("USAxyz" with glossary "USA" gives "USA@@ xyz" pieces).
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "text/bpe_codes.h"
#include "text/bpe_word_cache.h"

namespace rnnsearch::text {

struct BpeApplyOptions {
  std::string separator = "@@";
  std::unordered_map<std::string, std::int64_t> vocabulary;  // token -> count; empty = no filter
  std::int64_t vocabulary_threshold = 0;  // tokens with a lower count count as unknown
  std::vector<std::string> glossaries;    // literal words kept whole; none may be empty

  // What nmt-bpe apply reads and writes (text/bpe_files.h); BpeApplier uses none of it.
  std::string codes;             // codes file from nmt-bpe learn or subword-nmt (required)
  std::string input = "-";       // tokenized text; "-" = stdin
  std::string output = "-";      // "-" = stdout
  int merges = -1;               // use only the first N merges; -1 = all
  std::string vocabulary_file;   // read into `vocabulary` when given
  int num_workers = 0;           // threads when above 0, instead of the pipeline's

  // Throws util::UsageError naming the option, its range and the value received.
  void validate() const;
};

class BpeApplier {
 public:
  // Throws util::Error for an empty glossary.
  BpeApplier(BpeCodes codes, BpeApplyOptions options = {});
  ~BpeApplier();
  BpeApplier(const BpeApplier&) = delete;
  BpeApplier& operator=(const BpeApplier&) = delete;

  // One line without its "\n", valid UTF-8 (as util::LineReader returns it); each of its
  // tab-separated fields is segmented on its own and the tabs kept. Const and thread-safe
  // (see BpeWordCache).
  std::string apply(std::string_view line) const;
  // The same, appended to `out` (reuse one buffer across lines to save allocations).
  void apply(std::string_view line, std::string& out) const;
  // The pieces of one word (no spaces), without separators.
  std::vector<std::string> segment_word(std::string_view word) const;

 private:
  struct Merge {
    std::uint64_t pair;  // left id << 32 | right id; kNoPair in an empty slot
    int rank;
    std::int32_t result;
  };
  struct Symbol {
    std::int32_t id;           // -1: no merge can involve it
    std::uint32_t begin, end;  // bytes of the word it covers
    const Merge* next;         // the merge with the symbol after it, or null
  };
  static constexpr const Merge* kNoMerge = nullptr;

  std::int32_t intern(const std::string& s);
  void add_merge(std::uint64_t pair, int rank, std::int32_t result);
  std::int32_t lookup(std::string_view s) const;
  const Merge* find_merge(std::int32_t a, std::int32_t b) const;
  void apply_field(std::string_view field, std::string& out) const;
  void append_word(std::string_view word, std::string& out) const;
  void encode(std::string_view segment, std::vector<std::string>& pieces) const;
  void check_vocabulary(std::vector<std::string>& pieces) const;
  void recursive_split(const std::string& segment, bool final, std::vector<std::string>& out) const;
  bool in_vocabulary(const std::string& token) const { return vocabulary_.count(token) != 0; }

  int version_minor_;
  std::string separator_;
  std::unordered_map<std::string, std::int32_t> ids_;
  std::vector<Merge> merges_;  // open addressing, power-of-two size, at most half full
  std::unordered_map<std::string, std::pair<std::string, std::string>> reverse_;  // lowest rank
  std::unordered_set<std::string> vocabulary_;
  std::vector<std::string> glossaries_;
  std::int32_t end_of_word_id_ = -1;
  std::int32_t ascii_ids_[0x80];        // id of each ASCII character, -1 when unknown
  std::int32_t ascii_final_ids_[0x80];  // the same with "</w>" appended
  mutable BpeWordCache cache_;
};

}  // namespace rnnsearch::text
