#pragma once
// Two outputs of one run that are one file: the second written would replace the first
// (each is written atomically), or both would mix on standard output. A tool with several
// output options names them all here and refuses such a command line before writing.
#include <string>
#include <vector>

namespace rnnsearch::util {

// One output and what names it on the command line: "-o", "--svg", "CLEAN.L1".
struct NamedOutput {
  std::string name;
  std::string path;  // "-" is standard output; empty: not written this run
};

// Throws UsageError "A and B are the same file: PATH" for the first two outputs that are
// one file (same_file(): also through links and "./"), or "A and B are both standard
// output (-)".
void check_distinct_outputs(const std::vector<NamedOutput>& outputs);

}  // namespace rnnsearch::util
