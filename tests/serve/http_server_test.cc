// serve::HttpServer over 127.0.0.1: HTTP/1.1 round trips with keep-alive and pipelining,
// what the transport refuses itself (413, 431, 408, 400, 503) and that it goes on serving
// after each, the cancellation flag of a request whose client has gone, WebSocket text
// messages and what closes a WebSocket (binary, too big, a stop), and stop_accepting()'s
// drain. Every client read is bounded by a watchdog, so a test fails instead of hanging.
#include <boost/test/unit_test.hpp>

#include <sys/socket.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "serve/http_server.h"
#include "util/error.h"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using rnnsearch::serve::CancelFlag;
using rnnsearch::serve::HttpHandler;
using rnnsearch::serve::HttpLimits;
using rnnsearch::serve::HttpRequest;
using rnnsearch::serve::HttpResponse;
using rnnsearch::serve::HttpServer;
using rnnsearch::serve::Respond;
using Clock = std::chrono::steady_clock;

namespace {

// Whether `condition` holds within `seconds` (polled).
bool eventually(const std::function<bool()>& condition, double seconds = 2) {
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  while (!condition()) {
    if (Clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Echoes a request as JSON-ish text. "/hold" (and the WebSocket message "hold") is kept
// until release(); "/later" is answered from another thread 100 ms on.
class FakeHandler : public HttpHandler {
 public:
  ~FakeHandler() override {
    for (auto& thread : threads_) thread.join();
  }

  void handle(HttpRequest request, CancelFlag cancelled, Respond respond) override {
    HttpResponse reply;
    reply.content_type = "text/plain";
    reply.body = "{\"method\":\"" + request.method + "\",\"path\":\"" + request.path + "\",\"query\":\"" +
                 request.query + "\",\"body\":\"" + request.body + "\",\"x-test\":\"" + header(request, "x-test") +
                 "\"}";
    if (request.path == "/hold") return hold(std::move(cancelled), std::move(respond));
    if (request.path == "/later") {
      std::lock_guard<std::mutex> lock(mutex_);
      threads_.emplace_back([reply, respond] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        respond(reply);
      });
      return;
    }
    respond(reply);
  }

  HttpResponse websocket_upgrade(const HttpRequest& upgrade) override {
    if (upgrade.path == "/ws") return HttpResponse{0, "", "", {}};
    return error(404, "no WebSocket at " + upgrade.path);
  }

  void websocket_message(const HttpRequest&, std::string message, CancelFlag cancelled, Respond respond) override {
    if (message == "hold") return hold(std::move(cancelled), std::move(respond));
    HttpResponse reply;
    reply.body = "echo:" + message;
    respond(reply);
    respond(reply);  // a second call is ignored
  }

  HttpResponse error(int status, const std::string& message) const override {
    return HttpResponse{status, "application/json", "{\"error\":\"" + message + "\"}", {}};
  }

  void completed(const std::string& method, const std::string& path, int status, double) override {
    std::lock_guard<std::mutex> lock(mutex_);
    completions_.push_back(method + " " + path + " " + std::to_string(status));
  }

  bool holding() {
    std::lock_guard<std::mutex> lock(mutex_);
    return held_respond_ != nullptr;
  }
  bool held_cancelled() {
    std::lock_guard<std::mutex> lock(mutex_);
    return held_flag_ && *held_flag_;
  }
  // Answers the held request from this (the test's) thread.
  void release(const std::string& body) {
    Respond respond;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      respond = std::move(held_respond_);
      held_respond_ = nullptr;
    }
    BOOST_TEST_REQUIRE(static_cast<bool>(respond));
    respond(HttpResponse{200, "text/plain", body, {}});
  }
  bool completed_with(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::find(completions_.begin(), completions_.end(), line) != completions_.end();
  }

 private:
  static std::string header(const HttpRequest& request, const std::string& name) {
    const auto found = request.headers.find(name);
    return found == request.headers.end() ? "" : found->second;
  }
  void hold(CancelFlag cancelled, Respond respond) {
    std::lock_guard<std::mutex> lock(mutex_);
    held_flag_ = std::move(cancelled);
    held_respond_ = std::move(respond);
  }

  std::mutex mutex_;
  std::vector<std::thread> threads_;
  std::vector<std::string> completions_;
  CancelFlag held_flag_;
  Respond held_respond_;
};

// A server on 127.0.0.1, port 0, its io_context run by two threads (as nmt-serve may run
// it: the strands are what keeps each connection's handlers apart) until the end.
struct Served {
  explicit Served(HttpLimits limits = {}) : server(io, "127.0.0.1", 0, limits, handler) {
    server.start();
    for (auto& thread : threads) thread = std::thread([this] { io.run(); });
  }
  ~Served() {
    io.stop();
    for (auto& thread : threads) thread.join();
  }
  asio::io_context io;
  asio::executor_work_guard<asio::io_context::executor_type> work{io.get_executor()};
  FakeHandler handler;
  HttpServer server;
  std::thread threads[2];
};

// Ends a blocked read after `seconds` (shutting the socket down: the read sees EOF), so a
// test that waits for what never comes fails instead of hanging. fired() says it did.
class Watchdog {
 public:
  Watchdog(int fd, double seconds)
      : thread_([this, fd, seconds] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; })) return;
          fired_ = true;
          ::shutdown(fd, SHUT_RDWR);
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  bool fired() const { return fired_; }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::atomic<bool> fired_{false};
  std::thread thread_;  // last: it uses the members above
};

