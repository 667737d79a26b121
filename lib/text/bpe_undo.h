#pragma once
// Joining BPE pieces back into words: removes every "separator + space" and a separator
// (with or without one space) at the end of the line, as sed -r 's/(@@ )|(@@ ?$)//g'.
#include <string>
#include <string_view>

namespace rnnsearch::text {

std::string undo_bpe(std::string_view line, std::string_view separator = "@@");

}  // namespace rnnsearch::text
