#include "text/clean_corpus.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <sstream>

#include "text/unicode.h"
#include "text/whitespace.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/gunzip_pipe.h"
#include "util/line_reader.h"
#include "util/number_format.h"
#include "util/option_range.h"
#include "util/progress_meter.h"
#include "util/distinct_outputs.h"
#include "util/utf8.h"

namespace rnnsearch::text {
namespace {

constexpr std::size_t kMaxWordsLimit = 1000000000;  // MIN and MAX
constexpr std::size_t kMaxWordLengthLimit = 1000000000;
constexpr double kMaxRatio = 1000000;

constexpr std::array<const char*, kCleanDropCount> kDropKeys = {"invalid-utf8", "empty",     "too-long", "too-short",
                                                                "ratio",        "long-word", "identical"};

// A whole number of words for MIN or MAX.
std::size_t parse_count(const std::string& name, const std::string& text) {
  const bool digits = !text.empty() && text.size() <= 10 &&
                      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits || std::stoull(text) > kMaxWordsLimit) {
    throw util::UsageError(name + " must be a whole number of words in [0, " + std::to_string(kMaxWordsLimit) +
                           "], got '" + text + "'");
  }
  return static_cast<std::size_t>(std::stoull(text));
}

bool exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;  // Perl's -e: follows symlinks
}

// One side of the corpus: CORPUS.L, or CORPUS.L.gz through gzip when the plain file is absent.
class CorpusInput {
 public:
  explicit CorpusInput(const std::string& path) {
    if (exists(path) || !exists(path + ".gz")) {
      reader_ = std::make_unique<util::LineReader>(path, util::InvalidUtf8::kKeep);
    } else {
      gunzip_ = std::make_unique<util::GunzipPipe>(path + ".gz");
      reader_ = std::make_unique<util::LineReader>(gunzip_->fd(), path + ".gz", util::InvalidUtf8::kKeep);
    }
  }
  util::LineReader& reader() { return *reader_; }
  // Throws gzip's failure, if any (after reading to the end, or when the lines ran short).
  void finish() {
    if (gunzip_) gunzip_->finish();
  }

 private:
  std::unique_ptr<util::GunzipPipe> gunzip_;
  std::unique_ptr<util::LineReader> reader_;
};

// Throws the invalid-UTF-8 error of `line` of `reader`, if it has one; true when it has one
// and the pair is to be dropped instead.
bool invalid_utf8(std::string_view line, const util::LineReader& reader, bool drop) {
  const std::size_t bad = util::find_invalid_utf8(line);
  if (bad == std::string_view::npos) return false;
  if (drop) return true;
  throw util::Error(reader.name(), reader.line_number(),
                    "invalid UTF-8 at byte " + std::to_string(bad + 1) + " (--drop-invalid-utf8 drops such pairs)");
}

// Reads what is left of `reader` and returns its line count.
std::size_t count_to_end(util::LineReader& reader) {
  std::string rest;
  while (reader.next(rest)) {
  }
  return reader.line_number();
}

}  // namespace

const char* drop_reason_key(CleanDrop reason) { return kDropKeys[static_cast<std::size_t>(reason)]; }

void CleanOptions::set_arguments(const std::vector<std::string>& arguments) {
  if (arguments.size() < 6 || arguments.size() > 7) {
    throw util::UsageError("expected CORPUS L1 L2 CLEAN MIN MAX [RETAINED], got " + std::to_string(arguments.size()) +
                           " argument" + (arguments.size() == 1 ? "" : "s"));
  }
  const char* names[] = {"CORPUS", "L1", "L2", "CLEAN"};
  for (int i = 0; i < 4; ++i) {
    if (arguments[i].empty()) throw util::UsageError(std::string(names[i]) + " must not be empty");
  }
  corpus = arguments[0];
  lang1 = arguments[1];
  lang2 = arguments[2];
  clean = arguments[3];
  min_words = parse_count("MIN", arguments[4]);
  max_words = parse_count("MAX", arguments[5]);
  retained = arguments.size() == 7 ? arguments[6] : "";
}

void CleanOptions::validate() const {
  if (lang1 == lang2) throw util::UsageError("L1 and L2 must differ, got '" + lang1 + "' twice");
  if (min_words > max_words) {
    throw util::UsageError("MIN must not exceed MAX, got " + std::to_string(min_words) + " > " +
                           std::to_string(max_words));
  }
  util::check_range("ratio", ratio, 1.0, kMaxRatio);
  util::check_range("max-word-length", max_word_length, std::size_t{0}, kMaxWordLengthLimit);
  std::string lowered = encoding;
  for (char& c : lowered) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lowered != "utf8" && lowered != "utf-8") {
    throw util::UsageError("--encoding must be utf8, got '" + encoding + "' (convert the corpus with iconv first)");
  }
  std::vector<util::NamedOutput> outputs = {{"CLEAN.L1", output_path(lang1)}, {"CLEAN.L2", output_path(lang2)},
                                            {"RETAINED", retained}};
  for (const auto& file : aligned) {
    if (file.input.empty() || file.output.empty()) throw util::UsageError("--aligned needs two file names, IN and OUT");
    outputs.push_back({"--aligned output", file.output});
  }
  outputs.push_back({"--summary-file", summary_file});
  util::check_distinct_outputs(outputs);
}

