#pragma once
// The message of the util::Error (or util::UsageError) a call throws, or "no error": tests
// compare messages.
#include <functional>
#include <string>

namespace rnnsearch::testing {

std::string error_message(const std::function<void()>& call);
// The message of the util::UsageError a call throws (a bad option), or "no error".
std::string usage_message(const std::function<void()>& call);

}  // namespace rnnsearch::testing
