#include "support/error_message.h"

#include "util/error.h"

namespace rnnsearch::testing {

std::string error_message(const std::function<void()>& call) {
  try {
    call();
  } catch (const util::Error& e) {
    return e.what();
  }
  return "no error";
}

std::string usage_message(const std::function<void()>& call) {
  try {
    call();
  } catch (const util::UsageError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace rnnsearch::testing
