#include "train/stop_signals.h"

#include <csignal>

#include "train/trainer.h"

namespace rnnsearch::train {

namespace {

struct sigaction previous_int, previous_term;

void on_signal(int signal) {
  request_stop(signal);
  sigaction(signal, signal == SIGINT ? &previous_int : &previous_term, nullptr);
}

}  // namespace

void stop_training_on_signals() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous_int);
  sigaction(SIGTERM, &action, &previous_term);
  for (struct sigaction* previous : {&previous_int, &previous_term}) {
    if (previous->sa_handler == SIG_IGN) previous->sa_handler = SIG_DFL;  // a second signal still ends it
  }
}

}  // namespace rnnsearch::train
