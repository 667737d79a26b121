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

// Aborts, printing the message, when a reader refused such a file for its header (its
// size or checksum, "truncated or damaged: N bytes of payload"): model_file_bytes no
// longer writes the header the reader expects. Other refusals are the fuzzed payload's.
void check_header_accepted(const std::exception& refusal);

}  // namespace rnnsearch::fuzz
