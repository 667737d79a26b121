#include "text/bpe_codes.h"

#include <ostream>

#include "util/error.h"
#include "util/read_file.h"
#include "util/utf8.h"

namespace rnnsearch::text {
namespace {

std::string_view strip_cr_lf_space(std::string_view s) {
  const std::size_t begin = s.find_first_not_of("\r\n ");
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of("\r\n ") + 1 - begin);
}

// "0.2" -> 2 after dropping trailing ".0" groups, as apply_bpe reads the version.
int parse_version(std::string_view header, const std::string& name) {
  std::string_view value = header.substr(header.find_last_of(" \t") == std::string_view::npos
                                             ? std::string_view("#version:").size()
                                             : header.find_last_of(" \t") + 1);
  while (value.size() >= 2 && value.substr(value.size() - 2) == ".0") value.remove_suffix(2);
  if (value == "0.2") return 2;
  if (value == "0.1") return 1;
  throw util::Error(name, 1, "unsupported BPE codes version \"" + std::string(value) +
                                 "\" (this build reads 0.1 and 0.2; byte-level codes are not supported)");
}

}  // namespace

BpeCodes parse_bpe_codes(std::string_view text, const std::string& name) {
  BpeCodes codes;
  std::size_t line_number = 0;
  std::size_t pos = 0;
  if (text.substr(0, 9) == "#version:") {
    std::size_t end = text.find('\n');
    if (end == std::string_view::npos) end = text.size();
    codes.version_minor = parse_version(strip_cr_lf_space(text.substr(0, end)), name);
    pos = end == text.size() ? end : end + 1;
    line_number = 1;
  } else {
    codes.version_minor = 1;
  }
  // apply_bpe drops trailing "\n"s, then every remaining line must hold one merge.
  std::string_view body = text.substr(pos);
  while (!body.empty() && body.back() == '\n') body.remove_suffix(1);
  const std::size_t bad_utf8 = util::find_invalid_utf8(body);
  while (!body.empty()) {
    ++line_number;
    std::size_t end = body.find('\n');
    if (end == std::string_view::npos) end = body.size();
    if (bad_utf8 != std::string_view::npos && body.data() + end > text.data() + pos + bad_utf8) {
      throw util::Error(name, line_number, "invalid UTF-8");
    }
    const std::string_view line = strip_cr_lf_space(body.substr(0, end));
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos || space == 0 || space + 1 == line.size() ||
        line.find(' ', space + 1) != std::string_view::npos) {
      throw util::Error(name, line_number,
                        "expected a merge \"left right\" (two units separated by one space), found \"" +
                            std::string(line) + "\"");
    }
    codes.merges.emplace_back(std::string(line.substr(0, space)), std::string(line.substr(space + 1)));
    body.remove_prefix(end == body.size() ? end : end + 1);
  }
  return codes;
}

BpeCodes read_bpe_codes(const std::string& path) {
  return parse_bpe_codes(util::read_file(path, "the BPE codes file"), path);
}

void write_bpe_codes(std::ostream& out, const BpeCodes& codes) {
  if (codes.version_minor == 2) out << "#version: 0.2\n";
  for (const auto& [left, right] : codes.merges) out << left << ' ' << right << '\n';
}

}  // namespace rnnsearch::text
