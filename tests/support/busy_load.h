#pragma once
// Busy threads beside a benchmark, to measure it as it runs on a shared machine.
#include <atomic>
#include <thread>
#include <vector>

namespace rnnsearch::testing {

class BusyLoad {
 public:
  explicit BusyLoad(int threads);
  ~BusyLoad();  // stops and joins the threads
  BusyLoad(const BusyLoad&) = delete;
  BusyLoad& operator=(const BusyLoad&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace rnnsearch::testing
