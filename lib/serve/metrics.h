#pragma once
// What /metrics reports, in Prometheus's text format (version 0.0.4): requests by endpoint
// and status, their latency as a histogram, sentences per batch, rejections by reason,
// the windows of source lines that did not look like a pair's source language, and
// the queue's depth at the moment of the scrape. Thread-safe.
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace rnnsearch::serve {

class Metrics {
 public:
  Metrics();
  // A reply written: `endpoint` is the route ("/translate", "WS /translate") or "other".
  void request(const std::string& endpoint, int status, double seconds);
  void batch(std::size_t sentences);
  // A request refused before it ran: "queue_full", "expired", "too_many_connections", ...
  void rejection(const std::string& reason);
  // A window of a pair's source lines that did not look like its source language (serve/language_watch.h).
  void language_warning(const std::string& pair);
  // The text, with the gauges read now.
  std::string text(std::size_t queued, std::size_t running, std::size_t connections, bool ready) const;

 private:
  struct Histogram {
    std::vector<double> bounds;
    std::vector<unsigned long long> counts;  // per bound, not cumulative; one more for +Inf
    double sum = 0;
    unsigned long long total = 0;
    void add(double value);
  };
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, int>, unsigned long long> requests_;
  std::map<std::string, Histogram> latency_;  // per endpoint
  Histogram batch_sizes_;
  std::map<std::string, unsigned long long> rejections_;
  std::map<std::string, unsigned long long> language_warnings_;  // per pair
  Histogram latency_template_;
};

}  // namespace rnnsearch::serve
