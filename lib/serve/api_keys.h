#pragma once
// nmt-serve --api-keys FILE: one key a line (blank lines and lines starting with '#'
// ignored, spaces around a key trimmed). A request names its key as LibreTranslate's
// clients do, in the field "api_key" of a JSON or form body or of the query string
// (/translate?api_key=KEY, which a WebSocket client can send too), or in an
// "Authorization: Bearer KEY" header. Without the option every request is let in.
#include <string>
#include <unordered_set>

namespace rnnsearch::serve {

class ApiKeys {
 public:
  ApiKeys() = default;  // no keys: every request is allowed
  // Reads the file; util::Error naming it when it cannot be read or holds no key.
  static ApiKeys from_file(const std::string& path);

  bool required() const { return !keys_.empty(); }
  bool accepts(const std::string& key) const { return keys_.count(key) != 0; }
  // The key of an "Authorization" header's value "Bearer KEY", or "".
  static std::string bearer_key(const std::string& authorization);

 private:
  std::unordered_set<std::string> keys_;
};

}  // namespace rnnsearch::serve
