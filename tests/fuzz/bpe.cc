// Fuzz target: BPE codes (text::parse_bpe_codes) and their application (text::BpeApplier),
// and undo. The input is up to four parts separated by NUL bytes: the codes file, lines of
// text to segment, vocabulary tokens (space-separated, for the --vocabulary filter) and
// glossaries (space-separated). Rejected input: util::Error (malformed codes, a glossary
// that is empty or not valid UTF-8).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.h"
#include "text/bpe_apply.h"
#include "text/bpe_codes.h"
#include "text/bpe_undo.h"
#include "util/error.h"
#include "util/utf8.h"

using namespace rnnsearch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> parts = fuzz::split(std::string_view(reinterpret_cast<const char*>(data), size), '\0');
  parts.resize(4);
  text::BpeCodes codes;
  try {
    codes = text::parse_bpe_codes(parts[0], "codes");
  } catch (const util::Error&) {
    return 0;
  }
  text::BpeApplyOptions options;
  for (const std::string& token : fuzz::split(parts[2], ' ')) {
    if (!token.empty()) options.vocabulary[token] = 1;
  }
  for (const std::string& glossary : fuzz::split(parts[3], ' ')) {
    if (!glossary.empty()) options.glossaries.push_back(glossary);
  }
  std::optional<text::BpeApplier> constructed;
  try {
    constructed.emplace(std::move(codes), std::move(options));
  } catch (const util::Error&) {  // an empty glossary, or one that is not valid UTF-8
    return 0;
  }
  const text::BpeApplier& applier = *constructed;
  for (const std::string& line : fuzz::split(parts[1], '\n')) {
    // apply() takes lines as util::LineReader returns them: valid UTF-8.
    if (util::find_invalid_utf8(line) != std::string_view::npos) continue;
    const std::string pieces = applier.apply(line);
    fuzz::check(util::find_invalid_utf8(pieces) == std::string_view::npos, "BPE apply returned invalid UTF-8");
    const std::string undone = text::undo_bpe(pieces);
    fuzz::check(util::find_invalid_utf8(undone) == std::string_view::npos, "BPE undo returned invalid UTF-8");
    for (const std::string& word : fuzz::split(line, ' ')) {
      if (!word.empty()) applier.segment_word(word);
    }
  }
  return 0;
}
