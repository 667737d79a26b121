// Fuzz target: the payload of a checkpoint (the model's, then the trainer's and the
// optimizer's state) behind a valid header (model_bytes.h), read by train::read_checkpoint.
// Rejected input: util::Error.
#include <cstdint>
#include <string>

#include "fuzz_input.h"
#include "model_bytes.h"
#include "train/checkpoint.h"
#include "util/error.h"

using namespace rnnsearch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string payload(reinterpret_cast<const char*>(data), size);
  const std::string bytes = fuzz::model_file_bytes(payload, model::FileKind::kCheckpoint);
  const fuzz::TempInput file(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  try {
    train::read_checkpoint(file.path());
  } catch (const util::Error& e) {
    fuzz::check_header_accepted(e, file.path());
  }
  return 0;
}
