// Fuzz target: the payload of a model file (config, vocabularies, parameters) behind a
// valid header (model_bytes.h), read by model::read_model_file. Rejected input: util::Error.
// The seeds are payloads of real models (tests/fuzz/corpus/model_payload/seed-*). A size
// or checksum refusal aborts: it means model_bytes.cc no longer writes the reader's header.
#include <cstdint>
#include <string>

#include "model/model_file.h"
#include "fuzz_input.h"
#include "model_bytes.h"
#include "util/error.h"

using namespace rnnsearch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string payload(reinterpret_cast<const char*>(data), size);
  const std::string bytes = fuzz::model_file_bytes(payload, model::FileKind::kModel);
  const fuzz::TempInput file(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  try {
    model::read_model_file(file.path());
  } catch (const util::Error& e) {
    fuzz::check_header_accepted(e, file.path());
  }
  return 0;
}
