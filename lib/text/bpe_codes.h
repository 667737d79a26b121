#pragma once
// BPE merge operations as subword-nmt's learn_bpe writes them: a "#version: 0.2" header,
// then one merge "left right" per line, most frequent first. Version 0.2 attaches the
// end-of-word marker "</w>" to the last character; 0.1 (no header) keeps it separate.
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rnnsearch::text {

inline constexpr std::string_view kEndOfWord = "</w>";

struct BpeCodes {
  int version_minor = 2;  // 0.2 or 0.1
  std::vector<std::pair<std::string, std::string>> merges;  // rank = position
};

// Parses the text of a codes file; `name` is used in errors ("codes:3: ...").
// Accepts what apply_bpe accepts: an optional "#version:" line, then lines of exactly
// two space-separated units (each line stripped of "\r\n " first).
BpeCodes parse_bpe_codes(std::string_view text, const std::string& name);
// Reads and parses the codes file at `path`.
BpeCodes read_bpe_codes(const std::string& path);
// Writes the header and the merges, as learn_bpe does.
void write_bpe_codes(std::ostream& out, const BpeCodes& codes);

}  // namespace rnnsearch::text
