#pragma once
// Text for SVG and XML: & < > " escaped; the characters XML 1.0 does not allow at all
// (controls other than tab, LF and CR; U+FFFE, U+FFFF) replaced by U+FFFD; everything
// else as is. The input is UTF-8.
#include <string>

namespace rnnsearch::util {

std::string xml_escape(const std::string& text);

}  // namespace rnnsearch::util
