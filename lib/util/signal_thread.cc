#include "util/signal_thread.h"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "util/error.h"

namespace rnnsearch::util {

namespace {

sigset_t taken;  // the signals handed to the signal thread; written once, before it starts
std::atomic<bool> thread_started{false};

// Blocks until the process ends; `wanted` is unblocked here only, so their handlers run on
// this thread, between two pause() calls.
void wait_for_signals(sigset_t wanted) {
  pthread_sigmask(SIG_UNBLOCK, &wanted, nullptr);
  for (;;) ::pause();
}

}  // namespace

void handle_signals_on_own_thread(std::initializer_list<int> signals) {
  if (thread_started.load()) throw std::logic_error("handle_signals_on_own_thread called twice");
  sigemptyset(&taken);
  for (const int number : signals) sigaddset(&taken, number);
  if (const int error = pthread_sigmask(SIG_BLOCK, &taken, nullptr); error != 0) {
    throw Error(std::string("cannot block signals: ") + std::strerror(error));
  }
  std::thread(wait_for_signals, taken).detach();
  thread_started.store(true);
}

sigset_t unblocked_signal_mask() {
  sigset_t mask;
  pthread_sigmask(SIG_BLOCK, nullptr, &mask);
  if (!thread_started.load()) return mask;
  for (int number = 1; number < NSIG; ++number) {
    if (sigismember(&taken, number) == 1) sigdelset(&mask, number);
  }
  return mask;
}

}  // namespace rnnsearch::util