// A blocking HTTP client on one connection (Beast's synchronous API).
struct Client {
  explicit Client(unsigned short port, double seconds = 5)
      : socket(connected(io, port)), watchdog(socket.native_handle(), seconds) {}

  static tcp::socket connected(asio::io_context& io, unsigned short port) {
    tcp::socket socket(io);
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    return socket;
  }
  void send(const std::string& bytes) { asio::write(socket, asio::buffer(bytes)); }
  http::response<http::string_body> read() {
    http::response<http::string_body> response;
    http::read(socket, buffer, response);
    return response;
  }
  http::response<http::string_body> request(http::verb method, const std::string& target, const std::string& body = "",
                                            unsigned version = 11) {
    http::request<http::string_body> request(method, target, version);
    request.set(http::field::host, "127.0.0.1");
    request.set("X-Test", "a");
    request.insert("X-Test", "b");
    if (method == http::verb::post) request.body() = body;
    request.prepare_payload();
    http::write(socket, request);
    return read();
  }
  // Whether the server closes the connection (EOF or reset) before the watchdog fires.
  bool closed_by_server() {
    char byte;
    error_code ec;
    while (!ec) socket.read_some(asio::buffer(&byte, 1), ec);
    return (ec == asio::error::eof || ec == asio::error::connection_reset) && !watchdog.fired();
  }

  asio::io_context io;
  tcp::socket socket;
  beast::flat_buffer buffer;
  Watchdog watchdog;
};

// A blocking WebSocket client.
struct WsClient {
  explicit WsClient(unsigned short port)
      : port(port), ws(Client::connected(io, port)), watchdog(ws.next_layer().native_handle(), 5) {}
  void handshake(const std::string& target) { ws.handshake("127.0.0.1:" + std::to_string(port), target); }
  std::string exchange(const std::string& text) {
    ws.text(true);
    ws.write(asio::buffer(text));
    return read();
  }
  std::string read() {
    beast::flat_buffer buffer;
    ws.read(buffer);
    return beast::buffers_to_string(buffer.data());
  }
  // Reads until the server's close; its code (0 when the read ended otherwise).
  int close_code() {
    beast::flat_buffer buffer;
    error_code ec;
    while (!ec) ws.read(buffer, ec);
    return ec == websocket::error::closed && !watchdog.fired() ? static_cast<int>(ws.reason().code) : 0;
  }

  unsigned short port;
  asio::io_context io;
  websocket::stream<tcp::socket> ws;
  Watchdog watchdog;
};

