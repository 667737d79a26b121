#include "support/golden_cases.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "text/whitespace.h"

namespace rnnsearch::testing {
namespace {

// cases.tsv escaping: \\ \n \t \r.
std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    out += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
  }
  return out;
}

}  // namespace

std::vector<std::string> split(const std::string& s, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!s.empty() && s.back() == separator) parts.emplace_back();
  return parts;
}

std::vector<GoldenCase> read_golden_cases(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string line;
  std::getline(in, line);  // header
  std::vector<GoldenCase> cases;
  while (std::getline(in, line)) {
    const auto f = split(line, '\t');
    if (f.size() != 8) throw std::runtime_error("malformed row in " + path + ": " + line);
    cases.push_back({f[0], f[1], split(f[2], ','), f[3], std::stoi(f[4]), unescape(f[5]), f[6]});
  }
  return cases;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> read_stripped_lines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.emplace_back(text::rstrip(line));
  return lines;
}

bool has_option(const std::string& options, const std::string& flag) {
  std::istringstream in(options);
  std::string word;
  while (in >> word) {
    if (word == flag) return true;
  }
  return false;
}

int option_value(const std::string& options, const std::string& flag, int fallback) {
  std::istringstream in(options);
  std::string word;
  while (in >> word) {
    if (word == flag && in >> word) return std::stoi(word);
  }
  return fallback;
}

}  // namespace rnnsearch::testing
