#pragma once
// The project's built-in nonbreaking prefix lists, in the Moses file format.
#include <string>
#include <string_view>

namespace rnnsearch::text {

// The list for "en", "de", "fr" or "cs"; none for "xa" and "xb" (text/languages.h); the
// English list for any other language.
std::string_view built_in_prefix_list(const std::string& language);

}  // namespace rnnsearch::text
