#pragma once
// A request the server refuses: the HTTP status and a one-line message, thrown by the
// request readers and turned into the API's error reply ({"error": message}). A message
// often repeats what the request sent ("'format' \"x\" is not supported"): its control
// characters are written as escapes (\n, \r, \t, \x1b), so it stays one line.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rnnsearch::serve {

class RequestError : public std::runtime_error {
 public:
  RequestError(int status, const std::string& message,
               std::vector<std::pair<std::string, std::string>> headers = {})
      : std::runtime_error(one_line(message)), status_(status), headers_(std::move(headers)) {}
  int status() const { return status_; }
  const std::vector<std::pair<std::string, std::string>>& headers() const { return headers_; }

 private:
  static std::string one_line(const std::string& message) {
    static const char hex[] = "0123456789abcdef";
    std::string out;
    for (const char c : message) {
      const auto byte = static_cast<unsigned char>(c);
      if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else if (byte < 0x20 || byte == 0x7f) {
        out += std::string("\\x") + hex[byte >> 4] + hex[byte & 15];
      } else {
        out += c;
      }
    }
    return out;
  }

  int status_;
  std::vector<std::pair<std::string, std::string>> headers_;  // Retry-After, Allow, ...
};

}  // namespace rnnsearch::serve
