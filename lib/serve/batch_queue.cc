#include "serve/batch_queue.h"

#include <algorithm>
#include <exception>

#include "math/gemm.h"

namespace rnnsearch::serve {

namespace {

bool is_cancelled(const SentenceJob& job) { return job.cancelled && job.cancelled->load(); }

// Calls the job's `done` once and lets it go: it holds the request's state, which holds the
// job, and that cycle must not outlive the answer.
void answer(SentenceJob& job, JobStatus status) {
  auto done = std::move(job.done);
  job.done = nullptr;
  if (done) done(job, status);
}

}  // namespace

BatchQueue::BatchQueue(QueueOptions options, std::function<void(std::size_t)> on_batch)
    : options_(std::move(options)), on_batch_(std::move(on_batch)) {
  for (int k = 0; k < std::max(1, options_.workers); ++k) {
    workers_.emplace_back([this, k] { work(static_cast<std::size_t>(k)); });
  }
}

BatchQueue::~BatchQueue() { stop(); }

bool BatchQueue::submit(const std::vector<std::shared_ptr<SentenceJob>>& jobs) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ || queue_.size() + jobs.size() > options_.capacity) return false;
    const auto now = Clock::now();
    for (const auto& job : jobs) {
      job->queued = now;
      queue_.push_back(job);
    }
  }
  arrived_.notify_all();
  return true;
}

std::size_t BatchQueue::queued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size();
}

std::size_t BatchQueue::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

void BatchQueue::stop() {
  std::deque<std::shared_ptr<SentenceJob>> left;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ && workers_.empty()) return;
    stopping_ = true;
    left.swap(queue_);
  }
  arrived_.notify_all();
  for (const auto& job : left) answer(*job, JobStatus::kStopped);
  for (auto& worker : workers_) {
    if (worker.joinable() && worker.get_id() != std::this_thread::get_id()) worker.join();
  }
  workers_.clear();
}

// The oldest sentence's group, taken out of the queue, once it is full or has waited long
// enough (empty when stopping). Called and returns with the lock held.
std::vector<std::shared_ptr<SentenceJob>> BatchQueue::next_batch(std::unique_lock<std::mutex>& lock) {
  for (;;) {
    arrived_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return {};
    const std::string key = queue_.front()->task->key();
    std::size_t sentences = 0, tokens = 0;
    for (const auto& job : queue_) {
      if (job->task->key() != key) continue;
      if (sentences > 0 && tokens + job->source.words.size() > options_.max_batch_tokens) break;
      tokens += job->source.words.size();
      if (++sentences == options_.max_batch) break;
    }
    const auto ready_at = queue_.front()->queued + std::chrono::duration_cast<Clock::duration>(
                                                       std::chrono::duration<double>(options_.max_wait_seconds));
    const bool full = sentences == options_.max_batch || tokens >= options_.max_batch_tokens;
    if (!full && Clock::now() < ready_at) {
      arrived_.wait_until(lock, ready_at);
      continue;  // the queue may have changed: look again
    }
    std::vector<std::shared_ptr<SentenceJob>> batch;
    for (auto it = queue_.begin(); it != queue_.end() && batch.size() < sentences;) {
      if ((*it)->task->key() == key) {
        batch.push_back(*it);
        it = queue_.erase(it);
      } else {
        ++it;
      }
    }
    return batch;
  }
}

void BatchQueue::work(std::size_t worker) {
  math::set_gemm_threads(1);  // the workers are the parallelism
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    auto batch = next_batch(lock);
    if (batch.empty()) return;
    running_ += batch.size();
    lock.unlock();
    run_batch(worker, batch);
    lock.lock();
  }
}

// A sentence leaves the running count before its answer goes out: a client holding its reply
// must never read it as still running in /metrics.
void BatchQueue::finish(SentenceJob& job, JobStatus status) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
  }
  answer(job, status);
}

// Drops the sentences whose client went or whose deadline passed, runs the rest sorted by
// length (longest first, as nmt-decode's batches), and answers each.
void BatchQueue::run_batch(std::size_t worker, std::vector<std::shared_ptr<SentenceJob>>& batch) {
  const auto now = Clock::now();
  std::vector<SentenceJob*> live;
  for (const auto& job : batch) {
    if (is_cancelled(*job)) {
      finish(*job, JobStatus::kCancelled);
    } else if (now > job->deadline) {
      finish(*job, JobStatus::kExpired);
    } else {
      live.push_back(job.get());
    }
  }
  if (live.empty()) return;
  std::stable_sort(live.begin(), live.end(), [](const SentenceJob* a, const SentenceJob* b) {
    return a->source.words.size() > b->source.words.size();
  });
  if (on_batch_) on_batch_(live.size());
  JobStatus status = JobStatus::kDone;
  try {
    live.front()->task->run(worker, live);
  } catch (const std::exception& e) {
    status = JobStatus::kFailed;
    for (SentenceJob* job : live) job->error = e.what();
  }
  for (SentenceJob* job : live) finish(*job, status);
}

}  // namespace rnnsearch::serve
