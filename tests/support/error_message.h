#pragma once
// The message of the util::Error a call throws, or "no error": tests compare messages.
#include <functional>
#include <string>

namespace rnnsearch::testing {

std::string error_message(const std::function<void()>& call);

}  // namespace rnnsearch::testing
