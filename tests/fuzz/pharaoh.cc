// Fuzz target: alignment lines: Pharaoh "i-j" (align::parse_pharaoh), gold "i-j i?j"
// (align::parse_gold) and soft rows (align::parse_soft_rows), one line per sentence pair.
// Rejected input: util::Error.
#include <cstdint>
#include <string>
#include <string_view>

#include "align/alignment.h"
#include "align/soft_combine.h"
#include "fuzz_input.h"
#include "util/error.h"

using namespace rnnsearch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::size_t number = 0;
  for (const std::string& line : fuzz::split(std::string_view(reinterpret_cast<const char*>(data), size), '\n')) {
    ++number;
    try {
      const align::Alignment links = align::parse_pharaoh(line, "fuzz.align", number);
      fuzz::check(align::parse_pharaoh(align::format_pharaoh(links), "formatted", 1) == links,
                  "format_pharaoh does not read back");
      fuzz::check(align::inverted(align::inverted(links)) == links, "inverting twice changed the links");
    } catch (const util::Error&) {
    }
    try {
      align::parse_gold(line, "fuzz.gold", number);
    } catch (const util::Error&) {
    }
    try {
      align::parse_soft_rows(line, "fuzz.soft", number);
    } catch (const util::Error&) {
    }
  }
  return 0;
}
