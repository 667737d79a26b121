#pragma once
// nmt-serve's transport: HTTP/1.1 (keep-alive) and WebSocket over Boost.Beast on one
// io_context. It reads requests within the limits below, hands each complete one to an
// HttpHandler, and writes the handler's reply, which may come later and from any thread
// (a translation waits for its batch). What the transport refuses itself it answers with
// the handler's error body: 413 (body too large), 431 (headers too large), 408 (headers or
// body not complete in time), 400 (not HTTP), 503 (too many connections, then closed).
// While a request waits for its reply the socket is watched: a client that closes its
// side has the request's cancellation flag set, so queued work for it can be dropped.
// (A half-closed client counts as gone, though its reply is still written and may reach it.)
// The classes behind it are in serve/http_connection.h and serve/websocket_connection.h.
#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace rnnsearch::serve {

struct HttpRequest {
  std::string method;                          // "GET", "POST", ...
  std::string path;                            // the target before '?', e.g. "/translate"
  std::string query;                           // after '?', without it ("" when none)
  std::map<std::string, std::string> headers;  // names lowercased; a repeated header's values joined by ", "
  std::string body;
  std::string peer;  // "127.0.0.1:53412"
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // more headers: Retry-After, Allow, ...
};

// Set (true) when the client has gone before its reply was written.
using CancelFlag = std::shared_ptr<const std::atomic<bool>>;
// Takes the reply; call it exactly once, from any thread.
using Respond = std::function<void(HttpResponse)>;

struct HttpLimits {
  std::size_t max_body_bytes = 1 << 20;     // larger: 413 (also for a WebSocket message: closed, 1009)
  std::size_t max_header_bytes = 16 << 10;  // larger: 431
  double header_seconds = 10;               // from the first byte of a request to its last header: else 408
  double body_seconds = 30;                 // from the headers to the body's last byte: else 408; also
                                            // the time a reply (or a WebSocket handshake) gets to be written
  // A connection (new or kept alive) with no byte of a request for this long is closed,
  // without a reply; a WebSocket peer silent this long too (pinged at half of it).
  double idle_seconds = 60;
  std::size_t max_connections = 256;        // one more is answered 503 and closed
};

class HttpHandler {
 public:
  virtual ~HttpHandler() = default;
  // A complete request (not a WebSocket upgrade the handler accepts).
  virtual void handle(HttpRequest request, CancelFlag cancelled, Respond respond) = 0;
  // For a GET with "Upgrade: websocket": a reply of status 0 accepts the upgrade; any
  // other refuses it with that reply (404 for a path without a WebSocket, 403 for a
  // missing API key).
  virtual HttpResponse websocket_upgrade(const HttpRequest& upgrade) = 0;
  // One text message of an accepted WebSocket; the reply's body goes back as one text
  // message (its status only counts for completed()). A binary message is not passed
  // here: the transport closes the socket with 1003 (unsupported data) and a one-line reason.
  virtual void websocket_message(const HttpRequest& upgrade, std::string message, CancelFlag cancelled,
                                 Respond respond) = 0;
  // The reply for what the transport refuses itself: status and a one-line message.
  virtual HttpResponse error(int status, const std::string& message) const = 0;
  // After each reply is written (or could not be): for the log line and the metrics.
  // `path` is the request's, or "" when its request line never parsed (method "" too).
  // `method` is "WS" for a WebSocket message: 400 for a binary one, 413 for one too big.
  virtual void completed(const std::string& method, const std::string& path, int status, double seconds) = 0;
};

class HttpServer {
 public:
  // Binds host:port (port 0: the system chooses) and listens; throws util::Error
  // "cannot listen on HOST:PORT: REASON". Nothing is accepted before start().
  HttpServer(boost::asio::io_context& io, const std::string& host, unsigned short port, HttpLimits limits,
             HttpHandler& handler);
  // Closes the listening socket and every connection: at once when no thread runs the
  // io_context any more (after io.run() returned), else posted to it. From here on the
  // handler is never called, so it may go next; the io_context must outlive the server.
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  unsigned short port() const;  // the bound port
  std::string url() const;      // "http://HOST:PORT"

  void start();  // begins accepting (call once, before io.run())
  // Thread-safe. Closes the listening socket; connections go on until their request in
  // flight is answered, then close (keep-alive ends); idle connections close now.
  void stop_accepting();
  // Thread-safe. Requests read whose reply is not yet written, and open connections.
  std::size_t requests_in_flight() const;
  std::size_t open_connections() const;
  // Thread-safe. Closes every connection now (after the drain deadline); a reply the
  // handler still owes is then written to nobody. The listening socket stays (stop_accepting).
  void close_all();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace rnnsearch::serve
