#pragma once
// A model file around fuzzed payload bytes: the header of lib/model/model_file.cc with the
// payload's true size and checksum, so the fuzzer reaches the archive reader instead of
// being stopped by the checksum on nearly every input.
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "model/model_file.h"

namespace rnnsearch::fuzz {

std::string model_file_bytes(std::string_view payload, model::FileKind kind);

// Aborts, printing the message, when the reader refused the file at `path` for its header
// (its size or checksum: the message then starts "PATH: truncated or damaged:" or "PATH:
// corrupt:"): model_file_bytes no longer writes the header the reader expects. Other
// refusals are the fuzzed payload's, whatever words the fuzzer wrote into it.
void check_header_accepted(const std::exception& refusal, const std::string& path);

}  // namespace rnnsearch::fuzz
