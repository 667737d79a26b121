// Fuzz target: whole model files, header and payload as given (model::read_model_file).
// Most mutations stop at the header checks (magic, version, float layout, size, checksum);
// model_payload and checkpoint_payload reach the archive behind a valid header.
// Rejected input: util::Error.
#include <cstdint>

#include "fuzz_input.h"
#include "model/model_file.h"
#include "util/error.h"

using namespace rnnsearch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::TempInput file(data, size);
  try {
    model::read_model_file(file.path());
  } catch (const util::Error&) {
  }
  return 0;
}
