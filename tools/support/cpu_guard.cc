// Linked into every tool and compiled for the baseline x86-64: before anything else of the
// program runs (a constructor of the first priority), a tool built for a CPU with
// instruction sets this CPU lacks says so in one line and exits 1, instead of dying of
// SIGILL somewhere later. Written with the C library only (see util/instruction_sets.h).
#include <errno.h>
#include <unistd.h>

#include <cstdio>

#include "util/instruction_sets.h"

namespace {

__attribute__((constructor(101))) void refuse_a_cpu_without_the_built_instruction_sets() {
  char missing[256];
  if (rnnsearch::util::unsupported_instruction_sets(rnnsearch::util::kBuiltInstructionSets,
                                                    rnnsearch::util::cpu_supports, missing, sizeof missing) == 0) {
    return;
  }
  char message[640];
  const int length = std::snprintf(
      message, sizeof message,
      "%s: this build uses instructions this CPU lacks (%s): build it on this machine, or configure with "
      "cmake -DRNNSEARCH_NATIVE=OFF for binaries that run on any x86-64 CPU\n",
      program_invocation_short_name, missing);
  if (length > 0 && write(STDERR_FILENO, message, static_cast<std::size_t>(length)) < 0) {
    // Nothing more to say: the exit status tells.
  }
  _exit(1);
}

}  // namespace
