#pragma once
// A model file around fuzzed payload bytes: the header of lib/model/model_file.cc with the
// payload's true size and checksum, so the fuzzer reaches the archive reader instead of
// being stopped by the checksum on nearly every input.
#include <cstdint>
#include <string>
#include <string_view>

#include "model/model_file.h"

namespace rnnsearch::fuzz {

std::string model_file_bytes(std::string_view payload, model::FileKind kind);

}  // namespace rnnsearch::fuzz
