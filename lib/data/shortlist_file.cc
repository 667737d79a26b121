#include "data/shortlist_file.h"

#include <limits>
#include <string_view>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/number_format.h"

namespace rnnsearch::data {

namespace {

constexpr std::string_view kMagic = "nmt-shortlist";
constexpr std::string_view kVersion = "1";

std::vector<std::string> split_spaces(std::string_view text) {
  std::vector<std::string> parts;
  for (std::size_t begin = 0; begin <= text.size();) {
    std::size_t end = text.find(' ', begin);
    if (end == std::string_view::npos) end = text.size();
    parts.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

std::string header_line(const ShortlistFile& s) {
  return std::string(kMagic) + " " + std::string(kVersion) + " first=" + std::to_string(s.first) +
         " best=" + std::to_string(s.best) + " threshold=" + util::shortest_scientific(s.threshold);
}

void parse_header(const std::string& line, const std::string& path, ShortlistFile& out) {
  const auto fields = split_spaces(line);
  const auto value = [&](std::size_t i, const std::string& key) {
    const auto number = fields.size() == 5 && fields[i].rfind(key + "=", 0) == 0
                            ? util::parse_double(std::string_view(fields[i]).substr(key.size() + 1))
                            : std::nullopt;
    return number.value_or(-1.0);
  };
  // Compared as doubles before the cast: a count beyond int (or NaN) would be undefined
  // behaviour there; NaN fails every comparison, so it is refused too.
  const auto count = [](double number) { return number >= 0.0 && number <= std::numeric_limits<int>::max(); };
  const double first = value(2, "first"), best = value(3, "best");
  out.threshold = value(4, "threshold");
  if (fields.size() != 5 || fields[0] != kMagic || fields[1] != kVersion || !count(first) || !count(best) ||
      !(out.threshold >= 0.0)) {
    throw util::Error(path, 1, "not a shortlist: expected the header '" + std::string(kMagic) + " " +
                                   std::string(kVersion) + " first=N best=K threshold=P' (nmt-shortlist)");
  }
  out.first = static_cast<int>(first);
  out.best = static_cast<int>(best);
}

// "piece<TAB>t1 t2 ..." -> (piece, [t1, t2, ...]); the list must not be empty.
std::pair<std::string, std::vector<std::string>> parse_list(const std::string& line, const util::LineReader& reader) {
  const std::size_t tab = line.find('\t');
  const std::string_view targets =
      tab == std::string::npos ? std::string_view() : std::string_view(line).substr(tab + 1);
  auto pieces = split_spaces(targets);
  bool bad = tab == std::string::npos || line.find('\t', tab + 1) != std::string::npos;
  for (const auto& piece : pieces) bad = bad || piece.empty();
  if (bad) {
    throw util::Error(reader.name(), reader.line_number(),
                      "expected 'SOURCE_PIECE<TAB>TARGET_PIECE TARGET_PIECE ...' (single spaces)");
  }
  return {line.substr(0, tab), std::move(pieces)};
}

}  // namespace

void write_shortlist(const std::string& path, const ShortlistFile& shortlist) {
  util::AtomicFileWriter writer(path);
  writer.write_line(header_line(shortlist));
  const auto write_list = [&](const std::string& source, const std::vector<std::string>& targets) {
    std::string line = source + "\t";
    for (std::size_t i = 0; i < targets.size(); ++i) line += (i ? " " : "") + targets[i];
    writer.write_line(line);
  };
  if (!shortlist.always.empty()) write_list("", shortlist.always);
  for (const auto& [source, targets] : shortlist.lists) write_list(source, targets);
  writer.commit();
}

ShortlistFile read_shortlist(const std::string& path) {
  util::LineReader reader(path);
  std::string line;
  ShortlistFile out;
  if (!reader.next(line)) throw util::Error(path, 1, "is empty: expected a shortlist (nmt-shortlist)");
  parse_header(line, path, out);
  while (reader.next(line)) {
    auto [source, targets] = parse_list(line, reader);
    if (source.empty()) {
      if (reader.line_number() != 2) {
        throw util::Error(path, reader.line_number(), "the always-allowed pieces (empty source) belong on line 2");
      }
      out.always = std::move(targets);
      continue;
    }
    if (!out.lists.empty() && !(out.lists.back().first < source)) {
      throw util::Error(path, reader.line_number(), "source piece '" + source + "' out of byte order or repeated");
    }
    out.lists.emplace_back(std::move(source), std::move(targets));
  }
  return out;
}

}  // namespace rnnsearch::data
