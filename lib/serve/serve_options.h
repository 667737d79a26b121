#pragma once
// Everything nmt-serve is started with (nmt-serve(1)): the pairs it serves, the decoding
// defaults and the bounds a request may move them within, the batching, the limits on
// requests and connections, and the lifecycle's timings.
#include <cstddef>
#include <string>
#include <vector>

#include "search/translator.h"
#include "serve/batch_queue.h"
#include "serve/http_server.h"
#include "serve/language_pair.h"

namespace rnnsearch::serve {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                 // 0: the system chooses (printed once listening)
  std::vector<PairConfig> pairs;   // the first is the default of requests that name none
  // The defaults of every translation (nmt-decode's options); max_length 0 translates a
  // line whole, as rnnsearch-translate does.
  search::TranslateOptions translate;
  int max_beam_size = 16;          // a request's beam_size is at most this
  int max_n_best = 16;             // and its n_best at most this (and its beam)
  QueueOptions queue;              // workers = --threads, capacity = --queue-size, ...
  double queue_seconds = 30;       // a sentence queued longer is answered 503
  HttpLimits http;
  std::size_t max_lines = 1000;        // lines (sentences, pairs) per request; more: 400
  std::size_t max_line_chars = 10000;  // characters (code points) per line; more: 400
  std::string api_keys;            // a file of keys, or "" (every request allowed)
  double drain_seconds = 30;       // after SIGTERM, time given to requests in flight
  bool log_requests = true;        // one line per request on stderr (-q: none)

  // Throws util::UsageError naming the option and its range.
  void validate() const;
};

// --batch-wait-ms's value in seconds: a number of milliseconds, or "auto": 2 ms with one
// worker, which fills its batches, and 0 with more, whose workers would otherwise wait for
// the same oldest sentence and then compute at once (scripts/bench-serve.sh measures both).
// util::UsageError for anything else.
double batch_wait_seconds(const std::string& value, int workers);

// A --pair value "SRC,TGT,MODEL[+MODEL...],CODES[,SHORTLIST[,HMM_PARAMS]]" (CODES and
// SHORTLIST may be empty: a pair served in BPE pieces only, no shortlist); util::UsageError
// for another shape.
PairConfig parse_pair(const std::string& value);

}  // namespace rnnsearch::serve
