#include "text/vocab_counts.h"

#include <algorithm>
#include <ostream>

#include "util/error.h"
#include "util/line_reader.h"
#include "util/option_range.h"

namespace rnnsearch::text {
namespace {

bool parse_count(std::string_view s, std::int64_t& value) {
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  if (i == s.size()) return false;
  value = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    if (value > (INT64_MAX - 9) / 10) return false;
    value = value * 10 + (s[i] - '0');
  }
  if (negative) value = -value;
  return true;
}

}  // namespace

void VocabOptions::validate() const {
  util::check_range<std::int64_t>("min-count", min_count, 0, 1000000000000000000);
}

std::vector<WordCount> sorted_vocab(const std::vector<WordCount>& counts, const VocabOptions& options) {
  std::vector<WordCount> vocab;
  for (const WordCount& wc : counts) {
    if (wc.count >= options.min_count) vocab.push_back(wc);
  }
  std::stable_sort(vocab.begin(), vocab.end(),
                   [](const WordCount& a, const WordCount& b) { return a.count > b.count; });
  if (options.max_size > 0 && vocab.size() > options.max_size) vocab.resize(options.max_size);
  return vocab;
}

std::vector<WordCount> build_vocab(const std::vector<std::string>& paths, const VocabOptions& options,
                                   util::InvalidUtf8 invalid, util::ProgressMeter* progress) {
  options.validate();
  WordCounter counter(LineBreaks::kSplitlines);
  for (const std::string& path : paths) counter.add_file(path, invalid, progress);
  return sorted_vocab(counter.counts(), options);
}

void write_vocab(std::ostream& out, const std::vector<WordCount>& vocab) {
  for (const WordCount& wc : vocab) out << wc.word << ' ' << wc.count << '\n';
}

std::vector<WordCount> read_vocab(const std::string& path) {
  util::LineReader reader(path);
  std::vector<WordCount> vocab;
  std::string line;
  while (reader.next(line)) {
    std::string_view s = line;
    const std::size_t begin = s.find_first_not_of("\r\n ");
    s = begin == std::string_view::npos ? std::string_view() : s.substr(begin, s.find_last_not_of("\r\n ") + 1 - begin);
    const std::size_t space = s.find(' ');
    std::int64_t count = 0;
    if (space == std::string_view::npos || s.find(' ', space + 1) != std::string_view::npos) {
      throw util::Error(reader.name(), reader.line_number(),
                        "expected \"token count\" (two fields separated by one space), found \"" + line + "\"");
    }
    if (!parse_count(s.substr(space + 1), count)) {
      throw util::Error(reader.name(), reader.line_number(),
                        "the count \"" + std::string(s.substr(space + 1)) + "\" is not an integer");
    }
    vocab.push_back({std::string(s.substr(0, space)), count});
  }
  return vocab;
}

std::unordered_map<std::string, std::int64_t> read_vocab_map(const std::string& path) {
  std::unordered_map<std::string, std::int64_t> map;
  for (WordCount& wc : read_vocab(path)) {
    auto [it, inserted] = map.try_emplace(std::move(wc.word), wc.count);
    if (!inserted) it->second = std::max(it->second, wc.count);
  }
  return map;
}

}  // namespace rnnsearch::text
