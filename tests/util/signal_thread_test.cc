// util::handle_signals_on_own_thread: the signals it takes run their handlers on its own
// thread, never on the thread that called it nor on one that thread starts later (where
// oneDNN's kernels run), and a child spawned with unblocked_signal_mask() gets them again.
// Each case runs in a forked child, so the test process keeps its own signal mask.
#include <boost/test/unit_test.hpp>

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <functional>
#include <thread>

#include "util/signal_thread.h"

using namespace rnnsearch;

namespace {

std::atomic<pthread_t> handler_thread{};
std::atomic<bool> handled{false};

void record_thread(int) {
  handler_thread.store(pthread_self());
  handled.store(true);
}

// Runs `check` in a forked child; its return value is the child's exit status.
int in_child(const std::function<int()>& check) {
  const pid_t pid = fork();
  if (pid == 0) _exit(check());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

bool blocks(int signal) {
  sigset_t mask;
  pthread_sigmask(SIG_BLOCK, nullptr, &mask);
  return sigismember(&mask, signal) == 1;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(signal_thread)

BOOST_AUTO_TEST_CASE(a_process_directed_signal_runs_its_handler_on_the_signal_thread) {
  const int code = in_child([] {
    util::handle_signals_on_own_thread({SIGUSR1, SIGUSR2});
    struct sigaction action {};
    action.sa_handler = record_thread;
    sigemptyset(&action.sa_mask);
    sigaction(SIGUSR1, &action, nullptr);
    if (!blocks(SIGUSR1) || !blocks(SIGUSR2)) return 1;
    bool worker_blocks = false;
    std::thread worker([&] { worker_blocks = blocks(SIGUSR1) && blocks(SIGUSR2); });
    const pthread_t worker_id = worker.native_handle();
    // The worker still runs while the signal comes: the kernel may not pick it either.
    kill(getpid(), SIGUSR1);
    for (int i = 0; i < 2000 && !handled.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    worker.join();
    if (!worker_blocks) return 2;
    if (!handled.load()) return 3;
    if (pthread_equal(handler_thread.load(), pthread_self()) || pthread_equal(handler_thread.load(), worker_id)) return 4;
    return 0;
  });
  BOOST_TEST(code == 0, "1: the caller does not block them, 2: a thread it starts does not, 3: the handler never "
                        "ran, 4: it ran on the caller or the worker; got "
                            << code);
}

BOOST_AUTO_TEST_CASE(a_signal_without_a_handler_still_ends_the_process) {
  const int code = in_child([] {
    util::handle_signals_on_own_thread({SIGTERM});
    kill(getpid(), SIGTERM);
    std::this_thread::sleep_for(std::chrono::seconds(5));
    return 0;
  });
  BOOST_TEST(code == 100 + SIGTERM);
}

BOOST_AUTO_TEST_CASE(a_child_process_starts_with_the_signals_unblocked) {
  const int code = in_child([] {
    util::handle_signals_on_own_thread({SIGTERM, SIGINT});
    const sigset_t mask = util::unblocked_signal_mask();
    if (sigismember(&mask, SIGTERM) == 1 || sigismember(&mask, SIGINT) == 1) return 1;
    return blocks(SIGTERM) ? 0 : 2;  // the calling thread itself keeps them blocked
  });
  BOOST_TEST(code == 0);
}

BOOST_AUTO_TEST_SUITE_END()
