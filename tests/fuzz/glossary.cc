// Fuzz target: glossary files as nmt-glossary match and rnnsearch-translate --glossary read
// them (text::Glossary), and the lines they annotate. The input is the glossary, a NUL, then
// lines of text. Checks that an annotated line is the line, then one field per target term
// found, each a glossary target term without a tab, none twice, the same with and without
// ignore_case's case-insensitive reading where both read the file. Rejected input:
// util::Error (a malformed glossary line, invalid UTF-8).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.h"
#include "text/glossary.h"
#include "util/error.h"
#include "util/utf8.h"

using namespace rnnsearch;

namespace {

void check_line(const text::Glossary& glossary, const std::string& line) {
  const std::string annotated = glossary.annotate(line);
  fuzz::check(annotated.compare(0, line.size(), line) == 0, "an annotated line does not begin with the line");
  const std::vector<std::string> terms = glossary.match(line.substr(0, line.find('\t')));
  std::string fields;
  for (const std::string& term : terms) {
    fuzz::check(!term.empty() && term.find('\t') == std::string::npos, "a target term is empty or holds a tab");
    fuzz::check(std::count(terms.begin(), terms.end(), term) == 1, "a target term is written twice");
    fields += "\t" + term;
  }
  fuzz::check(annotated == line + fields, "annotate() is not the line and match()'s terms");
  fuzz::check(terms.size() <= glossary.size(), "more terms found than the glossary holds");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = bytes.find('\0');
  const std::string_view file = bytes.substr(0, nul);
  const fuzz::TempInput input(reinterpret_cast<const std::uint8_t*>(file.data()), file.size(), ".glossary");
  std::optional<text::Glossary> exact, folded;
  try {
    exact.emplace(input.path(), false);
  } catch (const util::Error&) {
  }
  try {
    folded.emplace(input.path(), true);
  } catch (const util::Error&) {
  }
  fuzz::check(exact || !folded, "a glossary read case-insensitively but refused case-sensitively");
  if (nul == std::string_view::npos) return 0;
  for (const std::string& line : fuzz::split(bytes.substr(nul + 1), '\n')) {
    if (util::find_invalid_utf8(line) != std::string_view::npos) continue;  // LineReader refuses it
    if (exact) check_line(*exact, line);
    if (folded) check_line(*folded, line);
  }
  return 0;
}
