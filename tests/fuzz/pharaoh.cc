// Fuzz target: alignment lines: Pharaoh "i-j" (data::parse_pharaoh), gold "i-j i?j"
// (data::parse_gold) and soft rows (align::parse_soft_rows), one line per sentence pair.
// Rejected input: util::Error.
#include <cstdint>
#include <string>
#include <string_view>

#include "data/alignment.h"
#include "align/soft_combine.h"
#include "fuzz_input.h"
#include "util/error.h"

using namespace rnnsearch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::size_t number = 0;
  for (const std::string& line : fuzz::split(std::string_view(reinterpret_cast<const char*>(data), size), '\n')) {
    ++number;
    try {
      const data::Alignment links = data::parse_pharaoh(line, "fuzz.align", number);
      fuzz::check(data::parse_pharaoh(data::format_pharaoh(links), "formatted", 1) == links,
                  "format_pharaoh does not read back");
      fuzz::check(data::inverted(data::inverted(links)) == links, "inverting twice changed the links");
    } catch (const util::Error&) {
    }
    try {
      data::parse_gold(line, "fuzz.gold", number);
    } catch (const util::Error&) {
    }
    try {
      align::parse_soft_rows(line, "fuzz.soft", number);
    } catch (const util::Error&) {
    }
  }
  return 0;
}
