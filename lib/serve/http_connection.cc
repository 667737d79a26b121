#include "serve/http_connection.h"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>

#include "serve/websocket_connection.h"

namespace rnnsearch::serve::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using boost::system::error_code;

void ServerCore::completed(const std::string& method, const std::string& path, int status, double seconds) {
  if (HttpHandler* h = handler()) h->completed(method, path, status, seconds);
}

std::uint64_t ServerCore::enroll(std::weak_ptr<Session> session) {
  std::lock_guard<std::mutex> lock(mutex_);
  sessions_.emplace(++next_id_, std::move(session));
  return next_id_;
}

void ServerCore::withdraw(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  sessions_.erase(id);
}

std::vector<std::shared_ptr<Session>> ServerCore::sessions() {
  std::vector<std::shared_ptr<Session>> live;
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& entry : sessions_) {
    if (auto session = entry.second.lock()) live.push_back(std::move(session));
  }
  return live;
}

void ServerCore::stop_all() { each_session(&Session::stop); }

void ServerCore::close_all() { each_session(&Session::close); }

void ServerCore::each_session(void (Session::*call)()) {
  for (const auto& session : sessions()) {
    if (io.stopped()) {
      (*session.*call)();
      continue;
    }
    asio::post(session->executor(), [session, call] { (*session.*call)(); });
  }
}

std::chrono::steady_clock::duration seconds_duration(double seconds) {
  const double year = 365.0 * 24 * 3600;
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::clamp(seconds, 0.0, year)));
}

