#include "search/batch_schedule.h"

#include <algorithm>
#include <atomic>

#include "data/batch.h"
#include "math/gemm.h"
#include "util/parallel.h"

namespace rnnsearch::search {

void for_each_batch_longest_first(const std::vector<std::vector<std::int32_t>>& sentences, int batch_size,
                                  std::size_t threads,
                                  const std::function<void(int thread, const std::vector<std::size_t>& batch)>& work) {
  auto batches = data::batches_by_length(sentences, batch_size);
  std::reverse(batches.begin(), batches.end());
  std::atomic<std::size_t> next{0};
  util::run_on_threads(static_cast<int>(std::min(threads, batches.size())), [&](int thread) {
    math::set_gemm_threads(1);  // the threads here are the parallelism
    for (std::size_t k = next++; k < batches.size(); k = next++) work(thread, batches[k]);
  });
}

}  // namespace rnnsearch::search
