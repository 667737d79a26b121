// Fuzz target: the UTF-8 line reader (util::LineReader, both policies) and the UTF-8
// helpers behind it. Rejected input: util::Error (invalid UTF-8 under kError).
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_input.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/utf8.h"

using namespace rnnsearch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string replaced = util::replace_invalid_utf8(bytes);
  fuzz::check(util::find_invalid_utf8(replaced) == std::string_view::npos, "replace_invalid_utf8 left invalid UTF-8");
  fuzz::check(util::to_utf8(util::to_u32(replaced)) == replaced, "to_u32 and to_utf8 are not inverse");
  const bool valid = util::find_invalid_utf8(bytes) == std::string_view::npos;
  fuzz::check(!valid || replaced == bytes, "replace_invalid_utf8 changed valid text");

  const fuzz::TempInput file(data, size);
  for (const auto policy : {util::InvalidUtf8::kError, util::InvalidUtf8::kReplace}) {
    try {
      util::LineReader reader(file.path(), policy);
      std::string line;
      while (reader.next(line)) {
        fuzz::check(util::find_invalid_utf8(line) == std::string_view::npos, "LineReader returned invalid UTF-8");
        fuzz::check(line.find('\n') == std::string::npos, "LineReader returned a line with a newline");
      }
      fuzz::check(policy == util::InvalidUtf8::kReplace || valid, "LineReader accepted invalid UTF-8");
    } catch (const util::Error&) {
      fuzz::check(policy == util::InvalidUtf8::kError && !valid, "LineReader rejected readable input");
    }
  }
  return 0;
}
