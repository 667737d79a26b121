#include "util/option_error.h"

#include <map>
#include <utility>
#include <vector>

namespace rnnsearch::util {

namespace po = boost::program_options;

namespace {

// Reads the substitutions a po::error_with_option_name holds: they are protected, and a
// pointer to the member named through a derived class may be applied to any such error.
struct SubstitutionReader : po::error_with_option_name {
  static const std::map<std::string, std::string>& of(const po::error_with_option_name& error) {
    return error.*(&SubstitutionReader::m_substitutions);
  }
};

}  // namespace

std::string option_error_message(const po::error_with_option_name& error) {
  po::error_with_option_name copy = error;
  std::vector<std::pair<std::string, std::string>> markers;  // marker, the text it stands for
  for (const auto& [name, text] : SubstitutionReader::of(error)) {
    if (text.find('%') == std::string::npos) continue;
    // Control characters no placeholder holds: "\x1f" N "\x1e".
    std::string marker = "\x1f" + std::to_string(markers.size()) + "\x1e";
    copy.set_substitute(name, marker);
    markers.emplace_back(std::move(marker), text);
  }
  std::string message = copy.what();
  for (const auto& [marker, text] : markers) {
    for (std::size_t at = message.find(marker); at != std::string::npos; at = message.find(marker, at + text.size())) {
      message.replace(at, marker.size(), text);
    }
  }
  return message;
}

}  // namespace rnnsearch::util