std::uint64_t CleanSummary::dropped_total() const {
  std::uint64_t total = 0;
  for (const auto n : dropped) total += n;
  return total;
}

std::size_t perl_space_length(std::string_view s, std::size_t i) {
  // Perl's \s is Python's isspace() set (text/whitespace.h) without U+001C-U+001F; ASCII
  // is decided here, as most characters are (this runs once per character of the corpus).
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return c == ' ' || (c >= 0x09 && c <= 0x0D) ? 1 : 0;
  return white_space_length(s, i);
}

bool is_factored(std::string_view first1, std::string_view first2) {
  return first1.find('|') != std::string_view::npos || first2.find('|') != std::string_view::npos;
}

void clean_side(std::string_view line, bool factored, std::string& out) {
  out.clear();
  bool space = false;  // a run of \s since the last character kept
  const std::size_t n = line.size();
  for (std::size_t i = 0; i < n;) {
    const std::size_t white = perl_space_length(line, i);
    if (white > 0) {
      space = true;
      i += white;
      continue;
    }
    if (line[i] == '|' && !factored) {  // removed before the spaces are squeezed: "a | b" is "a b"
      ++i;
      continue;
    }
    const std::size_t length = std::min(util::sequence_length(static_cast<unsigned char>(line[i])), n - i);
    if (space && !out.empty()) out += ' ';
    space = false;
    out.append(line.data() + i, length);
    i += length;
  }
}

std::string clean_side(std::string_view line, bool factored) {
  std::string out;
  clean_side(line, factored, out);
  return out;
}

std::size_t xml_tag_end(std::string_view s, std::size_t i) {
  // <\S[^>]*\S> on a cleaned side (its only \s is " "): [^>]* runs to the first ">" at
  // i + 2 or later; backtracking then lets the last \S be that ">" when another ">"
  // follows it, else the character before it, which must not be a space.
  if (i + 2 >= s.size() || s[i] != '<' || s[i + 1] == ' ') return 0;
  const std::size_t close = s.find('>', i + 2);
  if (close == std::string_view::npos) return 0;
  if (close + 1 < s.size() && s[close + 1] == '>') return close + 2;
  if (close >= i + 3 && s[close - 1] != ' ') return close + 1;
  return 0;
}

std::size_t count_words(std::string_view s, bool ignore_xml) {
  if (!ignore_xml) return s.empty() ? 0 : static_cast<std::size_t>(std::count(s.begin(), s.end(), ' ')) + 1;
  std::size_t words = 0;
  bool in_word = false;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '<') {
      const std::size_t end = xml_tag_end(s, i);
      if (end > 0) {  // the tag becomes a space
        in_word = false;
        i = end;
        continue;
      }
    }
    if (s[i] == ' ') {
      in_word = false;
    } else if (!in_word) {
      in_word = true;
      ++words;
    }
    ++i;
  }
  return words;
}

bool has_long_word(std::string_view s, std::size_t max_length) {
  std::size_t run = 0;
  for (const char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == ' ' || c == '|') {
      run = 0;
    } else if ((c & 0xC0) != 0x80 && ++run > max_length) {  // a continuation byte adds no code point
      return true;
    }
  }
  return false;
}

bool has_blank_factor(std::string_view s) {
  return s.find(" |") != std::string_view::npos || s.find("||") != std::string_view::npos;
}

UndefinedRatio::UndefinedRatio(int side_number)
    : std::runtime_error("no words outside XML tags, so the length ratio is undefined"), side(side_number) {}

