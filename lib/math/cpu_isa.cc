#include "math/cpu_isa.h"

#include <algorithm>
#include <cstdlib>

#include "util/error.h"
#include "util/instruction_sets.h"

namespace rnnsearch::math {

namespace {

struct Level {
  CpuIsa isa;
  const char* name;
  unsigned sets;  // util::InstructionSet bits this level adds to the one before
};

constexpr Level kLevels[] = {
    {CpuIsa::kBaseline, "baseline", 0u},
    {CpuIsa::kAvx2, "avx2", util::kAvx | util::kAvx2 | util::kFma},
    {CpuIsa::kAvx512, "avx512", util::kAvx512f | util::kAvx512bw | util::kAvx512dq | util::kAvx512vl},
    {CpuIsa::kAvx512Vnni, "avx512-vnni", util::kAvx512vnni},
    {CpuIsa::kAvx512Bf16, "avx512-bf16", util::kAvx512bf16},
};

bool has_all(unsigned sets) {
  for (unsigned bit = 1; bit != 0 && bit <= sets; bit <<= 1) {
    if ((sets & bit) != 0 && !util::cpu_supports(bit)) return false;
  }
  return true;
}

CpuIsa current_level() {
  const CpuIsa detected = detected_cpu_isa();
  const char* cap = std::getenv("RNNSEARCH_CPU_ISA");
  if (cap == nullptr || *cap == '\0') return detected;
  return std::min(detected, parse_cpu_isa(cap));
}

}  // namespace

const char* cpu_isa_name(CpuIsa isa) {
  for (const Level& level : kLevels) {
    if (level.isa == isa) return level.name;
  }
  return "unknown";
}

CpuIsa parse_cpu_isa(const std::string& name) {
  std::string names;
  for (const Level& level : kLevels) {
    if (name == level.name) return level.isa;
    names += names.empty() ? level.name : std::string(", ") + level.name;
  }
  throw util::UsageError("RNNSEARCH_CPU_ISA=" + name + ": expected one of " + names);
}

CpuIsa detected_cpu_isa() {
  static const CpuIsa detected = [] {
    CpuIsa highest = CpuIsa::kBaseline;
    for (const Level& level : kLevels) {
      if (!has_all(level.sets)) break;
      highest = level.isa;
    }
    return highest;
  }();
  return detected;
}

CpuIsa cpu_isa() {
  static const CpuIsa level = current_level();
  return level;
}

std::vector<CpuIsa> cpu_isas_up_to_current() {
  std::vector<CpuIsa> levels;
  for (const Level& level : kLevels) {
    if (level.isa <= cpu_isa()) levels.push_back(level.isa);
  }
  return levels;
}

}  // namespace rnnsearch::math
