#include "util/temp_name.h"

#include <unistd.h>

#include <cctype>
#include <filesystem>

#include "util/error.h"

namespace rnnsearch::util {

namespace {

constexpr std::size_t kRandomCharacters = 6;  // mkstemp's XXXXXX
constexpr std::size_t kLongestPid = 10;       // digits of the largest pid_t

std::string directory_of(const std::filesystem::path& path) {
  return path.has_parent_path() ? path.parent_path().string() : std::string(".");
}

// `text` cut to at most `bytes`, never inside a UTF-8 character.
std::string cut_utf8(const std::string& text, std::size_t bytes) {
  if (text.size() <= bytes) return text;
  std::size_t end = bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

bool all_digits(const std::string& text, std::size_t from, std::size_t to) {
  if (from >= to) return false;
  for (std::size_t i = from; i < to; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

}  // namespace

std::size_t file_name_limit(const std::string& directory) {
  const long limit = ::pathconf(directory.c_str(), _PC_NAME_MAX);
  return limit > 0 ? static_cast<std::size_t>(limit) : 255;
}

std::string temp_path_template(const std::string& target, long pid) {
  const std::filesystem::path path(target);
  const std::string name = path.filename().string();
  const std::string suffix = ".tmp." + std::to_string(pid) + "." + std::string(kRandomCharacters, 'X');
  const std::size_t limit = file_name_limit(directory_of(path));
  const std::size_t room = limit > suffix.size() + 1 ? limit - suffix.size() - 1 : 0;
  const std::string temp = "." + cut_utf8(name, room) + suffix;
  return path.has_parent_path() ? (path.parent_path() / temp).string() : temp;
}

std::optional<TempName> parse_temp_name(const std::string& entry, std::size_t limit) {
  // From the end: ".tmp." PID "." and six characters of [A-Za-z0-9].
  const std::size_t size = entry.size();
  if (size < kRandomCharacters + 8) return std::nullopt;
  for (std::size_t i = size - kRandomCharacters; i < size; ++i) {
    if (!std::isalnum(static_cast<unsigned char>(entry[i]))) return std::nullopt;
  }
  const std::size_t dot = size - kRandomCharacters - 1;
  if (entry[dot] != '.') return std::nullopt;
  const std::size_t tmp = entry.rfind(".tmp.", dot - 1);
  if (tmp == std::string::npos || dot - (tmp + 5) > kLongestPid || !all_digits(entry, tmp + 5, dot)) return std::nullopt;
  const bool hidden = entry[0] == '.';
  TempName name;
  name.base = entry.substr(hidden ? 1 : 0, tmp - (hidden ? 1 : 0));
  if (name.base.empty()) return std::nullopt;
  name.pid = std::stol(entry.substr(tmp + 5, dot - tmp - 5));
  // cut_utf8 backs up at most three bytes from the limit.
  name.cut = hidden && size + 3 >= limit;
  return name;
}

void check_file_name_fits(const std::string& path) {
  const std::filesystem::path target(path);
  const std::size_t bytes = target.filename().string().size();
  const std::size_t limit = file_name_limit(directory_of(target));
  if (bytes > limit) {
    throw Error(path, "file name of " + std::to_string(bytes) + " bytes, longer than the " + std::to_string(limit) +
                          " this file system takes");
  }
}

}  // namespace rnnsearch::util
