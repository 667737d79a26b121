#pragma once
// Numbers as text: the project's one formatter, over std::to_chars (the "C" locale always,
// no fixed-size buffer). Each matches the printf conversion it names byte for byte.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rnnsearch::util {

// printf("%.*f", decimals, value).
std::string fixed(double value, int decimals);
// printf("%.*g", significant, value). general(value) ("%g") is how messages and --help
// defaults show a float: "0.2" rather than Boost's "0.200000003", "1e+10", "nan".
std::string general(double value, int significant = 6);
// general()'s form with the fewest significant digits, 6 at least, that read back as `value`
// (a config file's numbers, --dump-config): "0.2" for 0.2f, "0.000123456789" where general()
// would round; at most 9 digits for a float, 17 for a double.
std::string general_exact(float value);
std::string general_exact(double value);
// The shortest "d.ddde+XX" that reads back as value (printf "%.*e" style, as few digits as
// round-trip; ties to the digits nearest the exact value).
std::string shortest_scientific(double value);
// A non-negative integer in at least `width` digits, zeros in front (printf "%0*ld").
std::string zero_padded(long value, int width);
// 1234567 -> "1,234,567": counts in messages for a reader.
std::string grouped(std::uint64_t value);
// printf("%0*x", width, value).
std::string hex(unsigned long value, int width);

// The whole of `text` as a number (std::from_chars: "C" locale, no leading '+' or space;
// reads back shortest_scientific exactly), or nothing.
std::optional<double> parse_double(std::string_view text);
// The whole of `text` as a decimal integer in [0, 2^64 - 1] (digits only: no sign, no
// space), or nothing, also for a number too large.
std::optional<std::uint64_t> parse_uint64(std::string_view text);

}  // namespace rnnsearch::util
