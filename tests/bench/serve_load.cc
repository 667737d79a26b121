// Benchmark client (not a test): loads nmt-serve's POST /v1/translate on 127.0.0.1 with one
// sentence per request, {"text": LINE, "input": "pieces"}, line after line of --input (BPE
// pieces, cycled), over keep-alive connections, then prints the replies' statuses, the
// sentences translated per second, latency percentiles and how many translations differ
// from --expected (the same lines translated by nmt-decode: line K of one, line K of the
// other). Used by scripts/bench-serve.sh.
//
//   build/bench/serve_load --port PORT --input test.bpe.de [--expected test.out]
//                          [--connections C | --rate R [--pool P]]
//                          [--requests N] [--seconds S] [--timeout S] [--show K]
// Closed loop (--connections C, default 8): C connections, each sending its next request
// when its reply has come. Open loop (--rate R): a request every 1/R seconds on the free
// connection of a pool of P (default 256, all opened first) that has been free longest
// (round robin; one the server closed is opened again first); a request due when every
// connection of the pool waits for its reply is not sent and is counted as client backlog.
// In the open loop a latency runs from the moment the request was due (so a late client
// shows in it), in the closed loop from its sending. Both stop after N requests (default
// 1000) or S seconds (default 60), whichever comes first, and then wait at most --timeout
// seconds (default 30: also the bound of each request) for the replies still out, which
// are counted as unanswered: the program always ends by itself.
// The last line is machine-readable:
//   RESULT sent= ok= rejected= other= errors= unanswered= backlog= mismatches= seconds=
//          sentences_per_second= p50_ms= p99_ms= max_ms= rejected_p50_ms= rejected_p99_ms=
// ok: 200 replies; rejected: 503; other: any other status; errors: connections that failed
// (reset, timeout); mismatches: 200 replies whose "pieces" differ from --expected (or that
// are not the JSON of /v1/translate); sentences_per_second: ok over the seconds from the
// first request to the last reply. Exit status 0 when it ran, 1 when it could not connect
// or read its files, 2 for a usage error.
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "util/line_reader.h"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  unsigned short port = 0;
  std::string path = "/v1/translate", input, expected;
  int connections = 8;
  double rate = 0;  // > 0: open loop
  int pool = 256;
  long requests = 1000;
  double seconds = 60, timeout = 30;
  int show = 3;  // mismatches and unexpected replies printed on stderr
};

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double percentile(std::vector<double>& values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100 * static_cast<double>(values.size())));
  return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

class Load {
 public:
  Load(const Options& options, std::vector<std::string> lines, std::vector<std::string> expected)
      : options_(options), expected_(std::move(expected)), timer_(io_), stop_timer_(io_) {
    for (const auto& line : lines) bodies_.push_back(nlohmann::json{{"text", line}, {"input", "pieces"}}.dump());
    const int count = open_loop() ? options_.pool : options_.connections;
    for (int i = 0; i < count; ++i) connections_.push_back(std::make_unique<Connection>(io_));
  }

  // Returns false when the connections could not be opened.
  bool run() {
    endpoint_ = tcp::endpoint(asio::ip::make_address("127.0.0.1"), options_.port);
    for (auto& c : connections_) {
      beast::error_code ec;
      c->stream.socket().connect(endpoint_, ec);  // before the clock starts
      if (ec) {
        std::fprintf(stderr, "serve_load: cannot connect to 127.0.0.1:%u: %s\n", options_.port, ec.message().c_str());
        return false;
      }
      c->stream.socket().set_option(tcp::no_delay(true));
    }
    start_ = Clock::now();
    last_reply_ = start_;
    deadline_ = start_ + seconds(options_.seconds);
    // The hard end: the run's seconds, then --timeout for the replies still out.
    stop_timer_.expires_at(deadline_ + seconds(options_.timeout));
    stop_timer_.async_wait([this](beast::error_code ec) {
      if (!ec) finish();
    });
    if (open_loop()) {
      for (auto& c : connections_) free_.push_back(c.get());
      tick();
    } else {
      for (auto& c : connections_) next(*c);
    }
    io_.run();
    return true;
  }

