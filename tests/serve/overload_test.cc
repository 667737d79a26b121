// nmt-serve under more load than its queue holds: --queue-size 4 --threads 1, and a batch
// that is not full waits --batch-wait-ms 500 for more, so the first requests stay queued
// while 32 concurrent requests of 2 lines each arrive. Those that find the queue full are
// refused at once (503 and Retry-After; LibreTranslate's 429), every other one is answered
// with the command-line tools' bytes, /health answers in the middle of it, and the
// rejections are counted in /metrics.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "serve/serve_fixture.h"

namespace rs = rnnsearch::testing::serve;
using nlohmann::json;

namespace {

constexpr int kRequests = 32;
constexpr int kLinesPerRequest = 2;  // two requests fill --queue-size 4

const std::vector<std::string> kServerOptions = {"--queue-size", "4", "--threads", "1", "--batch-wait-ms", "500",
                                                 "-b", "5"};

// Request r's lines: 8 to 12 words of w0..w9 (seeded).
std::vector<std::string> lines_of_request(int r) {
  std::mt19937 rng(500 + static_cast<unsigned>(r));
  std::vector<std::string> lines;
  for (int k = 0; k < kLinesPerRequest; ++k) {
    std::string line;
    const int words = 8 + static_cast<int>(rng() % 5);
    for (int w = 0; w < words; ++w) line += (w ? " " : "") + std::string("w") + std::to_string(rng() % 10);
    lines.push_back(line);
  }
  return lines;
}

struct Load {
  std::vector<rs::HttpReply> replies;
  std::vector<double> answered_at;  // seconds from the start to each reply
  rs::HttpReply health;             // GET /health, asked once the first refusal came
  int answered_before_health = 0;   // requests answered 200 when /health had answered
};

// kRequests threads, released together, each sends send(client, r) once.
Load run_load(const rs::ServeProcess& server, int busy_status,
              const std::function<rs::HttpReply(rs::HttpClient&, int)>& send) {
  Load load;
  load.replies.resize(kRequests);
  load.answered_at.resize(kRequests);
  std::atomic<int> busy{0}, ok{0};
  std::mutex mutex;
  std::condition_variable start;
  bool go = false;
  std::chrono::steady_clock::time_point began;
  std::vector<std::thread> threads;
  for (int r = 0; r < kRequests; ++r) {
    threads.emplace_back([&, r] {
      rs::HttpClient client(server.port(), 20);
      {
        std::unique_lock<std::mutex> lock(mutex);
        start.wait(lock, [&] { return go; });
      }
      rs::HttpReply reply = send(client, r);
      load.answered_at[static_cast<std::size_t>(r)] =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
      if (reply.status == busy_status) ++busy;
      if (reply.status == 200) ++ok;
      load.replies[static_cast<std::size_t>(r)] = std::move(reply);
    });
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    began = std::chrono::steady_clock::now();
    go = true;
  }
  start.notify_all();
  // In the middle of the load (a refusal came, the accepted requests wait for their batch).
  if (rs::eventually([&] { return busy > 0; }, 20)) {
    load.health = server.get("/health");
    load.answered_before_health = ok;
  }
  for (auto& thread : threads) thread.join();
  return load;
}

// The checks both APIs share: every request answered 200 or `busy_status`; some of each;
// the refusals with Retry-After, a one-line JSON error, and sooner than any translation;
// /health 200 while accepted requests still waited; the refusals in /metrics.
void check_load(const rs::ServeProcess& server, const Load& load, int busy_status,
                const std::function<void(int, const rs::HttpReply&)>& check_ok) {
  int busy = 0, ok = 0;
  double latest_refusal = 0, first_answer = 1e9;
  for (int r = 0; r < kRequests; ++r) {
    const rs::HttpReply& reply = load.replies[static_cast<std::size_t>(r)];
    const double at = load.answered_at[static_cast<std::size_t>(r)];
    BOOST_TEST_CONTEXT("request " << r << ": " << reply.describe()) {
      BOOST_TEST((reply.status == 200 || reply.status == busy_status));
      if (reply.status == busy_status) {
        ++busy;
        latest_refusal = std::max(latest_refusal, at);
        BOOST_TEST(rs::error_reply_problem(reply, busy_status) == "");
        BOOST_TEST(reply.has_header("retry-after"));
        BOOST_TEST(std::atoi(reply.header("retry-after").c_str()) >= 1, "Retry-After: " << reply.header("retry-after"));
      } else if (reply.status == 200) {
        ++ok;
        first_answer = std::min(first_answer, at);
        check_ok(r, reply);
      }
    }
  }
  BOOST_TEST_MESSAGE(ok << " answered, " << busy << " refused with " << busy_status << "; the last refusal after "
                        << latest_refusal << " s, the first translation after " << first_answer << " s");
  BOOST_TEST(busy >= 1, "no request refused with --queue-size 4");
  BOOST_TEST(ok >= 1, "every request refused");
  BOOST_TEST(busy + ok == kRequests);
  // Refused at once: not after waiting in the queue as the accepted ones do (500 ms).
  BOOST_TEST(latest_refusal < first_answer, "a refusal came after a translation: it waited");
  BOOST_TEST(load.health.status == 200, "/health during the load: " << load.health.describe());
  BOOST_TEST(load.answered_before_health < ok, "/health answered only after every accepted request");
  std::string text;
  BOOST_TEST(rs::eventually([&] {
    text = server.get("/metrics").body;
    return rs::metric_value(text, "nmt_serve_rejections_total{reason=\"queue_full\"}").value_or(-1) == busy;
  }), "nmt_serve_rejections_total{reason=\"queue_full\"} is not " << busy << ":\n" << text);
}

// What the tools print for every line of every request, in request order.
std::vector<std::string> expected_translations() {
  const auto& m = rs::shared_model();
  std::vector<std::string> all;
  for (int r = 0; r < kRequests; ++r) {
    for (const auto& line : lines_of_request(r)) all.push_back(line);
  }
  return rs::cli_translations(m.model, m.codes, all);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(serve_overload)

BOOST_AUTO_TEST_CASE(a_full_queue_refuses_with_503_and_answers_the_rest_correctly) {
  const auto& m = rs::shared_model();
  const auto expected = expected_translations();
  rs::ServeProcess server(m.model, m.codes, kServerOptions);
  const Load load = run_load(server, 503, [](rs::HttpClient& client, int r) {
    return client.post("/v1/translate", json{{"text", lines_of_request(r)}}.dump());
  });
  check_load(server, load, 503, [&](int r, const rs::HttpReply& reply) {
    const json body = reply.json();
    const json translations = body.is_object() ? body.value("translations", json::array()) : json::array();
    BOOST_TEST_REQUIRE(translations.size() == static_cast<std::size_t>(kLinesPerRequest));
    for (int k = 0; k < kLinesPerRequest; ++k) {
      BOOST_TEST(translations[static_cast<std::size_t>(k)].value("text", "") ==
                 expected[static_cast<std::size_t>(r * kLinesPerRequest + k)]);
    }
  });
  // Once the load is over, a request goes through again.
  BOOST_TEST(server.serves());
}

BOOST_AUTO_TEST_CASE(libretranslate_says_429_when_busy) {
  const auto& m = rs::shared_model();
  const auto expected = expected_translations();
  rs::ServeProcess server(m.model, m.codes, kServerOptions);
  const Load load = run_load(server, 429, [](rs::HttpClient& client, int r) {
    return client.post("/translate", json{{"q", lines_of_request(r)}, {"source", "xa"}, {"target", "xb"}}.dump());
  });
  check_load(server, load, 429, [&](int r, const rs::HttpReply& reply) {
    const json texts = reply.json().value("translatedText", json::array());
    BOOST_TEST_REQUIRE(texts.size() == static_cast<std::size_t>(kLinesPerRequest));
    for (int k = 0; k < kLinesPerRequest; ++k) {
      BOOST_TEST(texts[static_cast<std::size_t>(k)] == expected[static_cast<std::size_t>(r * kLinesPerRequest + k)]);
    }
  });
  BOOST_TEST(server.serves());
}

// A request of more sentences than the whole queue holds (--max-lines lets it through:
// 1000 by default, the queue 256) can never be queued, however idle the server: "busy,
// retry later" (503 or 429 with Retry-After) would have its client retry forever. It must
// be translated, or refused as the client's error (4xx) naming the limit.
BOOST_AUTO_TEST_CASE(a_request_larger_than_the_whole_queue_is_not_told_to_retry) {
  const auto& m = rs::shared_model();
  rs::ServeProcess server(m.model, m.codes, kServerOptions);
  const json lines = {"w1", "w2", "w3", "w4", "w5"};  // 5 sentences, --queue-size 4, nothing queued
  const auto native = server.post("/v1/translate", json{{"text", lines}}.dump());
  BOOST_TEST_CONTEXT("/v1/translate: " << native.describe() << ", Retry-After '" << native.header("retry-after") << "'") {
    BOOST_TEST(native.status != 503);
    BOOST_TEST(!native.has_header("retry-after"));
    if (native.status >= 400) {
      BOOST_TEST(native.status < 500);
      BOOST_TEST(rs::error_reply_problem(native, native.status) == "");
      BOOST_TEST(native.body.find("--queue-size") != std::string::npos, "the refusal names no limit");
    }
  }
  const auto libre = server.post("/translate", json{{"q", lines}, {"source", "xa"}, {"target", "xb"}}.dump());
  BOOST_TEST_CONTEXT("/translate: " << libre.describe()) {
    BOOST_TEST(libre.status != 429);
    BOOST_TEST(libre.status != 503);
    BOOST_TEST(!libre.has_header("retry-after"));
    if (libre.status >= 400) BOOST_TEST(rs::error_reply_problem(libre, libre.status) == "");
  }
  BOOST_TEST(server.serves());
}

BOOST_AUTO_TEST_SUITE_END()
