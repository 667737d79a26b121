#include "serve/websocket_connection.h"

#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <optional>

namespace rnnsearch::serve::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using Clock = std::chrono::steady_clock;
using boost::system::error_code;

namespace {

struct Message {
  bool binary = false;
  std::string text;
};

// One message at a time: the next is read while the handler answers one (that read is
// also what notices a client gone), and held until the reply is written. marian-server's
// clients send and wait, so a held message is rare.
class WebSocketSession : public Session {
 public:
  WebSocketSession(std::shared_ptr<ServerCore> core, beast::tcp_stream stream, http::request<http::string_body> message,
                   HttpRequest upgrade, OpenCount count)
      : Session(std::move(core)),
        strand_(stream.get_executor()),
        ws_(std::move(stream)),
        upgrade_message_(std::move(message)),
        upgrade_(std::move(upgrade)),
        count_(std::move(count)) {}
  ~WebSocketSession() override {
    if (answering_) --core_->in_flight;  // the handler dropped its Respond uncalled
  }

  void start() {
    enroll();
    asio::post(strand_, [self = self()] { self->accept(); });
  }
  asio::any_io_executor executor() override { return strand_; }
  void stop() override {
    if (accepted_ && !answering_) goodbye();  // else after the accept, or after the reply in flight
  }
  void close() override {
    if (closed_) return;
    closed_ = true;
    beast::get_lowest_layer(ws_).close();
    count_.release();
  }

 private:
  std::shared_ptr<WebSocketSession> self() { return std::static_pointer_cast<WebSocketSession>(shared_from_this()); }
  void accept();
  void read();
  void on_read(error_code ec);
  void take(Message message);
  void on_reply(std::uint64_t id, HttpResponse reply);
  void on_write(error_code ec);
  void refuse_binary();
  void goodbye();

  const asio::any_io_executor strand_;
  websocket::stream<beast::tcp_stream> ws_;
  http::request<http::string_body> upgrade_message_;
  HttpRequest upgrade_;
  OpenCount count_;
  beast::flat_buffer buffer_;
  bool accepted_ = false, reading_ = false, closing_ = false, closed_ = false;
  std::optional<Message> held_;  // came while another waited for its reply

  // The message being answered.
  std::uint64_t message_id_ = 0;  // a reply for another (or a second reply) is ignored
  bool answering_ = false;        // counted in core_->in_flight
  bool writing_ = false, client_gone_ = false;
  std::shared_ptr<std::atomic<bool>> cancelled_;
  Clock::time_point read_at_;
  std::string reply_;
  int status_ = 0;
};

void WebSocketSession::accept() {
  if (closed_) return;
  const HttpLimits& limits = core_->limits;
  beast::get_lowest_layer(ws_).expires_never();  // the WebSocket stream keeps time itself
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = seconds_duration(limits.body_seconds);  // the 101, and the closing handshake
  // A peer silent this long is gone; pings at half of it keep a live one (waiting for a
  // long translation, say) open.
  timeouts.idle_timeout = seconds_duration(limits.idle_seconds);
  timeouts.keep_alive_pings = true;
  ws_.set_option(timeouts);
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& response) { response.set(http::field::server, "nmt-serve"); }));
  ws_.read_message_max(limits.max_body_bytes);
  ws_.async_accept(upgrade_message_, [self = self()](error_code ec) {
    if (ec || self->closed_) return self->close();
    self->accepted_ = true;
    if (self->core_->stopping) return self->goodbye();
    self->read();
  });
}

void WebSocketSession::read() {
  reading_ = true;
  ws_.async_read(buffer_, [self = self()](error_code ec, std::size_t) { self->on_read(ec); });
}

void WebSocketSession::on_read(error_code ec) {
  reading_ = false;
  if (ec) {
    // Beast has already closed with 1009 (message too big); a client's close ends quietly.
    if (ec == websocket::error::message_too_big) core_->completed("WS", upgrade_.path, 413, 0);
    if (answering_) {  // the reply still goes (and fails), then the socket closes
      client_gone_ = true;
      cancelled_->store(true);
    } else if (!closing_) {
      close();
    }
    return;
  }
  Message message{ws_.got_binary(), beast::buffers_to_string(buffer_.data())};
  buffer_.consume(buffer_.size());
  if (answering_) {
    held_ = std::move(message);
    return;
  }
  take(std::move(message));
}

void WebSocketSession::take(Message message) {
  if (message.binary) return refuse_binary();
  HttpHandler* handler = core_->handler();
  if (!handler) return close();
  ++message_id_;
  answering_ = true;
  ++core_->in_flight;
  client_gone_ = false;
  cancelled_ = std::make_shared<std::atomic<bool>>(false);
  read_at_ = Clock::now();
  // The reply may come from any thread, after the session's reads have ended: the callback
  // holds the session, and posts onto its strand.
  Respond respond = [self = self(), id = message_id_](HttpResponse reply) {
    asio::post(self->strand_, [self, id, reply = std::move(reply)]() mutable { self->on_reply(id, std::move(reply)); });
  };
  handler->websocket_message(upgrade_, std::move(message.text), cancelled_, std::move(respond));
  if (!reading_) read();
}

void WebSocketSession::on_reply(std::uint64_t id, HttpResponse reply) {
  if (id != message_id_ || !answering_ || writing_) return;
  writing_ = true;
  status_ = reply.status;
  reply_ = std::move(reply.body);
  ws_.text(true);
  ws_.async_write(asio::buffer(reply_), [self = self()](error_code ec, std::size_t) { self->on_write(ec); });
}

void WebSocketSession::on_write(error_code ec) {
  answering_ = writing_ = false;
  --core_->in_flight;
  core_->completed("WS", upgrade_.path, status_, seconds_since(read_at_));
  reply_.clear();
  if (ec || client_gone_ || closed_) return close();
  if (core_->stopping) return goodbye();
  if (held_) {
    Message next = std::move(*held_);
    held_.reset();
    return take(std::move(next));
  }
  if (!reading_) read();
}

void WebSocketSession::refuse_binary() {
  if (closing_) return;
  closing_ = true;
  const auto started = Clock::now();
  const websocket::close_reason reason(websocket::close_code::unknown_data,
                                       "binary messages are not supported; send text");
  ws_.async_close(reason, [self = self(), started](error_code) {
    self->core_->completed("WS", self->upgrade_.path, 400, seconds_since(started));
    self->close();
  });
}

// The server stops: a close frame saying so (1001), then the socket closes.
void WebSocketSession::goodbye() {
  if (closing_ || closed_) return;
  closing_ = true;
  ws_.async_close(websocket::close_code::going_away, [self = self()](error_code) { self->close(); });
}

}  // namespace

void serve_websocket(std::shared_ptr<ServerCore> core, beast::tcp_stream stream,
                     http::request<http::string_body> upgrade_message, HttpRequest upgrade, OpenCount count) {
  std::make_shared<WebSocketSession>(std::move(core), std::move(stream), std::move(upgrade_message), std::move(upgrade),
                                     std::move(count))
      ->start();
}

}  // namespace rnnsearch::serve::detail