std::optional<CleanDrop> judge_pair(std::string_view side1, std::string_view side2, const CleanOptions& cfg) {
  if (side1.empty() || side2.empty()) return CleanDrop::kEmpty;
  const std::size_t words1 = count_words(side1, cfg.ignore_xml), words2 = count_words(side2, cfg.ignore_xml);
  if (words1 > cfg.max_words || words2 > cfg.max_words) return CleanDrop::kTooLong;
  if (words1 < cfg.min_words || words2 < cfg.min_words) return CleanDrop::kTooShort;
  if (!cfg.ignore_ratio) {  // the script divides words2/words1 first, then words1/words2
    if (words1 == 0) throw UndefinedRatio(1);
    if (static_cast<double>(words2) / static_cast<double>(words1) > cfg.ratio) return CleanDrop::kRatio;
    if (words2 == 0) throw UndefinedRatio(2);
    if (static_cast<double>(words1) / static_cast<double>(words2) > cfg.ratio) return CleanDrop::kRatio;
  }
  if (has_long_word(side2, cfg.max_word_length) || has_long_word(side1, cfg.max_word_length)) {
    return CleanDrop::kLongWord;
  }
  if (cfg.drop_identical && side1 == side2) return CleanDrop::kIdentical;
  return std::nullopt;
}

namespace {

// The --aligned input files, read in step with the corpus.
class AlignedInputs {
 public:
  explicit AlignedInputs(const std::vector<AlignedFile>& files) : lines_(files.size()) {
    for (const auto& file : files) {
      readers_.push_back(std::make_unique<util::LineReader>(file.input, util::InvalidUtf8::kKeep));
      readers_.back()->keep_carriage_returns();  // passed on byte for byte
    }
  }
  // The next line of every file; throws when one ends before `corpus`, which has a line.
  void next(util::LineReader& corpus) {
    for (std::size_t k = 0; k < readers_.size(); ++k) {
      if (!readers_[k]->next(lines_[k])) {
        util::throw_line_count_mismatch(readers_[k]->name(), readers_[k]->line_number(), corpus.name(),
                                        count_to_end(corpus));
      }
    }
  }
  const std::vector<std::string>& lines() const { return lines_; }
  // Throws when a file has lines left after `corpus` ended.
  void check_ended(const util::LineReader& corpus) {
    for (auto& reader : readers_) {
      std::string extra;
      if (reader->next(extra)) {
        util::throw_line_count_mismatch(corpus.name(), corpus.line_number(), reader->name(), count_to_end(*reader));
      }
    }
  }

 private:
  std::vector<std::unique_ptr<util::LineReader>> readers_;
  std::vector<std::string> lines_;
};

// Every file clean_corpus writes but the summary, each atomically, committed together.
class CleanOutputs {
 public:
  explicit CleanOutputs(const CleanOptions& cfg)
      : side1_(cfg.output_path(cfg.lang1)), side2_(cfg.output_path(cfg.lang2)) {
    if (!cfg.retained.empty()) retained_ = std::make_unique<util::AtomicFileWriter>(cfg.retained);
    for (const auto& file : cfg.aligned) aligned_.push_back(std::make_unique<util::AtomicFileWriter>(file.output));
  }
  // A kept pair: its cleaned sides, its line number and the --aligned files' lines.
  void write(const std::string& side1, const std::string& side2, std::size_t line_number,
             const std::vector<std::string>& aligned_lines) {
    side1_.write_line(side1);
    side2_.write_line(side2);
    if (retained_) retained_->write_line(std::to_string(line_number));
    for (std::size_t k = 0; k < aligned_.size(); ++k) aligned_[k]->write_line(aligned_lines[k]);
  }
  // With the summary file, when there is one: a failure to write any leaves none.
  void commit(util::AtomicFileWriter* summary) {
    std::vector<util::AtomicFileWriter*> all = {&side1_, &side2_};
    if (retained_) all.push_back(retained_.get());
    for (auto& output : aligned_) all.push_back(output.get());
    if (summary) all.push_back(summary);
    util::commit_together(all);
  }

 private:
  util::AtomicFileWriter side1_, side2_;
  std::unique_ptr<util::AtomicFileWriter> retained_;
  std::vector<std::unique_ptr<util::AtomicFileWriter>> aligned_;
};

// The next pair of lines; false at the end of both sides.
bool next_pair(CorpusInput& input1, CorpusInput& input2, std::string& line1, std::string& line2) {
  try {
    return util::next_in_step(input1.reader(), line1, input2.reader(), line2);
  } catch (const util::Error&) {
    input1.finish();  // a gzip failure explains short input better than the line counts
    input2.finish();
    throw;
  }
}

// One pair's sides as the rules see them: lowercased when asked, then cleaned.
struct CleanedPair {
  std::string lowered1, lowered2, side1, side2;

