#pragma once
// nmt-serve's life: load the pairs, listen, announce, serve until SIGTERM or SIGINT, drain,
// exit. SIGHUP reloads the pairs' files and swaps them in (the old ones stay when a file
// does not load). The signals are taken with Asio's signal_set, whose handler only writes
// to a pipe; they reach it on the tools' signal thread (util/signal_thread.h).
#include <functional>
#include <string>

#include "serve/serve_options.h"
#include "util/messages.h"

namespace rnnsearch::serve {

// Serves `options` until stopped; returns the exit code: 0 after a drain that answered
// every request, 1 when a second signal or the drain deadline cut requests off.
// `listening(url)` is called once the socket listens ("http://127.0.0.1:8080"). util::Error
// for a pair that does not load or a port that cannot be bound.
int serve(const ServeOptions& options, const util::Messages& log, const std::function<void(const std::string&)>& listening);

}  // namespace rnnsearch::serve
