#include "util/instruction_sets.h"

#include <cstring>

namespace rnnsearch::util {

namespace {

// Each set with its name and its test; __builtin_cpu_supports takes its name as a literal
// only, hence one small function per set.
struct Named {
  unsigned set;
  const char* name;
  bool (*present)();
};

constexpr Named kNames[] = {
    {kSse42, "sse4.2", [] { return __builtin_cpu_supports("sse4.2") != 0; }},
    {kPopcnt, "popcnt", [] { return __builtin_cpu_supports("popcnt") != 0; }},
    {kAvx, "avx", [] { return __builtin_cpu_supports("avx") != 0; }},
    {kAvx2, "avx2", [] { return __builtin_cpu_supports("avx2") != 0; }},
    {kFma, "fma", [] { return __builtin_cpu_supports("fma") != 0; }},
    {kBmi2, "bmi2", [] { return __builtin_cpu_supports("bmi2") != 0; }},
    {kAvx512f, "avx512f", [] { return __builtin_cpu_supports("avx512f") != 0; }},
    {kAvx512bw, "avx512bw", [] { return __builtin_cpu_supports("avx512bw") != 0; }},
    {kAvx512dq, "avx512dq", [] { return __builtin_cpu_supports("avx512dq") != 0; }},
    {kAvx512vl, "avx512vl", [] { return __builtin_cpu_supports("avx512vl") != 0; }},
    {kAvx512vnni, "avx512vnni", [] { return __builtin_cpu_supports("avx512vnni") != 0; }},
    {kAvx512bf16, "avx512bf16", [] { return __builtin_cpu_supports("avx512bf16") != 0; }},
};

void append(char* out, std::size_t size, const char* text) {
  const std::size_t used = std::strlen(out);
  if (used + 1 >= size) return;
  std::strncat(out, text, size - used - 1);
}

}  // namespace

bool cpu_supports(unsigned set) {
  __builtin_cpu_init();
  for (const auto& named : kNames) {
    if (named.set == set) return named.present();
  }
  return false;
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
