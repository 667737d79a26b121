#include "serve/metrics.h"

#include <algorithm>

#include "util/number_format.h"

namespace rnnsearch::serve {

namespace {

// A label value with Prometheus's escapes (backslash, quote, newline).
std::string label(const std::string& value) {
  std::string out;
  for (const char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string number(double value) { return util::general_exact(value); }

void write_histogram(std::string& out, const std::string& name, const std::string& labels, const std::vector<double>& bounds,
                     const std::vector<unsigned long long>& counts, double sum, unsigned long long total) {
  const std::string prefix = labels.empty() ? "{" : "{" + labels + ",";
  unsigned long long cumulative = 0;
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    cumulative += counts[i];
    out += name + "_bucket" + prefix + "le=\"" + number(bounds[i]) + "\"} " + std::to_string(cumulative) + "\n";
  }
  out += name + "_bucket" + prefix + "le=\"+Inf\"} " + std::to_string(total) + "\n";
  const std::string plain = labels.empty() ? "" : "{" + labels + "}";
  out += name + "_sum" + plain + " " + number(sum) + "\n";
  out += name + "_count" + plain + " " + std::to_string(total) + "\n";
}

}  // namespace

void Metrics::Histogram::add(double value) {
  const auto at = std::lower_bound(bounds.begin(), bounds.end(), value) - bounds.begin();
  ++counts[static_cast<std::size_t>(at)];
  sum += value;
  ++total;
}

Metrics::Metrics() {
  latency_template_.bounds = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};
  latency_template_.counts.assign(latency_template_.bounds.size() + 1, 0);
  batch_sizes_.bounds = {1, 2, 4, 8, 16, 32, 64, 128, 256};
  batch_sizes_.counts.assign(batch_sizes_.bounds.size() + 1, 0);
}

void Metrics::request(const std::string& endpoint, int status, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++requests_[{endpoint, status}];
  auto it = latency_.find(endpoint);
  if (it == latency_.end()) it = latency_.emplace(endpoint, latency_template_).first;
  it->second.add(seconds);
}

void Metrics::batch(std::size_t sentences) {
  std::lock_guard<std::mutex> lock(mutex_);
  batch_sizes_.add(static_cast<double>(sentences));
}

void Metrics::rejection(const std::string& reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++rejections_[reason];
}

void Metrics::language_warning(const std::string& pair) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++language_warnings_[pair];
}

std::string Metrics::text(std::size_t queued, std::size_t running, std::size_t connections, bool ready) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string out;
  out += "# HELP nmt_serve_requests_total Requests answered, by endpoint and HTTP status.\n";
  out += "# TYPE nmt_serve_requests_total counter\n";
  for (const auto& [key, count] : requests_) {
    out += "nmt_serve_requests_total{endpoint=\"" + label(key.first) + "\",status=\"" + std::to_string(key.second) +
           "\"} " + std::to_string(count) + "\n";
  }
  out += "# HELP nmt_serve_request_seconds Time from a request's last byte to its reply, by endpoint.\n";
  out += "# TYPE nmt_serve_request_seconds histogram\n";
  for (const auto& [endpoint, h] : latency_) {
    write_histogram(out, "nmt_serve_request_seconds", "endpoint=\"" + label(endpoint) + "\"", h.bounds, h.counts,
                    h.sum, h.total);
  }
  out += "# HELP nmt_serve_batch_sentences Sentences per batch run.\n";
  out += "# TYPE nmt_serve_batch_sentences histogram\n";
  write_histogram(out, "nmt_serve_batch_sentences", "", batch_sizes_.bounds, batch_sizes_.counts, batch_sizes_.sum,
                  batch_sizes_.total);
  out += "# HELP nmt_serve_rejections_total Requests refused before they ran, by reason.\n";
  out += "# TYPE nmt_serve_rejections_total counter\n";
  for (const auto& [reason, count] : rejections_) {
    out += "nmt_serve_rejections_total{reason=\"" + label(reason) + "\"} " + std::to_string(count) + "\n";
  }
  out += "# HELP nmt_serve_language_warnings_total Windows of a pair's source lines that did not look like its "
         "source language.\n# TYPE nmt_serve_language_warnings_total counter\n";
  for (const auto& [pair, count] : language_warnings_) {
    out += "nmt_serve_language_warnings_total{pair=\"" + label(pair) + "\"} " + std::to_string(count) + "\n";
  }
  out += "# HELP nmt_serve_queued_sentences Sentences waiting for a batch.\n# TYPE nmt_serve_queued_sentences gauge\n";
  out += "nmt_serve_queued_sentences " + std::to_string(queued) + "\n";
  out += "# HELP nmt_serve_running_sentences Sentences in the batches being run.\n";
  out += "# TYPE nmt_serve_running_sentences gauge\nnmt_serve_running_sentences " + std::to_string(running) + "\n";
  out += "# HELP nmt_serve_open_connections Open client connections.\n# TYPE nmt_serve_open_connections gauge\n";
  out += "nmt_serve_open_connections " + std::to_string(connections) + "\n";
  out += "# HELP nmt_serve_ready 1 when the models are loaded and the server is not draining.\n";
  out += "# TYPE nmt_serve_ready gauge\nnmt_serve_ready " + std::string(ready ? "1" : "0") + "\n";
  return out;
}

}  // namespace rnnsearch::serve
