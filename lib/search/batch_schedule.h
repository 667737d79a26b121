#pragma once
// How nmt-decode and nmt-score spread a window of sentences over their threads: the
// non-empty sentences sorted by length and cut into batches (data::batches_by_length),
// the longest batch first, each thread taking the next batch free. A sentence's result
// must not depend on its batch or its thread (row-stable products), so the output does not
// depend on the schedule.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace rnnsearch::search {

// Runs work(thread, batch) for every batch of `sentences` on min(threads, batches) threads
// (thread 0 the caller's), each multiplying on one BLAS thread; returns when all are done.
void for_each_batch_longest_first(const std::vector<std::vector<std::int32_t>>& sentences, int batch_size,
                                  std::size_t threads,
                                  const std::function<void(int thread, const std::vector<std::size_t>& batch)>& work);

}  // namespace rnnsearch::search
