#include "serve/server_run.h"

#include <signal.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <thread>

#include "serve/http_server.h"
#include "serve/service.h"
#include "util/number_format.h"

namespace rnnsearch::serve {

namespace {

// The signals and the drain, on the io_context.
class Lifecycle {
 public:
  Lifecycle(boost::asio::io_context& io, const ServeOptions& options, Service& service, HttpServer& server,
            const util::Messages& log)
      : io_(io), options_(options), service_(service), server_(server), log_(log), signals_(io), timer_(io) {
    for (const int number : {SIGINT, SIGTERM, SIGHUP}) signals_.add(number);
    wait_for_signal();
  }
  ~Lifecycle() {
    if (reloader_.joinable()) reloader_.join();
  }
  int exit_code() const { return cut_off_ ? 1 : 0; }

 private:
  void wait_for_signal() {
    signals_.async_wait([this](const boost::system::error_code& error, int number) {
      if (error) return;
      if (number == SIGHUP) {
        reload();
      } else if (!draining_) {
        drain(number);
      } else {
        log_.warn("signal " + std::to_string(number) + " again: stopping now, with requests still open");
        stop_now();
        return;
      }
      wait_for_signal();
    });
  }

  void reload() {
    if (reloading_.exchange(true)) return log_.warn("SIGHUP: a reload is still running; this one is ignored");
    if (reloader_.joinable()) reloader_.join();
    reloader_ = std::thread([this] {
      const std::string failure = service_.reload();
      if (failure.empty()) {
        log_.warn("SIGHUP: reloaded the models of " + std::to_string(options_.pairs.size()) + " pair(s)");
      } else {
        log_.warn("SIGHUP: keeping the models already loaded: " + failure);
      }
      reloading_ = false;
    });
  }

  void drain(int number) {
    draining_ = true;
    log_.warn(std::string(number == SIGINT ? "SIGINT" : "SIGTERM") + ": no new connections; answering the " +
              std::to_string(server_.requests_in_flight()) + " request(s) in flight within --drain-seconds " +
              util::general(options_.drain_seconds));
    service_.start_draining();
    server_.stop_accepting();
    deadline_ = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                       std::chrono::duration<double>(options_.drain_seconds));
    poll_drain();
  }

  void poll_drain() {
    if (server_.requests_in_flight() == 0 && service_.queued() == 0) return stop_now();
    if (std::chrono::steady_clock::now() >= deadline_) {
      log_.warn("--drain-seconds passed with " + std::to_string(server_.requests_in_flight()) +
                " request(s) unanswered: closing them");
      cut_off_ = true;
      return stop_now();
    }
    timer_.expires_after(std::chrono::milliseconds(20));
    timer_.async_wait([this](const boost::system::error_code& error) {
      if (!error) poll_drain();
    });
  }

  void stop_now() {
    if (server_.requests_in_flight() > 0) cut_off_ = true;
    signals_.cancel();
    timer_.cancel();
    service_.stop();
    server_.close_all();
    io_.stop();
  }

  boost::asio::io_context& io_;
  const ServeOptions& options_;
  Service& service_;
  HttpServer& server_;
  const util::Messages& log_;
  boost::asio::signal_set signals_;
  boost::asio::steady_timer timer_;
  std::chrono::steady_clock::time_point deadline_;
  bool draining_ = false, cut_off_ = false;
  std::atomic<bool> reloading_{false};
  std::thread reloader_;
};

}  // namespace

int serve(const ServeOptions& options, const util::Messages& log,
          const std::function<void(const std::string&)>& listening) {
  options.validate();
  Service service(options, log);
  boost::asio::io_context io;
  HttpServer server(io, options.host, static_cast<unsigned short>(options.port), options.http, service);
  service.set_connections([&server] { return server.open_connections(); });
  Lifecycle lifecycle(io, options, service, server, log);
  server.start();
  if (listening) listening(server.url());
  io.run();
  return lifecycle.exit_code();
}

}  // namespace rnnsearch::serve
