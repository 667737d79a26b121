// The batch queue's running count as an answered client sees it: /metrics reads it the moment
// a reply has gone out, so a sentence must leave the count before its answer does.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "serve/batch_queue.h"

namespace serve = rnnsearch::serve;

namespace {

class NothingTask : public serve::BatchTask {
 public:
  const std::string& key() const override { return key_; }
  void run(std::size_t, const std::vector<serve::SentenceJob*>&) const override {}

 private:
  std::string key_ = "nothing";
};

}  // namespace

BOOST_AUTO_TEST_SUITE(serve_batch_queue)

BOOST_AUTO_TEST_CASE(an_answered_sentence_is_no_longer_counted_as_running) {
  serve::QueueOptions options;
  options.max_batch = 3;
  options.max_wait_seconds = 5;  // the three sentences go in one batch, at once since it is full
  serve::BatchQueue queue(options);
  std::mutex mutex;
  std::condition_variable answered;
  std::vector<std::size_t> running_at_answer;
  std::vector<serve::JobStatus> statuses;
  const auto task = std::make_shared<NothingTask>();
  std::vector<std::shared_ptr<serve::SentenceJob>> jobs;
  for (int i = 0; i < 3; ++i) {
    auto job = std::make_shared<serve::SentenceJob>();
    job->task = task;
    job->source.words = {"w" + std::to_string(i)};
    job->deadline = serve::Clock::now() + std::chrono::minutes(1);
    job->done = [&](serve::SentenceJob&, serve::JobStatus status) {
      const std::size_t running = queue.running();
      std::lock_guard<std::mutex> lock(mutex);
      running_at_answer.push_back(running);
      statuses.push_back(status);
      answered.notify_all();
    };
    jobs.push_back(job);
  }
  BOOST_REQUIRE(queue.submit(jobs));
  std::unique_lock<std::mutex> lock(mutex);
  BOOST_REQUIRE(answered.wait_for(lock, std::chrono::seconds(30), [&] { return statuses.size() == 3; }));
  // Each answer is given after its own sentence left the count: 2 still running, then 1, then 0.
  BOOST_TEST(running_at_answer == (std::vector<std::size_t>{2, 1, 0}), boost::test_tools::per_element());
  for (const auto status : statuses) BOOST_TEST((status == serve::JobStatus::kDone));
  lock.unlock();
  queue.stop();
  BOOST_TEST(queue.running() == 0u);
  BOOST_TEST(queue.queued() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
