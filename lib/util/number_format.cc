#include "util/number_format.h"

#include <charconv>
#include <system_error>

namespace rnnsearch::util {
namespace {

// Runs convert(first, last) on a buffer that grows until the text fits.
template <typename Convert>
std::string grow_until_fits(std::size_t size, const Convert& convert) {
  std::string text(size, '\0');
  for (;;) {
    const std::to_chars_result result = convert(text.data(), text.data() + text.size());
    if (result.ec == std::errc()) {
      text.resize(static_cast<std::size_t>(result.ptr - text.data()));
      return text;
    }
    text.resize(text.size() * 2);
  }
}

// general(value, n) for the least n in [6, most] that std::from_chars reads back as `value`.
template <typename T>
std::string general_read_back(T value, int most) {
  std::string text;
  for (int significant = 6; significant <= most; ++significant) {
    text = general(value, significant);
    T read = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), read);
    if (result.ec == std::errc() && read == value) break;
  }
  return text;
}

}  // namespace

std::string fixed(double value, int decimals) {
  return grow_until_fits(64, [&](char* first, char* last) {
    return std::to_chars(first, last, value, std::chars_format::fixed, decimals);
  });
}

std::string general(double value, int significant) {
  return grow_until_fits(32, [&](char* first, char* last) {
    return std::to_chars(first, last, value, std::chars_format::general, significant);
  });
}

std::string general_exact(float value) { return general_read_back(value, 9); }

std::string general_exact(double value) { return general_read_back(value, 17); }

std::string shortest_scientific(double value) {
  return grow_until_fits(32, [&](char* first, char* last) {
    return std::to_chars(first, last, value, std::chars_format::scientific);
  });
}

std::string zero_padded(long value, int width) {
  std::string digits = grow_until_fits(24, [&](char* first, char* last) { return std::to_chars(first, last, value); });
  if (static_cast<int>(digits.size()) < width) digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
  return digits;
}

std::string hex(unsigned long value, int width) {
  std::string digits =
      grow_until_fits(24, [&](char* first, char* last) { return std::to_chars(first, last, value, 16); });
  if (static_cast<int>(digits.size()) < width) digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
  return digits;
}

std::string grouped(std::uint64_t value) {
  const std::string digits = std::to_string(value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::optional<double> parse_double(std::string_view text) {
  double value = 0.0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> parse_uint64(std::string_view text) {
  std::uint64_t value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

}  // namespace rnnsearch::util
