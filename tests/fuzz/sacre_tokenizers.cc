// Fuzz target: sacreBLEU's tokenizers (13a, intl, zh, char, none). The first byte picks
// the tokenizer; the rest, with invalid UTF-8 replaced as the readers do, is cut into
// lines. Checks that tokenize_into gives the words of tokenize().split(). Nothing is
// rejected.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "eval/sacre_tokenizers.h"
#include "fuzz_input.h"
#include "text/whitespace.h"
#include "util/utf8.h"

using namespace rnnsearch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static std::vector<std::unique_ptr<eval::SacreTokenizer>> tokenizers;
  if (tokenizers.empty()) {
    for (const std::string& name : eval::sacre_tokenizer_names()) {
      tokenizers.push_back(eval::make_sacre_tokenizer(name));
    }
  }
  const eval::SacreTokenizer& tokenizer = *tokenizers[data[0] % tokenizers.size()];
  const std::string text =
      util::replace_invalid_utf8(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  std::vector<std::string_view> words, expected;
  std::string buffer;
  for (const std::string& line : fuzz::split(text, '\n')) {
    const std::string tokenized = tokenizer.tokenize(line);
    fuzz::check(util::find_invalid_utf8(tokenized) == std::string_view::npos, "tokenize returned invalid UTF-8");
    tokenizer.tokenize_into(line, words, buffer);
    text::split_white_space(tokenized, expected);
    fuzz::check(words == expected, "tokenize_into differs from tokenize().split()");
  }
  return 0;
}
