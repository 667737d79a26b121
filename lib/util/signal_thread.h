#pragma once
// Asynchronous signals run their handlers on one thread of their own, never on a thread
// that computes. Debian 12's oneDNN (2.6) JIT sgemm kernels point the stack pointer at a
// heap buffer while they run; a handler entered there has its signal frame written over
// the heap (malloc's chunk headers, the kernel's own operands), which aborts the process
// or poisons its numbers later (oneDNN issue 4845, fixed in 3.11). Any signal with a
// handler does this, whatever the handler does.
//
// handle_signals_on_own_thread() blocks `signals` in the calling thread, so every thread
// it starts afterwards (worker pools, OpenMP teams) inherits the block, and starts one
// thread that unblocks them and only waits: the kernel then delivers those signals to it
// (or to a thread a library started before main and left unblocked, which runs none of
// oneDNN's kernels). Call it once, first in main, before any other thread is started. The
// handlers themselves are installed with sigaction as usual; a handler that ends the
// process with raise() ends it from that thread.
//
// Child processes inherit a blocked mask across exec: spawn them with
// unblocked_signal_mask() (util/gunzip_pipe.cc does).
#include <signal.h>

#include <initializer_list>

namespace rnnsearch::util {

void handle_signals_on_own_thread(std::initializer_list<int> signals);

// The calling thread's mask less every signal handle_signals_on_own_thread() took: what a
// child process should start with.
sigset_t unblocked_signal_mask();

}  // namespace rnnsearch::util
