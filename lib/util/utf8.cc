#include "util/utf8.h"

namespace rnnsearch::util {

std::size_t find_invalid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    auto cont = [&](std::size_t k) { return i + k < n && (p[i + k] & 0xC0) == 0x80; };
    if (c >= 0xC2 && c <= 0xDF) {
      if (!cont(1)) return i;
      i += 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      if (!cont(1) || !cont(2)) return i;
      if (c == 0xE0 && p[i + 1] < 0xA0) return i;   // overlong
      if (c == 0xED && p[i + 1] >= 0xA0) return i;  // surrogate
      i += 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      if (!cont(1) || !cont(2) || !cont(3)) return i;
      if (c == 0xF0 && p[i + 1] < 0x90) return i;   // overlong
      if (c == 0xF4 && p[i + 1] >= 0x90) return i;  // above U+10FFFF
      i += 4;
    } else {
      return i;
    }
  }
  return std::string_view::npos;
}

std::string replace_invalid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  while (!s.empty()) {
    const std::size_t bad = find_invalid_utf8(s);
    if (bad == std::string_view::npos) {
      out += s;
      break;
    }
    out += s.substr(0, bad);
    // The maximal subpart: the lead byte plus the continuation bytes that could still
    // have completed a valid sequence (Unicode 3.9, "U+FFFD substitution").
    const auto* p = reinterpret_cast<const unsigned char*>(s.data()) + bad;
    const std::size_t left = s.size() - bad;
    std::size_t skip = 1;
    const unsigned char c = p[0];
    unsigned char low = 0x80, high = 0xBF;
    std::size_t need = 0;
    if (c >= 0xC2 && c <= 0xDF) need = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
      need = 2;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      need = 3;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    }
    for (std::size_t k = 1; k <= need && k < left; ++k) {
      const unsigned char lo = k == 1 ? low : 0x80, hi = k == 1 ? high : 0xBF;
      if (p[k] < lo || p[k] > hi) break;
      skip = k + 1;
    }
    out += "\xEF\xBF\xBD";
    s.remove_prefix(bad + skip);
  }
  return out;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::u32string to_u32(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) out += next_code_point(s, i);
  return out;
}

std::string to_utf8(std::u32string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t cp : s) append_utf8(out, cp);
  return out;
}

}  // namespace rnnsearch::util
