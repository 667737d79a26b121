// Fuzz target: gold alignment files in either format, Pharaoh lines or the NAACL 2003
// shared-task "SENT SRC TGT [S|P]" lines (align::read_gold_file). Rejected input:
// util::Error.
#include <cstdint>

#include "align/gold_file.h"
#include "fuzz_input.h"
#include "util/error.h"

using namespace rnnsearch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::TempInput file(data, size);
  try {
    align::read_gold_file(file.path());
  } catch (const util::Error&) {
  }
  return 0;
}
