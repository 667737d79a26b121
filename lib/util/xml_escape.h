#pragma once
// Text for SVG and XML: & < > " escaped, everything else as is.
#include <string>

namespace rnnsearch::util {

std::string xml_escape(const std::string& text);

}  // namespace rnnsearch::util
