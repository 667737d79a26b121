#pragma once
// nmt-serve's requests: the routes of every API (LibreTranslate, OpenNMT-py, Marian's
// WebSocket, the native /v1/), the language pairs they reach, the batch queue, the API
// keys, the metrics, and the lifecycle (ready, draining, reloading). The transport
// (serve/http_server.h) hands it each request; it answers through the queue's workers.
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "serve/api_keys.h"
#include "serve/batch_queue.h"
#include "serve/http_server.h"
#include "serve/language_pair.h"
#include "serve/metrics.h"
#include "serve/request_error.h"
#include "serve/serve_options.h"
#include "util/messages.h"

namespace rnnsearch::serve {

// The loaded pairs, by name ("en-fr") and in configuration order.
struct PairSet {
  std::vector<std::shared_ptr<LanguagePair>> pairs;
  std::shared_ptr<LanguagePair> find(const std::string& name) const;
  // The pair translating source into target, or with source "auto" the only one into target.
  std::shared_ptr<LanguagePair> find(const std::string& source, const std::string& target) const;
};

// Sentences to translate, and how.
struct LinesRequest {
  std::shared_ptr<LanguagePair> pair;
  std::vector<std::string> lines;
  bool pieces = false;  // the lines are the model's pieces (no tokenizing or BPE), and so are the replies
  search::TranslateOptions config;
  // Per line, its prefix and phrases (serve/constraint_fields.h) in the lines' form; empty: none.
  std::vector<search::LineRequest> constraints;
};

// A translated line: its source as the model read it, and its hypotheses, best first.
struct TranslatedLine {
  search::Source source;
  std::vector<search::Hypothesis> hypotheses;
};

// Scoring or aligning pairs of lines.
struct PairsRequest {
  std::shared_ptr<LanguagePair> pair;
  std::vector<std::string> sources, targets;
  bool pieces = false;  // false: raw text, tokenized and BPE'd here
};

class Service : public HttpHandler {
 public:
  // Loads every pair (util::Error naming a file that does not load). `log` gets a line per
  // request (unless options.log_requests is off) and the notes of reloads.
  Service(ServeOptions options, util::Messages log);
  ~Service() override;

  // HttpHandler
  void handle(HttpRequest request, CancelFlag cancelled, Respond respond) override;
  HttpResponse websocket_upgrade(const HttpRequest& upgrade) override;
  void websocket_message(const HttpRequest& upgrade, std::string message, CancelFlag cancelled,
                         Respond respond) override;
  // The transport's own refusals (408, 413, 431, 503 connections, 400 not HTTP), counted in
  // /metrics' rejections.
  HttpResponse error(int status, const std::string& message) const override;
  void completed(const std::string& method, const std::string& path, int status, double seconds) override;

  // /ready answers 503 from now on; queued work still runs.
  void start_draining() { draining_ = true; }
  bool ready() const { return !draining_; }
  // /metrics' text, its gauges read now.
  std::string metrics_text() const;
  // Loads the pairs' files again and swaps them in at once; on any failure keeps the old
  // ones and returns the reason (empty on success). Requests in flight finish on the pairs
  // they started with.
  std::string reload();
  // Stops the workers; what is still queued is answered 503.
  void stop() { queue_.stop(); }
  std::size_t queued() const { return queue_.queued() + queue_.running(); }
  void set_connections(std::function<std::size_t()> count) { connections_ = std::move(count); }

  // What the APIs share (serve/api_*.cc).
  const ServeOptions& options() const { return options_; }
  std::shared_ptr<const PairSet> pairs() const;
  // The pair a request names ("pair": "en-fr", or the fields `source` and `target`: the
  // languages), the first when it names none; RequestError 400 naming the pairs served otherwise.
  std::shared_ptr<LanguagePair> pair_of(const nlohmann::json& body, const std::string& source = "source_language",
                                        const std::string& target = "target_language") const;
  // The server's decoding defaults with the request's overrides (beam_size, n_best,
  // length_penalty, max_length_ratio, alignment, word_scores, replace_unk), each checked
  // against the server's bounds (RequestError 400 naming the field): beam_size at most
  // --max-beam-size, n_best at most --max-n-best and the beam, max_length_ratio at most
  // the server's --max-length-ratio.
  search::TranslateOptions translate_options(const nlohmann::json& body, const LanguagePair& pair) const;
  // Refuses a request whose key is missing or unknown (RequestError 403) when the server has
  // keys: `body_key` (a JSON or form field "api_key"), else the query's api_key=KEY, else an
  // "Authorization: Bearer KEY" header.
  void check_key(const HttpRequest& request, const std::string& body_key) const;
  // Checks the lines (count, characters per line, UTF-8; 400 naming `field`), queues their
  // sentences and calls done(lines) once all are translated, or done with a RequestError
  // (503 queue full, expired, stopping; 500) instead: from a worker's thread.
  using LinesDone = std::function<void(const std::vector<TranslatedLine>*, const RequestError*)>;
  void translate(LinesRequest request, const std::string& field, CancelFlag cancelled, LinesDone done);
  // The same for scoring and aligning pairs: each job's token_log_probs or links.
  using PairsDone = std::function<void(const std::vector<std::shared_ptr<SentenceJob>>*, const RequestError*)>;
  void run_pairs(PairsRequest request, std::shared_ptr<const BatchTask> task, CancelFlag cancelled, PairsDone done);
  // The best hypothesis's (or hypothesis h's) pieces and text of a translated line.
  std::string pieces_of(const LanguagePair& pair, const TranslatedLine& line, const search::Hypothesis& h,
                        const search::TranslateOptions& config) const;
  Metrics& metrics() { return metrics_; }

  using Route = std::function<void(const HttpRequest&, CancelFlag, Respond)>;
  // Registers `route` for `method` `path` (serve/api_*.cc call this from the constructor).
  void add_route(const std::string& method, const std::string& path, Route route);

 private:
  void check_lines(const std::vector<std::string>& lines, const std::string& field) const;
  std::vector<std::shared_ptr<SentenceJob>> checked_jobs(const std::vector<std::string>& lines, const std::string& field,
                                                         const std::shared_ptr<const BatchTask>& task,
                                                         const LinesRequest& request, CancelFlag cancelled);
  void submit(std::vector<std::shared_ptr<SentenceJob>>& jobs);
  std::shared_ptr<LanguagePair> websocket_pair(const HttpRequest& upgrade) const;

  ServeOptions options_;
  util::Messages log_;
  ApiKeys keys_;
  mutable Metrics metrics_;  // error() counts the transport's refusals
  mutable std::mutex pairs_mutex_;
  std::shared_ptr<const PairSet> pairs_;
  BatchQueue queue_;
  std::atomic<bool> draining_{false};
  std::function<std::size_t()> connections_;
  std::map<std::string, std::map<std::string, Route>> routes_;  // path -> method -> route
};

}  // namespace rnnsearch::serve