// The server still answers a good request on a new connection.
void check_serves(Served& served) {
  Client client(served.server.port());
  const auto response = client.request(http::verb::get, "/echo?after=1");
  BOOST_TEST(response.result_int() == 200);
  BOOST_TEST(response.body().find("\"query\":\"after=1\"") != std::string::npos);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(http_server)

BOOST_AUTO_TEST_CASE(get_and_post_on_one_kept_alive_connection) {
  Served served;
  Client client(served.server.port());
  auto get = client.request(http::verb::get, "/echo?a=1&b=2");
  BOOST_TEST(get.result_int() == 200);
  BOOST_TEST(get.keep_alive());
  BOOST_TEST(get[http::field::server] == "nmt-serve");
  BOOST_TEST(get[http::field::content_type] == "text/plain");
  BOOST_TEST(get.body() ==
             "{\"method\":\"GET\",\"path\":\"/echo\",\"query\":\"a=1&b=2\",\"body\":\"\",\"x-test\":\"a, b\"}");
  auto post = client.request(http::verb::post, "/echo", "hello");
  BOOST_TEST(post.result_int() == 200);
  BOOST_TEST(post.body().find("\"method\":\"POST\"") != std::string::npos);
  BOOST_TEST(post.body().find("\"body\":\"hello\"") != std::string::npos);
  BOOST_TEST(eventually([&] { return served.handler.completed_with("POST /echo 200"); }));
  BOOST_TEST(served.handler.completed_with("GET /echo 200"));
  BOOST_TEST(served.server.open_connections() == 1u);
}

BOOST_AUTO_TEST_CASE(pipelined_requests_and_a_reply_from_another_thread) {
  Served served;
  Client client(served.server.port());
  client.send("GET /later?n=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?n=2 HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto first = client.read();
  const auto second = client.read();
  BOOST_TEST(first.body().find("\"query\":\"n=1\"") != std::string::npos);
  BOOST_TEST(second.body().find("\"query\":\"n=2\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(http_1_0_is_closed_after_its_reply) {
  Served served;
  Client client(served.server.port());
  const auto response = client.request(http::verb::get, "/echo", "", 10);
  BOOST_TEST(response.result_int() == 200);
  BOOST_TEST(client.closed_by_server());
}

BOOST_AUTO_TEST_CASE(head_gets_the_length_without_the_body) {
  Served served;
  Client client(served.server.port());
  client.send("GET /echo HTTP/1.1\r\nHost: x\r\n\r\n");
  const std::string get_body = client.read().body();
  client.send("HEAD /echo HTTP/1.1\r\nHost: x\r\n\r\n");
  http::response_parser<http::string_body> head;
  head.skip(true);  // a reply to HEAD: its Content-Length, and no body
  http::read(client.socket, client.buffer, head);
  BOOST_TEST(head.get().result_int() == 200);
  BOOST_TEST(head.get()[http::field::content_length] == std::to_string(get_body.size() + 1));  // "HEAD" is one longer
  // No body bytes came: the next reply on the connection reads whole.
  client.send("GET /echo HTTP/1.1\r\nHost: x\r\n\r\n");
  BOOST_TEST(client.read().body() == get_body);
}

BOOST_AUTO_TEST_CASE(a_body_after_expect_100_continue) {
  Served served;
  Client client(served.server.port());
  client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
  http::response<http::empty_body> interim;
  http::read(client.socket, client.buffer, interim);
  BOOST_TEST(interim.result_int() == 100);
  client.send("hello");
  const auto response = client.read();
  BOOST_TEST(response.result_int() == 200);
  BOOST_TEST(response.body().find("\"body\":\"hello\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(port_0_gives_a_real_port_and_a_taken_port_is_an_error) {
  Served served;
  BOOST_TEST(served.server.port() != 0);
  BOOST_TEST(served.server.url() == "http://127.0.0.1:" + std::to_string(served.server.port()));
  FakeHandler handler;
  const std::string taken = "cannot listen on 127.0.0.1:" + std::to_string(served.server.port()) + ": ";
  try {
    HttpServer second(served.io, "127.0.0.1", served.server.port(), HttpLimits{}, handler);
    BOOST_FAIL("a second server on a taken port");
  } catch (const rnnsearch::util::Error& e) {
    BOOST_TEST(std::string(e.what()).rfind(taken, 0) == 0, e.what());
  }
  check_serves(served);
}

BOOST_AUTO_TEST_CASE(a_body_over_the_limit_is_413_and_closed) {
  HttpLimits limits;
  limits.max_body_bytes = 100;
  Served served(limits);
  Client client(served.server.port());
  const auto response = client.request(http::verb::post, "/echo", std::string(200, 'x'));
  BOOST_TEST(response.result_int() == 413);
  BOOST_TEST(!response.keep_alive());
  BOOST_TEST(response.body() == "{\"error\":\"request body over 100 bytes\"}");
  BOOST_TEST(client.closed_by_server());
  BOOST_TEST(eventually([&] { return served.handler.completed_with("POST /echo 413"); }));
  // A chunked body has no Content-Length to refuse it by: it is refused as it goes over.
  Client chunked(served.server.port());
  chunked.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n50\r\n" + std::string(80, 'y') +
               "\r\n50\r\n" + std::string(80, 'y') + "\r\n0\r\n\r\n");
  BOOST_TEST(chunked.read().result_int() == 413);
  check_serves(served);
}

BOOST_AUTO_TEST_CASE(headers_over_the_limit_are_431) {
  HttpLimits limits;
  limits.max_header_bytes = 1024;
  Served served(limits);
  Client client(served.server.port());
  client.send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(4000, 'z') + "\r\n\r\n");
  const auto response = client.read();
  BOOST_TEST(response.result_int() == 431);
  BOOST_TEST(client.closed_by_server());
  // The path when the request line parsed before the limit struck, else "".
  BOOST_TEST(
      eventually([&] { return served.handler.completed_with("GET / 431") || served.handler.completed_with("  431"); }));
  check_serves(served);
}

BOOST_AUTO_TEST_CASE(headers_or_a_body_that_never_end_are_408) {
  HttpLimits limits;
  limits.header_seconds = 0.3;
  limits.body_seconds = 0.3;
  Served served(limits);
  const auto started = Clock::now();
  Client headers(served.server.port());
  headers.send("GET / HTTP/1.1\r\nHost: x\r\n");
  const auto late_headers = headers.read();
  BOOST_TEST(late_headers.result_int() == 408);
  BOOST_TEST(late_headers[http::field::connection] == "close");
  BOOST_TEST(late_headers.body() == "{\"error\":\"request headers not complete within 0.3 s\"}");
  BOOST_TEST(headers.closed_by_server());
  Client body(served.server.port());
  body.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc");
  const auto late_body = body.read();
  BOOST_TEST(late_body.result_int() == 408);
  BOOST_TEST(late_body.body() == "{\"error\":\"request body not complete within 0.3 s\"}");
  BOOST_TEST(std::chrono::duration<double>(Clock::now() - started).count() < 3);
  BOOST_TEST(eventually([&] { return served.handler.completed_with("POST /echo 408"); }));
  check_serves(served);
}

BOOST_AUTO_TEST_CASE(an_idle_connection_closes_quietly) {
  HttpLimits limits;
  limits.idle_seconds = 0.3;
  Served served(limits);
  Client client(served.server.port());
  BOOST_TEST(client.request(http::verb::get, "/echo").result_int() == 200);
  BOOST_TEST(client.closed_by_server());  // no 408: no byte of a next request came
  BOOST_TEST(eventually([&] { return served.server.open_connections() == 0; }));
  check_serves(served);
}

BOOST_AUTO_TEST_CASE(garbage_is_400) {
  Served served;
  Client client(served.server.port());
  client.send("hello\r\n\r\n");
  const auto response = client.read();
  BOOST_TEST(response.result_int() == 400);
  BOOST_TEST(response.body().rfind("{\"error\":\"bad HTTP request: ", 0) == 0, response.body());
  BOOST_TEST(client.closed_by_server());
  check_serves(served);
}

BOOST_AUTO_TEST_CASE(a_connection_over_the_cap_is_503_with_retry_after) {
  HttpLimits limits;
  limits.max_connections = 2;
  Served served(limits);
  {
    Client first(served.server.port()), second(served.server.port());
    BOOST_TEST(first.request(http::verb::get, "/echo").result_int() == 200);  // both accepted and kept
    BOOST_TEST(second.request(http::verb::get, "/echo").result_int() == 200);
    BOOST_TEST(served.server.open_connections() == 2u);
    Client third(served.server.port());
    const auto response = third.request(http::verb::get, "/echo");
    BOOST_TEST(response.result_int() == 503);
    BOOST_TEST(response[http::field::retry_after] == "1");
    BOOST_TEST(response.body() == "{\"error\":\"too many connections (limit 2)\"}");
    BOOST_TEST(third.closed_by_server());
  }
  BOOST_TEST(eventually([&] { return served.server.open_connections() == 0; }));
  check_serves(served);
}

BOOST_AUTO_TEST_CASE(a_client_gone_before_its_reply_has_its_request_cancelled) {
  Served served;
  {
    Client client(served.server.port());
    client.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n");
    BOOST_TEST_REQUIRE(eventually([&] { return served.handler.holding(); }));
    BOOST_TEST(served.server.requests_in_flight() == 1u);
    BOOST_TEST(!served.handler.held_cancelled());
  }
  BOOST_TEST(eventually([&] { return served.handler.held_cancelled(); }));
  served.handler.release("late");  // written to nobody, harmlessly
  BOOST_TEST(eventually([&] { return served.server.requests_in_flight() == 0; }));
  BOOST_TEST(eventually([&] { return served.handler.completed_with("GET /hold 200"); }));
  BOOST_TEST(eventually([&] { return served.server.open_connections() == 0; }));
  check_serves(served);
}

BOOST_AUTO_TEST_CASE(a_half_closed_client_still_gets_its_reply) {
  Served served;
  Client client(served.server.port());
  client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n");
  client.socket.shutdown(tcp::socket::shutdown_send);
  const auto response = client.read();
  BOOST_TEST(response.result_int() == 200);
  BOOST_TEST(!response.keep_alive());
  BOOST_TEST(client.closed_by_server());
  check_serves(served);
}

BOOST_AUTO_TEST_CASE(websocket_text_messages_round_trip) {
  Served served;
  WsClient client(served.server.port());
  client.handshake("/ws");
  BOOST_TEST(client.exchange("hello") == "echo:hello");
  BOOST_TEST(client.exchange("again") == "echo:again");
  BOOST_TEST(eventually([&] { return served.handler.completed_with("WS /ws 200"); }));
  client.ws.close(websocket::close_code::normal);
  BOOST_TEST(eventually([&] { return served.server.open_connections() == 0; }));
}

BOOST_AUTO_TEST_CASE(a_binary_websocket_message_closes_with_1003) {
  Served served;
  WsClient client(served.server.port());
  client.handshake("/ws");
  client.ws.binary(true);
  client.ws.write(asio::buffer(std::string("\x01\x02")));
  BOOST_TEST(client.close_code() == 1003);
  BOOST_TEST(std::string(client.ws.reason().reason.c_str()) == "binary messages are not supported; send text");
  BOOST_TEST(eventually([&] { return served.handler.completed_with("WS /ws 400"); }));
  check_serves(served);
}

BOOST_AUTO_TEST_CASE(a_websocket_message_over_the_limit_closes_with_1009) {
  HttpLimits limits;
  limits.max_body_bytes = 100;
  Served served(limits);
  WsClient client(served.server.port());
  client.handshake("/ws");
  BOOST_TEST(client.exchange(std::string(100, 'a')) == "echo:" + std::string(100, 'a'));
  client.ws.write(asio::buffer(std::string(200, 'a')));
  BOOST_TEST(client.close_code() == 1009);
  BOOST_TEST(eventually([&] { return served.handler.completed_with("WS /ws 413"); }));
  check_serves(served);
}

BOOST_AUTO_TEST_CASE(a_refused_upgrade_is_its_http_reply) {
  Served served;
  // Beast 1.74's synchronous handshake keeps a declined upgrade's response to itself: the
  // upgrade is sent by hand.
  Client client(served.server.port());
  client.send(
      "GET /nope HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
      "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
  const auto response = client.read();
  BOOST_TEST(response.result_int() == 404);
  BOOST_TEST(response.body() == "{\"error\":\"no WebSocket at /nope\"}");
  BOOST_TEST(client.closed_by_server());
  BOOST_TEST(eventually([&] { return served.handler.completed_with("GET /nope 404"); }));
  // And Beast's client sees it declined.
  WsClient ws(served.server.port());
  error_code ec;
  ws.ws.handshake("127.0.0.1", "/nope", ec);
  BOOST_TEST((ec == websocket::error::upgrade_declined), ec.message());
  check_serves(served);
}

BOOST_AUTO_TEST_CASE(a_websocket_client_gone_has_its_message_cancelled) {
  Served served;
  {
    WsClient client(served.server.port());
    client.handshake("/ws");
    client.ws.text(true);
    client.ws.write(asio::buffer(std::string("hold")));
    BOOST_TEST_REQUIRE(eventually([&] { return served.handler.holding(); }));
    BOOST_TEST(served.server.requests_in_flight() == 1u);
  }
  BOOST_TEST(eventually([&] { return served.handler.held_cancelled(); }));
  served.handler.release("late");
  BOOST_TEST(eventually([&] { return served.server.requests_in_flight() == 0; }));
  BOOST_TEST(eventually([&] { return served.server.open_connections() == 0; }));
}

BOOST_AUTO_TEST_CASE(stop_accepting_finishes_the_request_in_flight_and_refuses_new_ones) {
  Served served;
  Client idle(served.server.port());
  BOOST_TEST(idle.request(http::verb::get, "/echo").result_int() == 200);
  WsClient ws(served.server.port());
  ws.handshake("/ws");
  Client busy(served.server.port());
  busy.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n");
  BOOST_TEST_REQUIRE(eventually([&] { return served.handler.holding(); }));
  BOOST_TEST(served.server.open_connections() == 3u);
  BOOST_TEST(served.server.requests_in_flight() == 1u);

  served.server.stop_accepting();
  BOOST_TEST(idle.closed_by_server());  // waiting for a next request: closed at once
  BOOST_TEST(ws.close_code() == 1001);  // going away
  BOOST_TEST(eventually([&] {
    asio::io_context io;
    tcp::socket socket(io);
    error_code ec;
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), served.server.port()), ec);
    return ec == asio::error::connection_refused;
  }));
  BOOST_TEST(eventually([&] { return served.server.open_connections() == 1; }));  // the busy one
  served.handler.release("done");
  const auto response = busy.read();
  BOOST_TEST(response.result_int() == 200);
  BOOST_TEST(response.body() == "done");
  BOOST_TEST(!response.keep_alive());
  BOOST_TEST(busy.closed_by_server());
  busy.socket.close();  // else the server drains it for a second (a lingering close)
  BOOST_TEST(
      eventually([&] { return served.server.requests_in_flight() == 0 && served.server.open_connections() == 0; }));
}

BOOST_AUTO_TEST_CASE(close_all_closes_every_connection_now) {
  Served served;
  Client idle(served.server.port());
  BOOST_TEST(idle.request(http::verb::get, "/echo").result_int() == 200);
  Client busy(served.server.port());
  busy.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n");
  BOOST_TEST_REQUIRE(eventually([&] { return served.handler.holding(); }));
  served.server.close_all();
  BOOST_TEST(idle.closed_by_server());
  BOOST_TEST(busy.closed_by_server());
  BOOST_TEST(eventually([&] { return served.server.open_connections() == 0; }));
  BOOST_TEST(eventually([&] { return served.handler.held_cancelled(); }));
  served.handler.release("too late");
  BOOST_TEST(eventually([&] { return served.server.requests_in_flight() == 0; }));
  check_serves(served);  // still accepting
}

BOOST_AUTO_TEST_SUITE_END()
