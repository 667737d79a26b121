#pragma once
// The WebSocket side of HttpServer (serve/http_server.h), internal to it: a connection
// whose upgrade the handler accepted becomes a WebSocketSession, which takes its socket.
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <memory>

#include "serve/http_connection.h"

namespace rnnsearch::serve::detail {

// Accepts the upgrade `upgrade_message` (already read from `stream`, and handed to the
// handler's websocket_upgrade as `upgrade`), then serves its text messages one at a time.
void serve_websocket(std::shared_ptr<ServerCore> core, boost::beast::tcp_stream stream,
                     boost::beast::http::request<boost::beast::http::string_body> upgrade_message, HttpRequest upgrade,
                     OpenCount count);

}  // namespace rnnsearch::serve::detail
