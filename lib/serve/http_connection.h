#pragma once
// The insides of HttpServer (serve/http_server.h), shared by its connection classes and
// not meant for other code: what the server and its connections share (ServerCore), the
// base of a connection (Session), and the HTTP connection's entry point.
//
// Threads: every connection's socket has a strand of the io_context as its executor, so
// the connection's handlers never run at once; what comes from other threads (a reply, a
// stop, a close) is posted onto that strand. The counters are atomics, the list of
// connections has a mutex.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "serve/http_server.h"

namespace rnnsearch::serve::detail {

class Session;

// Outlives the HttpServer while a connection (or a reply the handler still holds) needs it.
class ServerCore {
 public:
  ServerCore(boost::asio::io_context& io, HttpLimits limits, HttpHandler& handler)
      : io(io), limits(limits), handler_(handler) {}

  boost::asio::io_context& io;
  const HttpLimits limits;
  std::atomic<std::size_t> in_flight{0};  // requests and WebSocket messages read, reply not yet written
  std::atomic<std::size_t> open{0};       // accepted sockets not yet closed
  std::atomic<bool> stopping{false};      // stop_accepting() called: no new request after the one in flight

  // The handler, or null once the server is destroyed: the handler need not outlive the
  // server, and a reply that comes later must not reach it.
  HttpHandler* handler() { return destroyed_ ? nullptr : &handler_; }
  void completed(const std::string& method, const std::string& path, int status, double seconds);
  void destroy() { destroyed_ = true; }

  std::uint64_t enroll(std::weak_ptr<Session> session);
  void withdraw(std::uint64_t id);
  // The live connections. The caller drops them outside the lock: a last reference
  // dropped under it would withdraw (and lock) again.
  std::vector<std::shared_ptr<Session>> sessions();
  // Each connection's stop() or close(), on its strand, or here when no thread runs the
  // io_context any more (the server's destructor after io.run() returned).
  void stop_all();
  void close_all();

 private:
  void each_session(void (Session::*call)());

  HttpHandler& handler_;
  std::atomic<bool> destroyed_{false};
  std::mutex mutex_;
  std::uint64_t next_id_ = 0;
  std::unordered_map<std::uint64_t, std::weak_ptr<Session>> sessions_;
};

// Counts one accepted socket in ServerCore::open until released (closed); moves with the
// socket from the HTTP connection to the WebSocket session it becomes.
class OpenCount {
 public:
  explicit OpenCount(std::shared_ptr<ServerCore> core) : core_(std::move(core)) { ++core_->open; }
  OpenCount(OpenCount&& other) noexcept : core_(std::move(other.core_)) {}
  OpenCount& operator=(OpenCount&&) = delete;
  ~OpenCount() { release(); }
  void release() {
    if (core_) --core_->open;
    core_.reset();
  }

 private:
  std::shared_ptr<ServerCore> core_;
};

// An open connection, HTTP or WebSocket, as the server sees it for stop and close.
class Session : public std::enable_shared_from_this<Session> {
 public:
  virtual ~Session() { core_->withdraw(id_); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  virtual boost::asio::any_io_executor executor() = 0;
  // On the strand: end after the request or message in flight (now when there is none).
  virtual void stop() = 0;
  // On the strand: close the socket now.
  virtual void close() = 0;

 protected:
  explicit Session(std::shared_ptr<ServerCore> core) : core_(std::move(core)) {}
  // After construction (weak_from_this needs the owning shared_ptr).
  void enroll() { id_ = core_->enroll(weak_from_this()); }

  std::shared_ptr<ServerCore> core_;

 private:
  std::uint64_t id_ = 0;
};

// A steady-clock duration of `seconds`, capped at a year (a huge limit means "none").
std::chrono::steady_clock::duration seconds_duration(double seconds);
// Seconds since `since`.
double seconds_since(std::chrono::steady_clock::time_point since);
// "1.2.3.4:80" or "[::1]:80".
std::string endpoint_text(const boost::asio::ip::tcp::endpoint& endpoint);

// Serves an accepted socket (its executor a strand): the connection cap, then requests.
// `count` counts it in core->open already, so the cap sees it.
void serve_http(std::shared_ptr<ServerCore> core, boost::asio::ip::tcp::socket socket, OpenCount count);

}  // namespace rnnsearch::serve::detail
