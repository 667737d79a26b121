#pragma once
// The x86-64 instruction sets a build's code may use beyond the baseline, and which of them
// the CPU running it lacks. A build for the build machine's CPU (RNNSEARCH_NATIVE=ON, the
// default) uses all that CPU has; on a CPU without one of them its code would die of SIGILL
// at the first such instruction, so every tool checks first (tools/support/cpu_guard.cc) and
// says so in one line instead.
//
// instruction_sets.cc is compiled for the baseline x86-64 (CMake sets its flags): it runs
// before anything else of the program, on any x86-64 CPU. It uses no C++ library code,
// whose inline functions the linker may take from a file compiled with the wider sets.
#include <cstddef>

namespace rnnsearch::util {

// One bit per instruction set, in the order of their names in unsupported_instruction_sets.
enum InstructionSet : unsigned {
  kSse42 = 1u << 0,
  kPopcnt = 1u << 1,
  kAvx = 1u << 2,
  kAvx2 = 1u << 3,
  kFma = 1u << 4,
  kBmi2 = 1u << 5,
  kAvx512f = 1u << 6,
  kAvx512bw = 1u << 7,
  kAvx512dq = 1u << 8,
  kAvx512vl = 1u << 9,
  kAvx512vnni = 1u << 10,
  kAvx512bf16 = 1u << 11,
};

// The sets the library and tools were compiled to use (built_instruction_sets.cc, compiled
// with the build's own flags, reads them from the compiler's macros).
extern const unsigned kBuiltInstructionSets;

// Whether this CPU has `set` (one bit), as __builtin_cpu_supports says.
bool cpu_supports(unsigned set);

// The names of the sets in `sets` for which supports(set) is false, written to `out`
// separated by ", " (cut to fit `size`, always terminated); returns how many there are.
int unsupported_instruction_sets(unsigned sets, bool (*supports)(unsigned set), char* out, std::size_t size);

}  // namespace rnnsearch::util
