// Fuzz target: the Moses detokenizer (text::Detokenizer). The first byte picks the
// language and unescaping; the rest is one line of any bytes (invalid UTF-8 is replaced,
// so nothing is rejected).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "fuzz_input.h"
#include "text/detokenizer.h"
#include "util/utf8.h"

using namespace rnnsearch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static std::array<std::unique_ptr<text::Detokenizer>, 12> made;
  static const char* const languages[] = {"en", "fr", "it", "cs", "de", "zh"};
  const std::size_t choice = data[0] % made.size();
  if (!made[choice]) {
    text::DetokenizerOptions options;
    options.language = languages[choice % 6];
    options.unescape = choice < 6;
    made[choice] = std::make_unique<text::Detokenizer>(options);
  }
  const std::string_view line(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string words = made[choice]->detokenize(line);
  fuzz::check(util::find_invalid_utf8(words) == std::string_view::npos, "detokenize returned invalid UTF-8");
  return 0;
}
