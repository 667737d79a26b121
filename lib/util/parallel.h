#pragma once
// Runs work(0) .. work(n - 1) at the same time, work(0) on the calling thread, and waits
// for all; the first exception (in k order) is rethrown after every thread has ended.
#include <functional>

namespace rnnsearch::util {

void run_on_threads(int n, const std::function<void(int)>& work);

}  // namespace rnnsearch::util
