#include "support/busy_load.h"

#include <cstdint>

namespace rnnsearch::testing {

BusyLoad::BusyLoad(int threads) {
  for (int i = 0; i < threads; ++i) {
    threads_.emplace_back([this] {
      volatile std::uint64_t x = 0;
      while (!stop_.load(std::memory_order_relaxed)) x = x + 1;
    });
  }
}

BusyLoad::~BusyLoad() {
  stop_.store(true);
  for (auto& thread : threads_) thread.join();
}

}  // namespace rnnsearch::testing
