#pragma once
// A glossary of tokenized terms and nmt-glossary match: a source line's glossary terms
// found and their target terms appended as tab-separated fields, the input nmt-decode
// --constraints reads ("SOURCE<TAB>TERM1<TAB>TERM2...").
//
// The glossary file has one entry a line, "source term<TAB>target term", both sides
// tokenized as the text they go with (space-separated tokens; runs of spaces count as
// one). Blank lines (of spaces and tabs only) are skipped. A line with no tab or more than one, or a side without a
// token, is an error naming the file and the line; so is a source term given again with
// another target term (given again with the same one, it is taken once).
//
// Matching: the source line's tokens (split at spaces, as BPE and nmt-decode split them)
// are scanned left to right; at each position the longest source term that starts there
// and is made of whole tokens wins, and the scan goes on after it, so matches never
// overlap ("New York" is found in "in New York City" before "York City" could be, and
// "York City" then is not). Each target term is appended once per line, in the order of
// its first match. Case-sensitive, or, with ignore_case, on lowercased tokens (full
// Unicode lowercasing of both sides; the line itself is written unchanged).
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "util/line_pipeline.h"

namespace rnnsearch::text {

class Glossary {
 public:
  // Reads `path` ("-" = stdin) as above; throws util::Error naming the file and line.
  Glossary(const std::string& path, bool ignore_case);
  // From entries given as (source term, target term), for tests; `where` names them in
  // messages. An entry's 1-based number takes the place of its line.
  Glossary(const std::vector<std::pair<std::string, std::string>>& entries, bool ignore_case,
           const std::string& where = "glossary");

  // Entries (source terms).
  std::size_t size() const { return sources_.size(); }

  // The target terms of the source terms found in `source` (one tokenized sentence), each
  // once, in the order of their first match.
  std::vector<std::string> match(std::string_view source) const;

  // nmt-glossary match's line: `line` unchanged, then a tab and each target term that
  // match() finds in its first field (the text before any tab: fields already there are
  // constraints given by hand, kept); the line alone when none is found.
  std::string annotate(std::string_view line) const;

 private:
  void add(std::string_view source, std::string_view target, const std::string& where, std::size_t line);
  std::string key(std::string_view token) const;

  bool ignore_case_;
  std::size_t longest_ = 0;  // tokens of the longest source term
  // Source term (its tokens joined by single spaces, lowercased under ignore_case) ->
  // index into targets_ and the line it came from.
  struct Entry {
    std::size_t target;
    std::size_t line;
  };
  std::unordered_map<std::string, Entry> sources_;
  std::vector<std::string> targets_;  // distinct, normalized: tokens joined by single spaces
  std::unordered_map<std::string, std::size_t> target_index_;  // into targets_
};

// nmt-glossary match as a library call.
struct GlossaryMatchOptions {
  std::string glossary;       // -g (required)
  std::string input = "-";    // tokenized source text; "-" = stdin
  std::string output = "-";   // "-" = stdout; a file is written atomically
  bool ignore_case = false;   // --ignore-case
  bool terms_only = false;    // --terms-only: only the target terms, tab-separated, a line each

  // Throws util::UsageError "-g GLOSSARY is required", and for -g and -i both "-".
  void validate() const;
};

// Validates `options`, reads the glossary and writes a line per input line with `pipeline`
// (streaming: each line answered as soon as it arrives).
void match_glossary_file(const GlossaryMatchOptions& options, const util::LinePipelineOptions& pipeline);

}  // namespace rnnsearch::text
