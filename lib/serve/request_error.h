#pragma once
// A request the server refuses: the HTTP status and a one-line message, thrown by the
// request readers and turned into the API's error reply ({"error": message}).
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rnnsearch::serve {

class RequestError : public std::runtime_error {
 public:
  RequestError(int status, const std::string& message,
               std::vector<std::pair<std::string, std::string>> headers = {})
      : std::runtime_error(message), status_(status), headers_(std::move(headers)) {}
  int status() const { return status_; }
  const std::vector<std::pair<std::string, std::string>>& headers() const { return headers_; }

 private:
  int status_;
  std::vector<std::pair<std::string, std::string>> headers_;  // Retry-After, Allow, ...
};

}  // namespace rnnsearch::serve
