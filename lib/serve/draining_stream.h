#pragma once
// The TCP stream under nmt-serve's WebSocket sessions: a tcp_stream whose WebSocket
// teardown reads what the client still sends until it closes, and only then closes.
//
// Beast closes a connection itself when a client breaks the protocol (a message over
// --max-body-bytes: close code 1009) and then tears the socket down. Boost 1.74's teardown
// for TCP stops reading after its first successful read (its loop tests the coroutine's
// byte count, 0 after a wait, not the read's), so it closes with the rest of the client's
// message unread: the kernel then answers with a reset, the client's write fails and the
// close frame it was sent can be lost. Found ADL-first by websocket::stream, the overloads
// below replace it for this type. The WebSocket stream's closing-handshake timeout still
// bounds the wait: when it fires, the socket is closed and the read ends.
#include <array>
#include <memory>

#include <boost/asio/compose.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/teardown.hpp>

namespace rnnsearch::serve::detail {

class DrainingStream : public boost::beast::tcp_stream {
 public:
  explicit DrainingStream(boost::beast::tcp_stream&& stream) : boost::beast::tcp_stream(std::move(stream)) {}
};

// Half-closes (a server sends nothing more), reads until the client's end of stream or an
// error, then closes the socket; the end of stream is success, as for Beast's own.
struct DrainThenClose {
  DrainingStream& stream;
  boost::beast::role_type role;
  std::unique_ptr<std::array<char, 4096>> discard = std::make_unique<std::array<char, 4096>>();
  bool started = false;

  template <class Self>
  void operator()(Self& self, boost::system::error_code ec = {}, std::size_t = 0) {
    auto& socket = stream.socket();
    if (!started) {
      started = true;
      if (role == boost::beast::role_type::server) socket.shutdown(boost::asio::socket_base::shutdown_send, ec);
    }
    if (ec) {
      boost::system::error_code ignored;
      socket.close(ignored);
      self.complete(ec == boost::asio::error::eof ? boost::system::error_code{} : ec);
      return;
    }
    socket.async_read_some(boost::asio::buffer(*discard), std::move(self));
  }
};

template <class TeardownHandler>
void async_teardown(boost::beast::role_type role, DrainingStream& stream, TeardownHandler&& handler) {
  boost::asio::async_compose<TeardownHandler, void(boost::system::error_code)>(DrainThenClose{stream, role}, handler,
                                                                                stream);
}

// The same, blocking (Beast's synchronous close and read call it).
inline void teardown(boost::beast::role_type role, DrainingStream& stream, boost::system::error_code& ec) {
  auto& socket = stream.socket();
  ec = {};
  if (role == boost::beast::role_type::server) socket.shutdown(boost::asio::socket_base::shutdown_send, ec);
  std::array<char, 4096> discard;
  while (!ec) socket.read_some(boost::asio::buffer(discard), ec);
  if (ec == boost::asio::error::eof) ec = {};
  boost::system::error_code ignored;
  socket.close(ignored);
}

}  // namespace rnnsearch::serve::detail
