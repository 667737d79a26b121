#include "model_bytes.h"

#include <cstdio>
#include <cstring>

#include "fuzz_input.h"

namespace rnnsearch::fuzz {

namespace {

// The fields of model_file.cc's Header, in its order. If that layout changes, the seeds of
// model_payload stop loading and its replay test notices (see model_payload.cc).
void append_u32(std::string& out, std::uint32_t value) { out.append(reinterpret_cast<const char*>(&value), 4); }
void append_u64(std::string& out, std::uint64_t value) { out.append(reinterpret_cast<const char*>(&value), 8); }

}  // namespace

std::string model_file_bytes(std::string_view payload, model::FileKind kind) {
  std::string out = "RNNSRCH\n";
  append_u32(out, model::kModelFormatVersion);
  append_u32(out, static_cast<std::uint32_t>(kind));
  append_u32(out, sizeof(float));
  const float one = 1.0f;
  std::uint32_t one_bits;
  std::memcpy(&one_bits, &one, 4);
  append_u32(out, one_bits);
  append_u64(out, payload.size());
  append_u64(out, model::payload_hash(payload));
  out.append(payload);
  return out;
}

void check_header_accepted(const std::exception& refusal, const std::string& path) {
  const std::string_view what(refusal.what());
  const bool header = what.rfind(path + ": truncated or damaged:", 0) == 0 || what.rfind(path + ": corrupt:", 0) == 0;
  if (header) std::fprintf(stderr, "refused: %s\n", refusal.what());
  check(!header, "model_bytes.cc wrote a header the reader refuses");
}

}  // namespace rnnsearch::fuzz