  void clean(const std::string& line1, const std::string& line2, bool factored, bool lowercase) {
    if (lowercase) {
      lowered1 = perl_lowercase(line1);
      lowered2 = perl_lowercase(line2);
      clean_side(lowered1, factored, side1);
      clean_side(lowered2, factored, side2);
    } else {
      clean_side(line1, factored, side1);
      clean_side(line2, factored, side2);
    }
  }
};

// judge_pair, with an undefined ratio reported at its file and line.
std::optional<CleanDrop> judge_line(const CleanedPair& pair, const CleanOptions& cfg, const util::LineReader& reader1,
                                    const util::LineReader& reader2, std::size_t line_number) {
  try {
    return judge_pair(pair.side1, pair.side2, cfg);
  } catch (const UndefinedRatio& e) {
    throw util::Error(e.side == 1 ? reader1.name() : reader2.name(), line_number,
                      std::string(e.what()) + " (clean-corpus-n.perl dies here too); use MIN 1 or -ignore-ratio");
  }
}

void check_blank_factors(const CleanedPair& pair, const util::LineReader& reader1, const util::LineReader& reader2,
                         std::size_t line_number) {
  const std::string blank = "a blank factor (\" |\" or \"||\"): ";
  if (has_blank_factor(pair.side1)) throw util::Error(reader1.name(), line_number, blank + pair.side1);
  if (has_blank_factor(pair.side2)) throw util::Error(reader2.name(), line_number, blank + pair.side2);
}

}  // namespace

CleanSummary clean_corpus(const CleanOptions& cfg, util::ProgressMeter* progress) {
  cfg.validate();
  CorpusInput input1(cfg.input_path(cfg.lang1)), input2(cfg.input_path(cfg.lang2));
  util::LineReader& reader1 = input1.reader();
  util::LineReader& reader2 = input2.reader();
  AlignedInputs aligned(cfg.aligned);
  CleanOutputs outputs(cfg);

  CleanSummary summary;
  bool factored = false;
  std::string line1, line2;
  CleanedPair pair;
  while (next_pair(input1, input2, line1, line2)) {
    const std::size_t line_number = reader1.line_number();
    aligned.next(reader1);
    ++summary.read;
    if (progress) progress->advance();
    if (line_number == 1) factored = is_factored(line1, line2);
    if (invalid_utf8(line1, reader1, cfg.drop_invalid_utf8) || invalid_utf8(line2, reader2, cfg.drop_invalid_utf8)) {
      ++summary[CleanDrop::kInvalidUtf8];
      continue;
    }
    pair.clean(line1, line2, factored, cfg.lowercase);
    if (const std::optional<CleanDrop> drop = judge_line(pair, cfg, reader1, reader2, line_number)) {
      ++summary[*drop];
      continue;
    }
    check_blank_factors(pair, reader1, reader2, line_number);
    ++summary.kept;
    outputs.write(pair.side1, pair.side2, line_number, aligned.lines());
  }
  input1.finish();
  input2.finish();
  aligned.check_ended(reader1);
  std::unique_ptr<util::AtomicFileWriter> summary_output;
  if (!cfg.summary_file.empty()) {
    summary_output = std::make_unique<util::AtomicFileWriter>(cfg.summary_file);
    summary_output->write(summary_table(summary));
  }
  outputs.commit(summary_output.get());
  return summary;
}

std::string summary_table(const CleanSummary& summary) {
  std::ostringstream out;
  out << "read\t" << summary.read << "\nkept\t" << summary.kept << "\ndropped\t" << summary.dropped_total() << "\n";
  for (std::size_t i = 0; i < kCleanDropCount; ++i) out << kDropKeys[i] << "\t" << summary.dropped[i] << "\n";
  return out.str();
}

std::string summary_report(const CleanSummary& summary, const CleanOptions& cfg) {
  const std::string limits[kCleanDropCount] = {
      cfg.drop_invalid_utf8 ? "" : "off: an error",
      "a side without words",
      "more than " + std::to_string(cfg.max_words) + " words",
      "fewer than " + std::to_string(cfg.min_words) + " words",
      cfg.ignore_ratio ? "off" : "one side more than " + util::general(cfg.ratio) + " times as long",
      "a word of more than " + std::to_string(cfg.max_word_length) + " characters",
      cfg.drop_identical ? "the two sides equal" : "off"};
  const char* names[kCleanDropCount] = {"invalid UTF-8", "empty", "too long", "too short", "ratio", "long word",
                                        "identical"};
  std::ostringstream out;
  out << summary.read << " pairs read, " << summary.kept << " kept, " << summary.dropped_total() << " dropped\n";
  const std::string width = std::to_string(summary.read);
  for (std::size_t i = 0; i < kCleanDropCount; ++i) {
    std::string count = std::to_string(summary.dropped[i]);
    count.insert(0, width.size() > count.size() ? width.size() - count.size() : 0, ' ');
    std::string name = names[i];
    name.resize(14, ' ');
    out << "  " << name << count;
    if (!limits[i].empty()) out << "  (" << limits[i] << ")";
    out << "\n";
  }
  return out.str();
}

}  // namespace rnnsearch::text
