#include "data/unknown_tokens.h"

#include "util/number_format.h"
#include "util/option_range.h"

namespace rnnsearch::data {

void check_unknown_warning(double share) { util::check_range("unknown-warning", share, 0.0, 1.0); }

std::string UnknownTokens::warning(Side side, double share, const std::string& input) const {
  const std::string name = side == kSource ? "source" : "target";
  return warning(side, share, input,
                 "are unknown to the model; is the text tokenized, BPE'd with the model's codes, and in the model's " +
                     name + " language?");
}

std::string UnknownTokens::warning(Side side, double share, const std::string& input,
                                   const std::string& verdict) const {
  const std::size_t total = tokens_[side], unknown = unknown_[side];
  // more than share * total: never at share 1
  if (total == 0 || static_cast<double>(unknown) <= share * static_cast<double>(total)) return "";
  const double percent = 100.0 * static_cast<double>(unknown) / static_cast<double>(total);
  return util::grouped(unknown) + " of " + util::grouped(total) + (side == kSource ? " source" : " target") +
         " tokens (" + util::fixed(percent, 1) + "%) in " + input + " " + verdict;
}

void UnknownTokens::warn(const util::Messages& messages, double share, const std::string& source_input,
                         const std::string& target_input) const {
  for (const Side side : {kSource, kTarget}) {
    const std::string line = warning(side, share, side == kSource ? source_input : target_input);
    if (!line.empty()) messages.warn(line);
  }
}

}  // namespace rnnsearch::data
