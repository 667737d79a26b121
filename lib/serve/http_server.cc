#include "serve/http_server.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "serve/http_connection.h"
#include "util/error.h"

namespace rnnsearch::serve {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {

// After a failed accept (no descriptor left, say), the pause before the next: at once would spin.
constexpr auto kAcceptRetry = std::chrono::milliseconds(100);

// An IPv6 address in brackets, as a URL and "HOST:PORT" want it.
std::string bracketed(const std::string& host) {
  return host.find(':') != std::string::npos && host.front() != '[' ? "[" + host + "]" : host;
}

bool listen_at(tcp::acceptor& acceptor, const tcp::endpoint& endpoint, error_code& ec) {
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (!ec) return true;
  error_code ignored;
  acceptor.close(ignored);
  return false;
}

// Listens on the first of host's addresses that can be bound ("localhost" may give ::1 and
// 127.0.0.1; "" is every address).
void listen_on(tcp::acceptor& acceptor, asio::io_context& io, const std::string& host, unsigned short port) {
  error_code ec;
  tcp::resolver resolver(io);
  const auto flags = tcp::resolver::passive | tcp::resolver::numeric_service;
  const auto endpoints = resolver.resolve(host, std::to_string(port), flags, ec);
  if (!ec) {
    for (const auto& entry : endpoints) {
      if (listen_at(acceptor, entry.endpoint(), ec)) return;
    }
  }
  throw util::Error("cannot listen on " + bracketed(host) + ":" + std::to_string(port) + ": " + ec.message());
}

}  // namespace

// The listening side. Its handlers run on `strand`; stop_accepting() and the destructor,
// called from other threads, post onto it.
struct HttpServer::State : std::enable_shared_from_this<HttpServer::State> {
  State(asio::io_context& io, HttpLimits limits, HttpHandler& handler)
      : core(std::make_shared<detail::ServerCore>(io, limits, handler)),
        strand(asio::make_strand(io)),
        acceptor(strand),
        retry(strand) {}

  void accept() {
    // Each connection's socket gets a strand of its own: its handlers never run at once,
    // whichever threads run the io_context.
    acceptor.async_accept(asio::make_strand(core->io), [self = shared_from_this()](error_code ec, tcp::socket socket) {
      self->on_accept(ec, std::move(socket));
    });
  }

  void on_accept(error_code ec, tcp::socket socket) {
    if (!acceptor.is_open() || core->stopping || ec == asio::error::operation_aborted) return;
    if (ec) {
      retry.expires_after(kAcceptRetry);
      retry.async_wait([self = shared_from_this()](error_code e) {
        if (!e && self->acceptor.is_open()) self->accept();
      });
      return;
    }
    detail::serve_http(core, std::move(socket), detail::OpenCount(core));
    accept();
  }

  void close_acceptor() {
    error_code ignored;
    acceptor.close(ignored);
    retry.cancel();
  }

  std::shared_ptr<detail::ServerCore> core;
  asio::strand<asio::io_context::executor_type> strand;
  tcp::acceptor acceptor;
  asio::steady_timer retry;
  std::string host;
  unsigned short port = 0;
};

HttpServer::HttpServer(asio::io_context& io, const std::string& host, unsigned short port, HttpLimits limits,
                       HttpHandler& handler)
    : state_(std::make_shared<State>(io, limits, handler)) {
  listen_on(state_->acceptor, io, host, port);
  state_->host = host;
  state_->port = state_->acceptor.local_endpoint().port();
}

// Connections (and replies the handler still holds) may outlive the server: they keep the
// core, but call the handler no more. With no thread in io.run() (it has returned), the
// sockets close here; else on their strands.
HttpServer::~HttpServer() {
  detail::ServerCore& core = *state_->core;
  core.destroy();
  core.stopping = true;
  if (core.io.stopped()) {
    state_->close_acceptor();
    core.close_all();
  } else {
    asio::post(state_->strand, [state = state_] {
      state->close_acceptor();
      state->core->close_all();
    });
  }
}

unsigned short HttpServer::port() const { return state_->port; }

std::string HttpServer::url() const { return "http://" + bracketed(state_->host) + ":" + std::to_string(state_->port); }

void HttpServer::start() {
  asio::post(state_->strand, [state = state_] { state->accept(); });
}

void HttpServer::stop_accepting() {
  state_->core->stopping = true;  // at once: a request completed from now on gets the last reply
  asio::post(state_->strand, [state = state_] {
    state->close_acceptor();
    state->core->stop_all();
  });
}

std::size_t HttpServer::requests_in_flight() const { return state_->core->in_flight; }

std::size_t HttpServer::open_connections() const { return state_->core->open; }

void HttpServer::close_all() { state_->core->close_all(); }

}  // namespace rnnsearch::serve
