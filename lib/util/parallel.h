#pragma once
// The project's one fork-join: every worker's exception comes back to the caller (the
// first in worker order, after all workers have ended), never std::terminate.
#include <cstddef>
#include <functional>

namespace rnnsearch::util {

// --threads is at most this (0 = one per core): each thread holds a copy of a model.
constexpr int kMaxThreads = 1024;

// Runs work(0) .. work(n - 1) at the same time, work(0) on the calling thread, and waits
// for all. For workers that each keep their own state (a model copy, a table block).
void run_on_threads(int n, const std::function<void(int)>& work);

// Splits [0, count) into `blocks` contiguous ranges, block b = [count * b / blocks,
// count * (b + 1) / blocks), and runs body(begin, end) for all of them at the same time
// through run_on_threads (no thread at all for one block; never more blocks than count).
void parallel_for(std::size_t count, int blocks, const std::function<void(std::size_t, std::size_t)>& body);

}  // namespace rnnsearch::util
