#include "text/word_counter.h"

#include "util/line_reader.h"

namespace rnnsearch::text {
namespace {

// Length of the line break starting at s[i] under `breaks`, or 0.
std::size_t break_length(std::string_view s, std::size_t i, LineBreaks breaks) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c == '\r' || c == '\n') return 1;
  if (breaks == LineBreaks::kUniversal) return 0;
  if (c == 0x0B || c == 0x0C || c == 0x1C || c == 0x1D || c == 0x1E) return 1;
  if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x85) return 2;
  if (c == 0xE2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80) {
    const unsigned char d = static_cast<unsigned char>(s[i + 2]);
    if (d == 0xA8 || d == 0xA9) return 3;
  }
  return 0;
}

std::string_view strip_cr_lf_space(std::string_view s) {
  const std::size_t begin = s.find_first_not_of("\r\n ");
  if (begin == std::string_view::npos) return {};
  const std::size_t end = s.find_last_not_of("\r\n ");
  return s.substr(begin, end + 1 - begin);
}

}  // namespace

void split_space_words(std::string_view piece, std::vector<std::string_view>& words) {
  words.clear();
  piece = strip_cr_lf_space(piece);
  std::size_t i = 0;
  while (i < piece.size()) {
    std::size_t j = piece.find(' ', i);
    if (j == std::string_view::npos) j = piece.size();
    if (j > i) words.push_back(piece.substr(i, j - i));
    i = j + 1;
  }
}

void WordCounter::add_line(std::string_view line) {
  // Python keeps the break at the end of its line; strip() then drops "\r" but not
  // the other breaks, which stay part of the last word.
  std::size_t start = 0;
  for (std::size_t i = 0; i < line.size();) {
    const std::size_t len = break_length(line, i, breaks_);
    if (len == 0) {
      ++i;
      continue;
    }
    i += len;
    add_piece(line.substr(start, i - start));
    start = i;
  }
  if (start < line.size()) add_piece(line.substr(start));
}

void WordCounter::add_file(const std::string& path, util::InvalidUtf8 invalid, util::ProgressMeter* progress) {
  util::LineReader reader(path, invalid);
  std::string line;
  while (reader.next(line)) {
    add_line(line);
    if (progress) progress->advance();
  }
}

void WordCounter::add_piece(std::string_view piece) {
  split_space_words(piece, words_);
  for (std::string_view word : words_) {
    auto [it, inserted] = index_.try_emplace(std::string(word), counts_.size());
    if (inserted) counts_.push_back({it->first, 0});
    ++counts_[it->second].count;
  }
}

}  // namespace rnnsearch::text
