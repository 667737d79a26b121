// util/number_format against the printf conversions it replaces.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "util/number_format.h"
#include "util/progress_meter.h"
#include "util/rng.h"

namespace rnnsearch {
namespace {

std::string printf_text(const char* pattern, int precision, double value) {
  std::vector<char> buffer(512);
  std::snprintf(buffer.data(), buffer.size(), pattern, precision, value);
  return buffer.data();
}

std::vector<double> sample_values() {
  std::vector<double> values = {0.0, -0.0, 1.0, -1.0, 0.5, 0.125, 2.5, 3.5, 0.05, 1e-5, 123456789.0, 1e21, 1e-300,
                                0.1 + 0.2, 26.857142857142858, 99.99999, 1.0 / 3.0, 12345.678, -0.000123456,
                                std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min()};
  util::Rng rng(7);
  for (int k = 0; k < 2000; ++k) {
    const double mantissa = rng.uniform() * 2.0 - 1.0;
    values.push_back(mantissa * std::pow(10.0, static_cast<int>(rng.uniform() * 40.0) - 20));
  }
  return values;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(number_format)

BOOST_AUTO_TEST_CASE(fixed_and_general_match_printf) {
  for (const double value : sample_values()) {
    for (const int precision : {0, 1, 2, 3, 4, 6, 12}) {
      BOOST_TEST(util::fixed(value, precision) == printf_text("%.*f", precision, value));
      BOOST_TEST(util::general(value, precision) == printf_text("%.*g", precision, value));
    }
  }
  BOOST_TEST(util::fixed(1e300, 4).size() == 306u);  // longer than any buffer the formatters used to have
  BOOST_TEST(util::general(0.1) == "0.1");
  BOOST_TEST(util::general(1234567.0) == "1.23457e+06");
}

BOOST_AUTO_TEST_CASE(shortest_scientific_reads_back_and_has_no_shorter_form) {
  for (const double value : sample_values()) {
    const std::string text = util::shortest_scientific(value);
    BOOST_TEST(std::strtod(text.c_str(), nullptr) == value);
    std::size_t digits = 0;
    for (std::size_t i = 0; i < text.find('e'); ++i) digits += text[i] >= '0' && text[i] <= '9';
    if (digits > 1) {
      const std::string shorter = printf_text("%.*e", static_cast<int>(digits) - 2, value);
      BOOST_TEST(std::strtod(shorter.c_str(), nullptr) != value, value << ": " << shorter << " reads back too");
    }
  }
  BOOST_TEST(util::shortest_scientific(0.1) == "1e-01");
  BOOST_TEST(util::shortest_scientific(-1.5e16) == "-1.5e+16");
}

BOOST_AUTO_TEST_CASE(padded_integers_match_printf) {
  BOOST_TEST(util::zero_padded(7, 2) == "07");
  BOOST_TEST(util::zero_padded(59, 2) == "59");
  BOOST_TEST(util::zero_padded(123, 2) == "123");
  BOOST_TEST(util::zero_padded(0, 0) == "0");
  BOOST_TEST(util::hex(0x1f, 4) == "001f");
  BOOST_TEST(util::hex(0, 4) == "0000");
  BOOST_TEST(util::hex(0xabcdef, 2) == "abcdef");
}

BOOST_AUTO_TEST_CASE(counts_are_grouped_by_thousands) {
  BOOST_TEST(util::grouped(0) == "0");
  BOOST_TEST(util::grouped(999) == "999");
  BOOST_TEST(util::grouped(1000) == "1,000");
  BOOST_TEST(util::grouped(10020) == "10,020");
  BOOST_TEST(util::grouped(1234567) == "1,234,567");
}

BOOST_AUTO_TEST_CASE(clock_durations_are_hours_minutes_seconds) {
  BOOST_TEST(util::clock_duration(0) == "0:00:00");
  BOOST_TEST(util::clock_duration(-3) == "0:00:00");
  BOOST_TEST(util::clock_duration(59.5) == "0:01:00");
  BOOST_TEST(util::clock_duration(3 * 3600 + 7 * 60 + 9) == "3:07:09");
  BOOST_TEST(util::clock_duration(125 * 3600.0) == "125:00:00");
}

BOOST_AUTO_TEST_CASE(whole_numbers_are_read_strictly) {
  BOOST_TEST(*util::parse_uint64("0") == 0u);
  BOOST_TEST(*util::parse_uint64("18446744073709551615") == std::numeric_limits<std::uint64_t>::max());
  for (const char* text : {"", "18446744073709551616", "99999999999999999999999", "-1", "+1", " 1", "1 ", "0x10", "1e3"}) {
    BOOST_TEST(!util::parse_uint64(text).has_value(), "'" << text << "'");
  }
  BOOST_TEST(!util::parse_double("").has_value());
  BOOST_TEST(!util::parse_double("1e999").has_value());
  BOOST_TEST(!util::parse_double("0x10").has_value());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace rnnsearch
