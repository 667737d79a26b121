#pragma once
// Moses' normalize-punctuation.perl -l LANGUAGE (snapshot 3a0631a, as Multi30k ran it):
// spacing around brackets and colons, typographic quotes and dashes to ASCII, French
// quotes and non-breaking-space pseudo-spaces, the language's quote-comma order and
// the digit group separator. The script reads bytes, not characters, and so does this:
// its [a-z] and \d are ASCII only.
#include <string>
#include <string_view>

namespace rnnsearch::text {

// One line without its newline. The script's rules see the newline: "x." at the end of
// a line becomes "x". for languages other than en and cs, and that is kept here.
std::string normalize_punctuation(std::string_view line, const std::string& language);

}  // namespace rnnsearch::text
