#pragma once
// Reading shared/golden/bleu: the sacreBLEU runs of cases.tsv (see its README) and the
// hypothesis/reference files they name, read the way sacreBLEU reads them.
#include <string>
#include <vector>

namespace rnnsearch::testing {

struct GoldenCase {
  std::string case_id;
  std::string hyp;                // path relative to golden/bleu
  std::vector<std::string> refs;  // paths relative to golden/bleu
  std::string options;            // the extra sacreBLEU options, space-separated
  int exit_code = 0;
  std::string stdout_text;        // unescaped; empty when stdout_file is set
  std::string stdout_file;        // file holding stdout (sentence-level runs)
};

// Every row of a cases.tsv file, in order.
std::vector<GoldenCase> read_golden_cases(const std::string& path);

// Splits on `separator`, keeping empty fields.
std::vector<std::string> split(const std::string& s, char separator);
// The whole file, bytes as they are.
std::string read_file(const std::string& path);
// Lines of a UTF-8 file with Python's rstrip() applied, as sacreBLEU reads them.
std::vector<std::string> read_stripped_lines(const std::string& path);

// Whether `flag` is one of the space-separated `options`, and the value after it.
bool has_option(const std::string& options, const std::string& flag);
int option_value(const std::string& options, const std::string& flag, int fallback);

}  // namespace rnnsearch::testing
