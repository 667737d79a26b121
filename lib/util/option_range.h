#pragma once
// Range checks for option values, one message for every tool:
//   "--beam-size must be in [1, 1000], got 1000000"
// A config's validate() calls check_range for each numeric field, so no value reaches
// an allocation, a loop bound or an int conversion unchecked. A floating-point value
// must also be finite: NaN and the infinities are outside every range.
//
// Boost.Program_options reads "-1" into an unsigned field as its largest value, which
// a full-width field such as a seed cannot tell from a real one: unsigned_value()
// refuses a minus sign while parsing, with the same message. Boost refuses an empty value
// and one too large for its type as it reads a typed option; checked_text() does the same
// for an option read as text.
#include <boost/program_options/value_semantic.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "util/number_format.h"

namespace rnnsearch::util {

// Throws UsageError "--OPTION must be in [LOW, HIGH], got VALUE". `option` without dashes.
[[noreturn]] void throw_out_of_range(const std::string& option, const std::string& low, const std::string& high,
                                     const std::string& value);
template <class T>
struct RangeOf {
  using type = T;
};

// Throws UsageError unless LOW <= value <= HIGH (and, for floating point, finite).
template <class T>
void check_range(const std::string& option, T value, typename RangeOf<T>::type low, typename RangeOf<T>::type high) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isfinite(value) && value >= low && value <= high) return;
    throw_out_of_range(option, general(low), general(high), general(value));
  } else {
    if (value >= low && value <= high) return;
    throw_out_of_range(option, std::to_string(low), std::to_string(high), std::to_string(value));
  }
}

// A program_options value for an unsigned field that refuses a negative number.
template <class T>
class UnsignedValue : public boost::program_options::typed_value<T> {
 public:
  UnsignedValue(T* field, std::string option, T low, T high)
      : boost::program_options::typed_value<T>(field), option_(std::move(option)), low_(low), high_(high) {}
  void xparse(boost::any& store, const std::vector<std::string>& tokens) const override {
    for (const auto& token : tokens) {
      if (token.find('-') != std::string::npos) throw_out_of_range(option_, std::to_string(low_), std::to_string(high_), token);
    }
    boost::program_options::typed_value<T>::xparse(store, tokens);
  }

 private:
  std::string option_;
  T low_, high_;  // for the message only: validate() checks the range
};

// po::value(&field) for an unsigned field: unsigned_value(&cfg.seed, "seed"), or with the
// range validate() checks, for the message: unsigned_value(&cfg.max_length, "max-length", 1, 1000).
template <class T>
UnsignedValue<T>* unsigned_value(T* field, const std::string& option, T low = 0,
                                 T high = std::numeric_limits<T>::max()) {
  static_assert(std::is_unsigned_v<T>, "unsigned_value is for unsigned fields");
  return new UnsignedValue<T>(field, option, low, high);
}

// A value given as text (a number or a word: "--seed none") and checked as it is read:
// `check` throws UsageError naming the option for a bad text, an empty one included; then
// `field` holds the text. The field stays empty only when the option is not given, so
// "--seed ''" is refused rather than taken for "not given". Being read, the check runs for
// a --config line too, whose message then names the file and line.
template <class Check>
boost::program_options::typed_value<std::string>* checked_text(std::optional<std::string>* field, Check check) {
  return boost::program_options::value<std::string>()->notifier([field, check](const std::string& text) {
    check(text);
    *field = text;
  });
}

}  // namespace rnnsearch::util
