#include "util/xml_escape.h"

namespace rnnsearch::util {

namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        // XML 1.0 has no control characters but tab, LF and CR, not even as "&#1;":
        // the others become U+FFFD, so the document stays well-formed.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += kReplacement;
        } else {
          out += c;
        }
    }
  }
  // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters either.
  for (std::size_t at = out.find("\xEF\xBF"); at != std::string::npos; at = out.find("\xEF\xBF", at + 1)) {
    if (at + 2 < out.size() && (out[at + 2] == '\xBE' || out[at + 2] == '\xBF')) out.replace(at, 3, kReplacement);
  }
  return out;
}

}  // namespace rnnsearch::util
