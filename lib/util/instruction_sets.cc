#include "util/instruction_sets.h"

#include <cstring>

namespace rnnsearch::util {

namespace {

struct Named {
  unsigned set;
  const char* name;
};

constexpr Named kNames[] = {
    {kSse42, "sse4.2"},     {kPopcnt, "popcnt"},       {kAvx, "avx"},           {kAvx2, "avx2"},
    {kFma, "fma"},          {kBmi2, "bmi2"},           {kAvx512f, "avx512f"},   {kAvx512bw, "avx512bw"},
    {kAvx512dq, "avx512dq"}, {kAvx512vl, "avx512vl"}, {kAvx512vnni, "avx512vnni"}, {kAvx512bf16, "avx512bf16"},
};

void append(char* out, std::size_t size, const char* text) {
  const std::size_t used = std::strlen(out);
  if (used + 1 >= size) return;
  std::strncat(out, text, size - used - 1);
}

}  // namespace

// __builtin_cpu_supports takes its name as a literal only.
bool cpu_supports(unsigned set) {
  __builtin_cpu_init();
  switch (set) {
    case kSse42: return __builtin_cpu_supports("sse4.2");
    case kPopcnt: return __builtin_cpu_supports("popcnt");
    case kAvx: return __builtin_cpu_supports("avx");
    case kAvx2: return __builtin_cpu_supports("avx2");
    case kFma: return __builtin_cpu_supports("fma");
    case kBmi2: return __builtin_cpu_supports("bmi2");
    case kAvx512f: return __builtin_cpu_supports("avx512f");
    case kAvx512bw: return __builtin_cpu_supports("avx512bw");
    case kAvx512dq: return __builtin_cpu_supports("avx512dq");
    case kAvx512vl: return __builtin_cpu_supports("avx512vl");
    case kAvx512vnni: return __builtin_cpu_supports("avx512vnni");
    case kAvx512bf16: return __builtin_cpu_supports("avx512bf16");
    default: return false;
  }
}

int unsupported_instruction_sets(unsigned sets, bool (*supports)(unsigned set), char* out, std::size_t size) {
  if (size > 0) out[0] = '\0';
  int count = 0;
  for (const auto& named : kNames) {
    if ((sets & named.set) == 0 || supports(named.set)) continue;
    if (count++ > 0) append(out, size, ", ");
    append(out, size, named.name);
  }
  return count;
}

}  // namespace rnnsearch::util
