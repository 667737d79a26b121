// Fuzz target: the Moses tokenizer (text::Tokenizer). The first byte picks the options
// and language; the rest is one line. Rejected input: util::Error (invalid UTF-8).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "fuzz_input.h"
#include "text/tokenizer.h"
#include "util/error.h"
#include "util/utf8.h"

using namespace rnnsearch;

namespace {

// Tokenizers are built once per option byte: building the prefix lists costs more than a run.
const text::Tokenizer& tokenizer_for(std::uint8_t choice) {
  static std::array<std::unique_ptr<text::Tokenizer>, 256> made;
  if (!made[choice]) {
    static const char* const languages[] = {"en", "de", "fr", "cs"};
    text::TokenizerOptions options;
    options.language = languages[choice & 3];
    options.aggressive = choice & 4;
    options.escape = choice & 8;
    options.lowercase = choice & 16;
    options.normalize_punctuation = choice & 32;
    options.tokenized = choice & 64;
    options.fold_accents = choice & 128;
    // French unescaped: the alignment gold's spelling as well (--expand-contractions --plain-hyphens).
    options.expand_contractions = options.plain_hyphens = options.language == "fr" && !options.escape;
    made[choice] = std::make_unique<text::Tokenizer>(options, text::NonbreakingPrefixes::built_in(options.language));
  }
  return *made[choice];
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view line(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const std::string tokens = tokenizer_for(data[0]).tokenize(line);
    fuzz::check(util::find_invalid_utf8(tokens) == std::string_view::npos, "tokenize returned invalid UTF-8");
  } catch (const util::Error&) {
    fuzz::check(util::find_invalid_utf8(line) != std::string_view::npos, "tokenize rejected valid UTF-8");
  }
  return 0;
}
