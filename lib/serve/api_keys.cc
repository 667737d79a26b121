#include "serve/api_keys.h"

#include "util/error.h"
#include "util/read_file.h"

namespace rnnsearch::serve {

namespace {

std::string trimmed(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

}  // namespace

ApiKeys ApiKeys::from_file(const std::string& path) {
  ApiKeys keys;
  const std::string text = util::read_file(path, "API keys");
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    const std::string key = trimmed(text.substr(begin, end - begin));
    if (!key.empty() && key[0] != '#') keys.keys_.insert(key);
    begin = end + 1;
  }
  if (keys.keys_.empty()) throw util::Error(path, "no API key in the file (one a line)");
  return keys;
}

std::string ApiKeys::bearer_key(const std::string& authorization) {
  const std::string prefix = "Bearer ";
  if (authorization.size() <= prefix.size() || authorization.compare(0, prefix.size(), prefix) != 0) return "";
  return trimmed(authorization.substr(prefix.size()));
}

}  // namespace rnnsearch::serve
