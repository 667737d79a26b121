#include "train/stop_signals.h"

#include <csignal>
#include <iterator>

#include "train/trainer.h"

namespace rnnsearch::train {

namespace {

constexpr int kStopSignals[] = {SIGHUP, SIGINT, SIGTERM};
struct sigaction previous[std::size(kStopSignals)];

// Runs on the signal thread (util/signal_thread.h): an atomic store and sigaction only.
void on_signal(int signal) {
  request_stop(signal);
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i) {
    if (kStopSignals[i] == signal) sigaction(signal, &previous[i], nullptr);
  }
}

}  // namespace

void stop_training_on_signals() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i) {
    sigaction(kStopSignals[i], &action, &previous[i]);
    if (previous[i].sa_handler == SIG_IGN) previous[i].sa_handler = SIG_DFL;  // a second signal still ends it
  }
}

}  // namespace rnnsearch::train
