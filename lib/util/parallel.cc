#include "util/parallel.h"

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

}  // namespace rnnsearch::util