double seconds_since(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

std::string endpoint_text(const tcp::endpoint& endpoint) {
  const std::string address = endpoint.address().to_string();
  const std::string port = std::to_string(endpoint.port());
  return endpoint.address().is_v6() ? "[" + address + "]:" + port : address + ":" + port;
}

namespace {

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

constexpr std::size_t kReadSize = 8192;  // bytes asked of the socket per read
// After a reply with Connection: close, how long unread request bytes are drained (linger()).
constexpr double kLingerSeconds = 1;

std::string text(beast::string_view view) { return std::string(view.data(), view.size()); }

std::string seconds_text(double seconds) {
  std::ostringstream out;
  out << seconds;
  return out.str();
}

// The handler's view of a parsed request; takes its body.
HttpRequest to_request(Request& message, const std::string& peer) {
  HttpRequest request;
  request.method = text(message.method_string());
  const std::string target = text(message.target());
  const std::size_t question = target.find('?');
  request.path = target.substr(0, question);
  if (question != std::string::npos) request.query = target.substr(question + 1);
  for (const auto& field : message) {
    std::string name = text(field.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto [entry, added] = request.headers.emplace(name, text(field.value()));
    if (!added) entry->second += ", " + text(field.value());
  }
  request.body = std::move(message.body());
  request.peer = peer;
  return request;
}

// One accepted socket, its requests one after another (keep-alive, pipelined ones in
// order): read (within the limits and deadlines), handed to the handler, the socket watched
// while the reply is due, the reply written, then the next request or a lingering close.
class HttpConnection : public Session {
 public:
  HttpConnection(std::shared_ptr<ServerCore> core, tcp::socket socket, OpenCount count)
      : Session(std::move(core)),
        strand_(socket.get_executor()),
        stream_(std::move(socket)),
        deadline_(strand_),
        count_(std::move(count)) {}
  ~HttpConnection() override {
    if (answering_) --core_->in_flight;  // the handler dropped its Respond uncalled
  }

  void start() {
    enroll();
    asio::post(strand_, [self = self()] { self->begin(); });
  }
  asio::any_io_executor executor() override { return strand_; }
  void stop() override {
    // Waiting for a next request with nothing of it read: nothing to finish. Otherwise the
    // request being read or answered finishes first; core_->stopping makes its reply the last.
    if (phase_ == Phase::idle) close();
  }
  void close() override {
    if (closed_) return;
    closed_ = true;
    disarm();
    stream_.close();
    count_.release();
  }

 private:
  enum class Phase { idle, header, body, waiting, writing, lingering };

  std::shared_ptr<HttpConnection> self() { return std::static_pointer_cast<HttpConnection>(shared_from_this()); }
  void begin();
  void read_next();
  void on_first_bytes(error_code ec, std::size_t bytes);
  void read_header();
  void on_header(error_code ec);
  void send_continue();
  void read_body();
  void on_read_error(error_code ec);
  void on_request();
  void upgrade(HttpHandler& handler, HttpRequest request);
  Respond responder();
  void watch();
  void on_watch(std::uint64_t id, error_code ec);
  void on_reply(std::uint64_t id, HttpResponse reply);
  void refuse(int status, const std::string& message);
  void write(HttpResponse reply);
  void on_write(error_code ec);
  void linger();
  void drain();
  void arm(double seconds);
  void disarm();

  const asio::any_io_executor strand_;  // kept apart from stream_, which a WebSocket takes
  beast::tcp_stream stream_;
  // The read deadlines: a timer of our own rather than tcp_stream's expires_after, whose
  // expiry closes the socket and would leave no way to answer 408.
  asio::steady_timer deadline_;
  std::uint64_t deadline_round_ = 0;  // a timer completion of an older arm() is stale
  bool timed_out_ = false;            // the deadline cancelled the read
  OpenCount count_;
  bool closed_ = false;
  std::string peer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Phase phase_ = Phase::idle;
  Clock::time_point began_;  // the request's first byte

  // The request being answered.
  std::uint64_t request_id_ = 0;  // a reply for another (or a second reply) is ignored
  bool answering_ = false;        // counted in core_->in_flight
  std::string method_, path_;
  bool head_ = false, keep_alive_ = false;
  Clock::time_point complete_at_;
  std::shared_ptr<std::atomic<bool>> cancelled_;
  bool watching_ = false, client_gone_ = false;
  Response response_;
  int status_ = 0;
};

void HttpConnection::begin() {
  if (closed_) return;
  error_code ec;
  peer_ = endpoint_text(stream_.socket().remote_endpoint(ec));
  // on_watch() peeks at the socket: with this the peek returns at once even on a spurious wakeup.
  stream_.socket().non_blocking(true, ec);
  began_ = Clock::now();
  const std::size_t cap = core_->limits.max_connections;
  if (core_->open > cap) return refuse(503, "too many connections (limit " + std::to_string(cap) + ")");
  read_next();
}

// The next request: its first byte within idle_seconds (else a quiet close: there is
// nothing to answer), its headers within header_seconds, its body within body_seconds.
void HttpConnection::read_next() {
  if (closed_) return;
  if (core_->stopping) return linger();
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(std::min<std::size_t>(core_->limits.max_header_bytes, UINT32_MAX)));
  parser_->body_limit(static_cast<std::uint64_t>(core_->limits.max_body_bytes));
  if (buffer_.size() > 0) return read_header();  // a pipelined request has begun already
  phase_ = Phase::idle;
  arm(core_->limits.idle_seconds);
  stream_.async_read_some(buffer_.prepare(kReadSize),
                          [self = self()](error_code ec, std::size_t bytes) { self->on_first_bytes(ec, bytes); });
}

void HttpConnection::on_first_bytes(error_code ec, std::size_t bytes) {
  disarm();
  if (ec || closed_) return close();  // EOF, the idle timeout or stop(): no byte of a request came
  buffer_.commit(bytes);
  read_header();
}

void HttpConnection::read_header() {
  phase_ = Phase::header;
  began_ = Clock::now();
  arm(core_->limits.header_seconds);
  http::async_read_header(stream_, buffer_, *parser_,
                          [self = self()](error_code ec, std::size_t) { self->on_header(ec); });
}

void HttpConnection::on_header(error_code ec) {
  disarm();
  if (ec) return on_read_error(ec);
  if (parser_->is_done()) return on_request();
  // curl and others wait (a second) for "100 Continue" before they send a larger body.
  if (beast::iequals(parser_->get()[http::field::expect], "100-continue")) return send_continue();
  read_body();
}

void HttpConnection::send_continue() {
  auto interim = std::make_shared<http::response<http::empty_body>>(http::status::continue_, 11);
  stream_.expires_after(seconds_duration(core_->limits.body_seconds));
  http::async_write(stream_, *interim, [self = self(), interim](error_code ec, std::size_t) {
    self->stream_.expires_never();
    if (ec || self->closed_) return self->close();
    self->read_body();
  });
}

void HttpConnection::read_body() {
  phase_ = Phase::body;
  arm(core_->limits.body_seconds);
  http::async_read(stream_, buffer_, *parser_, [self = self()](error_code ec, std::size_t) {
    self->disarm();
    if (ec) return self->on_read_error(ec);
    self->on_request();
  });
}

// A request that did not arrive whole: what the client can still be told, it is told.
void HttpConnection::on_read_error(error_code ec) {
  const HttpLimits& limits = core_->limits;
  if (closed_) return;
  if (timed_out_ && phase_ == Phase::header)
    return refuse(408, "request headers not complete within " + seconds_text(limits.header_seconds) + " s");
  if (timed_out_) return refuse(408, "request body not complete within " + seconds_text(limits.body_seconds) + " s");
  if (ec == http::error::body_limit)
    return refuse(413, "request body over " + std::to_string(limits.max_body_bytes) + " bytes");
  if (ec == http::error::header_limit)
    return refuse(431, "request headers over " + std::to_string(limits.max_header_bytes) + " bytes");
  // The parser's own errors (not HTTP, or cut short); the others are the network's (EOF,
  // reset): nobody to answer.
  if (ec.category() == http::make_error_code(http::error::bad_target).category() && ec != http::error::end_of_stream)
    return refuse(400, "bad HTTP request: " + ec.message());
  close();
}

void HttpConnection::on_request() {
  HttpHandler* handler = core_->handler();
  if (!handler) return close();
  Request& message = parser_->get();
  HttpRequest request = to_request(message, peer_);
  method_ = request.method;
  path_ = request.path;
  head_ = message.method() == http::verb::head;
  keep_alive_ = message.keep_alive() && message.version() >= 11;  // an HTTP/1.0 client: close after the reply
  complete_at_ = Clock::now();
  ++request_id_;
  answering_ = true;
  ++core_->in_flight;
  cancelled_ = std::make_shared<std::atomic<bool>>(false);
  client_gone_ = false;
  phase_ = Phase::waiting;
  if (beast::websocket::is_upgrade(message)) return upgrade(*handler, std::move(request));
  handler->handle(std::move(request), cancelled_, responder());
  watch();
}

void HttpConnection::upgrade(HttpHandler& handler, HttpRequest request) {
  HttpResponse refusal = handler.websocket_upgrade(request);
  if (refusal.status != 0) {
    keep_alive_ = false;
    return write(std::move(refusal));
  }
  // Accepted: the socket (and its place in core_->open) goes to a WebSocket session; this
  // object is done, and goes once the last handler holding it returns.
  answering_ = false;
  --core_->in_flight;
  closed_ = true;
  serve_websocket(core_, std::move(stream_), parser_->release(), std::move(request), std::move(count_));
}

// The reply may come from any thread, after every read and watch has ended: the callback
// holds the connection, and posts onto its strand.
Respond HttpConnection::responder() {
  return [self = self(), id = request_id_](HttpResponse reply) {
    asio::post(self->strand_, [self, id, reply = std::move(reply)]() mutable { self->on_reply(id, std::move(reply)); });
  };
}

// While the handler works, the socket turns readable with the client's EOF (it has gone:
// the flag lets queued work for it be dropped) or with its next request (pipelined: read
// after the reply, and no more watching).
void HttpConnection::watch() {
  watching_ = true;
  stream_.socket().async_wait(tcp::socket::wait_read,
                              [self = self(), id = request_id_](error_code ec) { self->on_watch(id, ec); });
}

void HttpConnection::on_watch(std::uint64_t id, error_code ec) {
  if (id != request_id_ || phase_ != Phase::waiting || !watching_) return;  // the reply came first
  watching_ = false;
  if (!ec && !closed_) {
    char byte;
    stream_.socket().receive(asio::buffer(&byte, 1), tcp::socket::message_peek, ec);
    if (!ec) return;
    if (ec == asio::error::would_block || ec == asio::error::try_again) return watch();
  }
  client_gone_ = true;  // EOF, an error, or close(): the reply has nobody to go to
  cancelled_->store(true);
}

void HttpConnection::on_reply(std::uint64_t id, HttpResponse reply) {
  if (id != request_id_ || phase_ != Phase::waiting) return;
  if (watching_) {
    watching_ = false;
    error_code ec;
    stream_.socket().cancel(ec);
  }
  write(std::move(reply));
}

// What the transport refuses itself, answered with the handler's error body, then closed.
void HttpConnection::refuse(int status, const std::string& message) {
  HttpHandler* handler = core_->handler();
  if (!handler) return close();
  HttpResponse reply = handler->error(status, message);
  if (status == 503) reply.headers.emplace_back("Retry-After", "1");
  method_.clear();
  path_.clear();
  if (parser_ && !parser_->get().target().empty()) {  // its request line parsed: for completed()
    method_ = text(parser_->get().method_string());
    path_ = text(parser_->get().target());
    path_ = path_.substr(0, path_.find('?'));
  }
  head_ = false;
  keep_alive_ = false;
  complete_at_ = began_;
  write(std::move(reply));
}

void HttpConnection::write(HttpResponse reply) {
  const int status = reply.status >= 100 && reply.status <= 999 ? reply.status : 500;
  const bool bodyless = status < 200 || status == 204 || status == 304;
  response_ = Response(static_cast<http::status>(status), 11);
  response_.set(http::field::server, "nmt-serve");
  if (!bodyless) {
    response_.set(http::field::content_type, reply.content_type);
    response_.content_length(reply.body.size());  // for HEAD too: the size a GET would get
    if (!head_) response_.body() = std::move(reply.body);
  }
  for (auto& [name, value] : reply.headers) response_.insert(name, value);
  keep_alive_ = keep_alive_ && !client_gone_ && !closed_ && !core_->stopping;
  response_.keep_alive(keep_alive_);
  status_ = status;
  phase_ = Phase::writing;
  // HttpLimits has no write timeout: a reply gets as long to leave as a body gets to come.
  stream_.expires_after(seconds_duration(core_->limits.body_seconds));
  http::async_write(stream_, response_, [self = self()](error_code ec, std::size_t) { self->on_write(ec); });
}

void HttpConnection::on_write(error_code ec) {
  stream_.expires_never();
  response_ = Response();
  if (answering_) {
    answering_ = false;
    --core_->in_flight;
  }
  core_->completed(method_, path_, status_, seconds_since(complete_at_));
  if (ec || closed_) return close();
  if (!keep_alive_) return linger();
  read_next();
}

// Closing with unread request bytes in the socket would make the kernel reset the
// connection, which can destroy the reply before the client reads it. So: end the sending
// side, drop what still comes until the client closes (at most kLingerSeconds), then close.
void HttpConnection::linger() {
  if (closed_) return;
  phase_ = Phase::lingering;
  error_code ec;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  arm(kLingerSeconds);
  drain();
}

void HttpConnection::drain() {
  buffer_.clear();
  stream_.async_read_some(buffer_.prepare(kReadSize), [self = self()](error_code ec, std::size_t) {
    if (ec) return self->close();
    self->drain();
  });
}

void HttpConnection::arm(double seconds) {
  timed_out_ = false;
  deadline_.expires_after(seconds_duration(seconds));
  deadline_.async_wait([self = self(), round = ++deadline_round_](error_code ec) {
    if (ec || round != self->deadline_round_ || self->closed_) return;
    self->timed_out_ = true;
    error_code ignored;
    self->stream_.socket().cancel(ignored);  // the read ends with operation_aborted
  });
}

void HttpConnection::disarm() {
  ++deadline_round_;
  deadline_.cancel();
}

}  // namespace

void serve_http(std::shared_ptr<ServerCore> core, tcp::socket socket, OpenCount count) {
  std::make_shared<HttpConnection>(std::move(core), std::move(socket), std::move(count))->start();
}

}  // namespace rnnsearch::serve::detail
