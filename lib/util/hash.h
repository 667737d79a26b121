#pragma once
// The project's string hash for its hash tables: 8 bytes at a time with
// multiply-xorshift mixing. Not for anything persistent (no stability promise).
#include <cstdint>
#include <string_view>

namespace rnnsearch::util {

std::uint64_t hash_bytes(std::string_view s);

}  // namespace rnnsearch::util
