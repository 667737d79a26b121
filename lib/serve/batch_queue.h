#pragma once
// nmt-serve's dynamic batching: the sentences of concurrent requests wait in one bounded
// queue, and each worker (one per copy of the models, --threads) takes the oldest
// sentence's group: every queued sentence of the same task key (the same pair and the
// options that change the search), in arrival order, up to max_batch sentences and
// max_batch_tokens source pieces. A group smaller than that waits for more until its
// oldest sentence has waited max_wait_seconds. The batch is sorted by length and run; a
// sentence's result does not depend on its batch (the search's row-stable products), so a
// reply has the bytes the command-line tool prints, whatever the load.
// Sentences whose client has gone are dropped when a batch is formed, and those queued past
// their deadline are answered "expired" instead of being run.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "search/beam_search.h"
#include "search/sentence_search.h"
#include "serve/http_server.h"

namespace rnnsearch::serve {

using Clock = std::chrono::steady_clock;

enum class JobStatus {
  kDone,       // the result is in the job
  kCancelled,  // the client went away before it ran
  kExpired,    // queued past its deadline
  kStopped,    // the server stopped before it ran
  kFailed,     // the run threw: job.error says why
};

struct SentenceJob;

// What the sentences of one request ask for, shared by them.
class BatchTask {
 public:
  virtual ~BatchTask() = default;
  // Sentences share a batch only when their tasks have the same key.
  virtual const std::string& key() const = 0;
  // Runs `batch` (sentences of this key, sorted by length, longest first) on worker
  // `worker`'s copies of the models, filling each job's result.
  virtual void run(std::size_t worker, const std::vector<SentenceJob*>& batch) const = 0;
};

struct SentenceJob {
  std::shared_ptr<const BatchTask> task;
  search::Source source;            // the pieces the model reads, and their ids
  std::vector<std::string> target;  // the target pieces, for a score or an alignment
  // The result, by task: the hypotheses of a translation, the token log-probabilities of a
  // score, the links of an alignment; `error` when the run failed.
  std::vector<search::Hypothesis> hypotheses;
  std::vector<float> token_log_probs;
  std::string links, error;
  CancelFlag cancelled;  // may be null
  Clock::time_point queued, deadline;
  // Called once, on a worker's thread (or stop()'s caller), then released.
  std::function<void(SentenceJob&, JobStatus)> done;
};

struct QueueOptions {
  std::size_t capacity = 1024;           // sentences queued at most; a request that would pass it is refused
  int workers = 1;
  std::size_t max_batch = 32;            // sentences per batch
  std::size_t max_batch_tokens = 4096;   // source pieces per batch (a longer sentence still runs, alone)
  double max_wait_seconds = 0.002;       // a group smaller than max_batch waits this long for more
};

class BatchQueue {
 public:
  // Starts the workers; `on_batch(sentences)` is called before each batch runs (metrics).
  BatchQueue(QueueOptions options, std::function<void(std::size_t)> on_batch = {});
  ~BatchQueue();  // stop()
  BatchQueue(const BatchQueue&) = delete;
  BatchQueue& operator=(const BatchQueue&) = delete;

  // Queues all of `jobs` (their queued time set now), or none when the queue has no room for
  // them all or is stopped: returns false then.
  bool submit(const std::vector<std::shared_ptr<SentenceJob>>& jobs);
  std::size_t queued() const;
  std::size_t running() const;  // sentences in the batches being run
  const QueueOptions& options() const { return options_; }
  // Answers every queued job kStopped and ends the workers after their batch. Idempotent.
  void stop();

 private:
  void work(std::size_t worker);
  std::vector<std::shared_ptr<SentenceJob>> next_batch(std::unique_lock<std::mutex>& lock);
  void run_batch(std::size_t worker, std::vector<std::shared_ptr<SentenceJob>>& batch);
  void finish(SentenceJob& job, JobStatus status);  // out of the running count, then answered

  const QueueOptions options_;
  std::function<void(std::size_t)> on_batch_;
  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<std::shared_ptr<SentenceJob>> queue_;
  std::size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace rnnsearch::serve
