#include "util/parallel.h"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

namespace rnnsearch::util {

void run_on_threads(int n, const std::function<void(int)>& work) {
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n > 0 ? n : 0));
  auto guarded = [&](int k) {
    try {
      work(k);
    } catch (...) {
      errors[static_cast<std::size_t>(k)] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  try {
    for (int k = 1; k < n; ++k) threads.emplace_back(guarded, k);
  } catch (...) {
    // No thread could be started (std::system_error, std::bad_alloc): join the started
    // ones before unwinding, since destroying a joinable std::thread calls std::terminate.
    for (auto& thread : threads) thread.join();
    throw;
  }
  if (n > 0) guarded(0);
  for (auto& thread : threads) thread.join();
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

void parallel_for(std::size_t count, int blocks, const std::function<void(std::size_t, std::size_t)>& body) {
  const std::size_t n = std::max<std::size_t>(1, std::min<std::size_t>(blocks > 0 ? blocks : 1, count));
  if (n == 1) {
    body(0, count);
    return;
  }
  run_on_threads(static_cast<int>(n), [&](int k) {
    const auto b = static_cast<std::size_t>(k);
    body(count * b / n, count * (b + 1) / n);
  });
}

}  // namespace rnnsearch::util