  void report() {
    const long ok = count(200), rejected = count(503);
    long other = 0;
    for (const auto& [status, n] : statuses_) {
      if (status != 200 && status != 503) other += n;
    }
    const double elapsed = std::chrono::duration<double>(last_reply_ - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(ok) / elapsed : 0;
    const double p50 = percentile(ok_ms_, 50), p90 = percentile(ok_ms_, 90), p99 = percentile(ok_ms_, 99);
    const double max = ok_ms_.empty() ? 0 : *std::max_element(ok_ms_.begin(), ok_ms_.end());
    const double r50 = percentile(rejected_ms_, 50), r99 = percentile(rejected_ms_, 99);
    if (open_loop()) {
      std::printf("serve_load: open loop, %.1f requests/s offered on a pool of %d connections; %ld sent\n",
                  options_.rate, options_.pool, sent_);
    } else {
      std::printf("serve_load: closed loop, %d connections; %ld sent\n", options_.connections, sent_);
    }
    std::printf("  statuses:");
    for (const auto& [status, n] : statuses_) std::printf(" %d: %ld", status, n);
    std::printf("; transport errors %ld, unanswered %ld, client backlog %ld\n", errors_, unanswered_, backlog_);
    std::printf("  200: %.1f sentences/s over %.2f s; latency ms p50 %.1f, p90 %.1f, p99 %.1f, max %.1f\n", rate,
                elapsed, p50, p90, p99, max);
    if (rejected > 0) std::printf("  503: latency ms p50 %.1f, p99 %.1f\n", r50, r99);
    if (!expected_.empty()) std::printf("  translations differing from --expected: %ld of %ld\n", mismatches_, ok);
    std::printf("RESULT sent=%ld ok=%ld rejected=%ld other=%ld errors=%ld unanswered=%ld backlog=%ld mismatches=%ld "
                "seconds=%.3f sentences_per_second=%.1f p50_ms=%.2f p99_ms=%.2f max_ms=%.2f rejected_p50_ms=%.2f "
                "rejected_p99_ms=%.2f\n",
                sent_, ok, rejected, other, errors_, unanswered_, backlog_, mismatches_, elapsed, rate, p50, p99, max,
                r50, r99);
  }

 private:
  struct Connection {
    explicit Connection(asio::io_context& io) : stream(io) {}
    beast::tcp_stream stream;
    beast::flat_buffer buffer;
    http::request<http::string_body> request;
    std::optional<http::response_parser<http::string_body>> parser;
    std::size_t index = 0;   // the request's line of --input
    Clock::time_point sent;  // or, in the open loop, when it was due
    bool busy = false;
  };

  static Clock::duration seconds(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }
  bool open_loop() const { return options_.rate > 0; }
  bool may_send() const { return !finished_ && sent_ < options_.requests && Clock::now() < deadline_; }
  long count(int status) const {
    const auto it = statuses_.find(status);
    return it == statuses_.end() ? 0 : it->second;
  }

  void send(Connection& c, std::size_t index, Clock::time_point due) {
    c.busy = true;
    c.index = index;
    c.sent = due;
    ++sent_;
    ++in_flight_;
    c.request = http::request<http::string_body>(http::verb::post, options_.path, 11);
    c.request.set(http::field::host, "127.0.0.1:" + std::to_string(options_.port));
    c.request.set(http::field::content_type, "application/json");
    c.request.keep_alive(true);
    c.request.body() = bodies_[index % bodies_.size()];
    c.request.prepare_payload();
    c.stream.expires_after(seconds(options_.timeout));
    http::async_write(c.stream, c.request, [this, &c](beast::error_code ec, std::size_t) {
      if (ec) return replied(c, ec);
      c.parser.emplace();
      c.parser->body_limit(64 << 20);
      http::async_read(c.stream, c.buffer, *c.parser, [this, &c](beast::error_code ec, std::size_t) { replied(c, ec); });
    });
  }

  void replied(Connection& c, beast::error_code ec) {
    if (!c.busy) return;  // answered already (finish() counted it unanswered)
    c.busy = false;
    --in_flight_;
    const auto now = Clock::now();
    if (ec) {
      ++errors_;
      if (errors_ <= options_.show) {
        std::fprintf(stderr, "serve_load: request for line %zu: %s\n", c.index % bodies_.size() + 1,
                     ec.message().c_str());
      }
      return reconnect(c);
    }
    last_reply_ = now;
    const auto& reply = c.parser->get();
    const int status = reply.result_int();
    ++statuses_[status];
    const double latency = ms(now - c.sent);
    if (status == 200) {
      ok_ms_.push_back(latency);
      check(c.index, reply.body());
    } else {
      if (status == 503) rejected_ms_.push_back(latency);
      if (shown_[status]++ < 1) {
        std::fprintf(stderr, "serve_load: status %d for line %zu: %s\n", status, c.index % bodies_.size() + 1,
                     reply.body().c_str());
      }
    }
    if (!reply.keep_alive()) return reconnect(c);
    next(c);
  }

  void check(std::size_t index, const std::string& body) {
    if (expected_.empty()) return;
    const std::size_t line = index % expected_.size();
    const auto json = nlohmann::json::parse(body, nullptr, false);
    std::string pieces;
    bool valid = false;
    if (json.is_object() && json.contains("translations") && json["translations"].is_array() &&
        !json["translations"].empty() && json["translations"][0].contains("pieces") &&
        json["translations"][0]["pieces"].is_string()) {
      pieces = json["translations"][0]["pieces"].get<std::string>();
      valid = true;
    }
    if (valid && pieces == expected_[line]) return;
    if (++mismatches_ <= options_.show) {
      std::fprintf(stderr, "serve_load: line %zu: got %s\n  expected: %s\n", line + 1,
                   valid ? pieces.c_str() : ("a reply without translations[0].pieces: " + body).c_str(),
                   expected_[line].c_str());
    }
  }

  // A connection the server closed (or that failed) is opened again before its next request.
  void reconnect(Connection& c) {
    beast::error_code ignored;
    c.stream.socket().close(ignored);
    c.buffer.clear();
    if (finished_) return;
    c.busy = true;  // not free while connecting
    c.stream.expires_after(seconds(options_.timeout));
    c.stream.async_connect(endpoint_, [this, &c](beast::error_code ec) {
      c.busy = false;
      if (finished_) return;
      if (ec) {
        ++errors_;
        std::fprintf(stderr, "serve_load: cannot connect again: %s\n", ec.message().c_str());
        return done_if_idle();  // this connection stays closed
      }
      c.stream.socket().set_option(tcp::no_delay(true), ec);
      next(c);
    });
  }

  void next(Connection& c) {
    if (open_loop()) {
      free_.push_back(&c);
    } else if (may_send()) {
      send(c, next_line_++, Clock::now());
      return;
    }
    done_if_idle();
  }

  // The open loop's clock: every request due by now goes out on a free connection.
  void tick() {
    if (finished_) return;
    const auto now = Clock::now();
    while (scheduled_ < options_.requests && now < deadline_) {
      const auto due = start_ + seconds(static_cast<double>(scheduled_) / options_.rate);
      if (due > now) break;
      const std::size_t index = static_cast<std::size_t>(scheduled_++);
      if (free_.empty()) {
        ++backlog_;
        continue;
      }
      Connection* c = free_.front();
      free_.pop_front();
      send(*c, index, due);
    }
    if (scheduled_ >= options_.requests || Clock::now() >= deadline_) {
      scheduling_ = false;
      return done_if_idle();
    }
    timer_.expires_at(start_ + seconds(static_cast<double>(scheduled_) / options_.rate));
    timer_.async_wait([this](beast::error_code ec) {
      if (!ec) tick();
    });
  }

  void done_if_idle() {
    if (in_flight_ > 0 || finished_) return;
    if (open_loop() ? scheduling_ : may_send()) return;
    for (const auto& c : connections_) {
      if (c->busy) return;  // reconnecting
    }
    finish();
  }

  void finish() {
    if (finished_) return;
    finished_ = true;
    unanswered_ += in_flight_;
    in_flight_ = 0;
    for (auto& c : connections_) {
      c->busy = false;
      beast::error_code ignored;
      c->stream.socket().close(ignored);
    }
    timer_.cancel();
    stop_timer_.cancel();
    io_.stop();
  }

  const Options options_;
  std::vector<std::string> bodies_, expected_;
  asio::io_context io_;  // before the connections: they go first
  asio::steady_timer timer_, stop_timer_;
  std::vector<std::unique_ptr<Connection>> connections_;
  std::deque<Connection*> free_;  // round robin: the longest free goes first
  tcp::endpoint endpoint_;
  Clock::time_point start_, deadline_, last_reply_;
  long sent_ = 0, scheduled_ = 0, in_flight_ = 0, errors_ = 0, unanswered_ = 0, backlog_ = 0, mismatches_ = 0;
  std::size_t next_line_ = 0;
  bool scheduling_ = true, finished_ = false;
  std::map<int, long> statuses_, shown_;
  std::vector<double> ok_ms_, rejected_ms_;
};

int usage() {
  std::fprintf(stderr, "usage: serve_load --port PORT --input FILE [--expected FILE] [--path /v1/translate] "
                       "[--connections C | --rate R [--pool P]] [--requests N] [--seconds S] [--timeout S] "
                       "[--show K]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) return usage();
    const std::string value = argv[i + 1];
    if (flag == "--port") options.port = static_cast<unsigned short>(std::atoi(value.c_str()));
    else if (flag == "--path") options.path = value;
    else if (flag == "--input") options.input = value;
    else if (flag == "--expected") options.expected = value;
    else if (flag == "--connections") options.connections = std::atoi(value.c_str());
    else if (flag == "--rate") options.rate = std::atof(value.c_str());
    else if (flag == "--pool") options.pool = std::atoi(value.c_str());
    else if (flag == "--requests") options.requests = std::atol(value.c_str());
    else if (flag == "--seconds") options.seconds = std::atof(value.c_str());
    else if (flag == "--timeout") options.timeout = std::atof(value.c_str());
    else if (flag == "--show") options.show = std::atoi(value.c_str());
    else return usage();
  }
  if (options.port == 0 || options.input.empty() || options.connections < 1 || options.pool < 1 ||
      options.requests < 1 || options.seconds <= 0 || options.timeout <= 0 || options.rate < 0) {
    return usage();
  }
  try {
    std::vector<std::string> lines = rnnsearch::util::read_lines(options.input), expected;
    if (lines.empty()) throw std::runtime_error(options.input + " has no lines");
    if (!options.expected.empty()) {
      expected = rnnsearch::util::read_lines(options.expected);
      if (expected.size() != lines.size()) {
        throw std::runtime_error(options.expected + " has " + std::to_string(expected.size()) + " lines, " +
                                 options.input + " " + std::to_string(lines.size()));
      }
    }
    Load load(options, std::move(lines), std::move(expected));
    if (!load.run()) return 1;
    load.report();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "serve_load: %s\n", e.what());
    return 1;
  }
}
