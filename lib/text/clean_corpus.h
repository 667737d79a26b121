#pragma once
// Moses' clean-corpus-n.perl, rule for rule, in one streaming pass: reads CORPUS.L1 and
// CORPUS.L2 (or CORPUS.L1.gz, CORPUS.L2.gz when the plain file is absent) in step and
// writes the pairs it keeps to CLEAN.L1 and CLEAN.L2, byte for byte as the script does.
// Each side is cleaned, then the pair judged, the first rule that applies dropping it:
//
//   clean:  lc() both sides (-lc); remove every "|" unless the corpus is factored (its
//           first line has a "|" on either side); runs of Perl \s (Unicode White_Space)
//           become one space, leading and trailing ones go.
//   judge:  empty side            -> kEmpty
//           more than MAX words   -> kTooLong   (words: split on " "; with -ignore-xml,
//           fewer than MIN words  -> kTooShort   tags <\S[^>]*\S> count as spaces)
//           words1/words2 or words2/words1 > ratio (unless -ignore-ratio) -> kRatio
//           a run of more than max_word_length code points, none \s or "|" -> kLongWord
//           and, nmt-clean's own: identical sides (--drop-identical) -> kIdentical
//   keep:   a kept side containing " |" or "||" (a blank factor) is an error, as the
//           script dies there.
//
// Unlike the script, nothing is written on an error: every output goes through
// util::AtomicFileWriter and is committed at the end, so a corpus whose files differ in
// length, has invalid UTF-8 (unless drop_invalid_utf8) or a blank factor leaves no output.
// Pure rule functions are exposed for the tests; the sides they take are valid UTF-8.
#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rnnsearch::util {
class ProgressMeter;
}

namespace rnnsearch::text {

// Why a pair was dropped, in the order the rules are tried (the first that applies counts).
enum class CleanDrop : int { kInvalidUtf8, kEmpty, kTooLong, kTooShort, kRatio, kLongWord, kIdentical };
constexpr std::size_t kCleanDropCount = 7;
// The summary file's keys: "invalid-utf8", "empty", "too-long", "too-short", "ratio",
// "long-word", "identical".
const char* drop_reason_key(CleanDrop reason);

// A further line-aligned file kept in step with the corpus (--aligned IN OUT).
struct AlignedFile {
  std::string input;   // read; must have as many lines as the corpus
  std::string output;  // gets IN's lines of the kept pairs, unchanged
};

struct CleanOptions {
  // The script's positional arguments (no defaults: all are required but RETAINED).
  std::string corpus;           // CORPUS: reads CORPUS.L1 and CORPUS.L2 (or their .gz)
  std::string lang1, lang2;     // L1, L2
  std::string clean;            // CLEAN: writes CLEAN.L1 and CLEAN.L2
  std::size_t min_words = 0;    // MIN: fewer words on either side drops the pair
  std::size_t max_words = 0;    // MAX: more words on either side drops the pair
  std::string retained;         // RETAINED: the 1-based input line numbers kept ("" = none)
  // The script's options.
  double ratio = 9;                     // -ratio: largest words1/words2 and words2/words1 kept
  bool ignore_ratio = false;            // -ignore-ratio
  bool lowercase = false;               // -lc: Perl's lc() on both sides first
  bool ignore_xml = false;              // -ignore-xml: tags are not words
  std::size_t max_word_length = 1000;   // -mwl: longest word (or factor) kept, in code points
  std::string encoding = "utf8";        // -encoding: only UTF-8 is read
  // nmt-clean's own.
  bool drop_identical = false;     // drop pairs whose cleaned sides are equal
  bool drop_invalid_utf8 = false;  // drop pairs with invalid UTF-8 instead of failing
  std::vector<AlignedFile> aligned;
  std::string summary_file;  // "reason<TAB>count" lines ("" = none)

  // Fills the positional fields from CORPUS L1 L2 CLEAN MIN MAX [RETAINED]; throws
  // util::UsageError naming what is missing or malformed.
  void set_arguments(const std::vector<std::string>& arguments);
  // Throws util::UsageError naming the option, its range and the value.
  void validate() const;

  std::string input_path(const std::string& lang) const { return corpus + "." + lang; }
  std::string output_path(const std::string& lang) const { return clean + "." + lang; }
};

// Counts of one run.
struct CleanSummary {
  std::uint64_t read = 0;  // pairs read
  std::uint64_t kept = 0;
  std::array<std::uint64_t, kCleanDropCount> dropped{};  // by CleanDrop

  std::uint64_t dropped_total() const;
  std::uint64_t& operator[](CleanDrop reason) { return dropped[static_cast<std::size_t>(reason)]; }
  std::uint64_t operator[](CleanDrop reason) const { return dropped[static_cast<std::size_t>(reason)]; }
};

// --- The rules, as pure functions -------------------------------------------------------

// Length in bytes of the Perl \s character (Unicode White_Space: \t \n \v \f \r, space,
// U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000) that
// starts at s[i], or 0 when another character starts there. `s` must be valid UTF-8.
std::size_t perl_space_length(std::string_view s, std::size_t i);

// True when the first line of either side has a "|": the corpus is factored.
bool is_factored(std::string_view first1, std::string_view first2);

// One side as the script cleans it, into `out`: "|" removed unless `factored`, runs of \s
// made one space, leading and trailing space removed (lc(), when asked, comes before).
void clean_side(std::string_view line, bool factored, std::string& out);
std::string clean_side(std::string_view line, bool factored);

// The end (one past the ">") of an XML tag as the script's <\S[^>]*\S> matches it at
// cleaned[i], or 0 when none starts there.
std::size_t xml_tag_end(std::string_view cleaned, std::size_t i);
// The script's word_count(): the words of a cleaned side, with -ignore-xml its tags
// counted as spaces (a side of tags alone then has 0 words).
std::size_t count_words(std::string_view cleaned, bool ignore_xml);

// True when `cleaned` has more than `max_length` code points in a row, none a space or "|".
bool has_long_word(std::string_view cleaned, std::size_t max_length);

// True when a cleaned side has " |" or "||": a blank factor.
bool has_blank_factor(std::string_view cleaned);

// Thrown by judge_pair when the length ratio is undefined: a side without words outside
// XML tags (-ignore-xml, MIN 0), where the script dies with "Illegal division by zero".
struct UndefinedRatio : std::runtime_error {
  explicit UndefinedRatio(int side_number);
  int side;  // 1 or 2
};

// The first rule that drops the cleaned pair, or nullopt when it is kept.
std::optional<CleanDrop> judge_pair(std::string_view side1, std::string_view side2, const CleanOptions& cfg);

// --- The streaming driver ----------------------------------------------------------------

// Cleans cfg.corpus into cfg.clean (and the --aligned files), commits every output at the
// end and returns the counts. `progress` (optional) advances once per pair read. Throws
// util::Error naming file and line for unequal line counts, invalid UTF-8 (unless
// cfg.drop_invalid_utf8), a blank factor or an undefined ratio; no output is left then.
CleanSummary clean_corpus(const CleanOptions& cfg, util::ProgressMeter* progress = nullptr);

// The summary file: "read", "kept", "dropped" and each drop_reason_key, with a tab and the
// count, one per line in that order.
std::string summary_table(const CleanSummary& summary);
// The summary for people: a first line with the totals, then one indented line per rule
// with its count and the limit it applied ("off" for rules not asked for).
std::string summary_report(const CleanSummary& summary, const CleanOptions& cfg);

}  // namespace rnnsearch::text
