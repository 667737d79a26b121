#include "serve/serve_fixture.h"

#include <boost/test/unit_test.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/ip/address.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <thread>

#include "support/reversal_model.h"
#include "support/run_process.h"
#include "util/number_format.h"

namespace rnnsearch::testing::serve {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using Clock = std::chrono::steady_clock;

namespace {

Clock::duration duration_of(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string trimmed(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

// Our sockets are not inherited by the processes the tests start (nmt-serve, the tools):
// an inherited copy would keep a connection open that the test has closed.
void close_on_exec(int fd) {
  if (fd >= 0) ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
}

// Runs `io` until the started operation's handler has stored its result (and no longer:
// a WebSocket's timers stay pending on the io_context). The streams' own timeouts end an
// operation in time; should they not, after `seconds` and a second more `close` ends it,
// and the result is a timeout.
error_code run(asio::io_context& io, std::optional<error_code>& result, double seconds,
               const std::function<void()>& close) {
  io.restart();
  const auto deadline = Clock::now() + duration_of(seconds + 1);
  while (!result && Clock::now() < deadline) {
    if (io.run_one_until(deadline) == 0 && io.stopped()) break;
  }
  if (!result) {
    close();
    io.restart();
    const auto grace = Clock::now() + std::chrono::seconds(2);
    while (!result && Clock::now() < grace) {
      if (io.run_one_until(grace) == 0 && io.stopped()) break;
    }
    return asio::error::timed_out;
  }
  return *result;
}

std::string quoted(const std::string& text) { return "'" + text + "'"; }

// bash -o pipefail -c SCRIPT with `input`: stdout (a failing check when it fails).
std::string run_script(const std::string& script, const std::string& input) {
  const auto result = run_process({"/bin/bash", "-o", "pipefail", "-c", script}, "", input);
  BOOST_TEST_REQUIRE(result.exit_code == 0, script + " failed: " + result.err);
  return result.out;
}

// The fields of a Moses n-best line, split at " ||| ".
std::vector<std::string> nbest_fields(const std::string& line) {
  std::vector<std::string> fields;
  const std::string separator = " ||| ";
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = line.find(separator, begin);
    fields.push_back(line.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    if (end == std::string::npos) return fields;
    begin = end + separator.size();
  }
}

// The size of the complete HTTP reply at the start of `raw`, or nullopt while it is not whole.
std::optional<std::size_t> complete_reply_size(const std::string& raw) {
  const std::size_t end = raw.find("\r\n\r\n");
  if (end == std::string::npos) return std::nullopt;
  const HttpReply head = parse_http_reply(raw.substr(0, end + 4));
  const std::string length = head.header("content-length");
  const std::size_t body = length.empty() ? 0 : static_cast<std::size_t>(std::strtoull(length.c_str(), nullptr, 10));
  if (raw.size() < end + 4 + body) return std::nullopt;
  return end + 4 + body;
}

}  // namespace

// ---- The model ----

std::string learn_codes(const TempDir& dir) {
  const auto corpus = held_out_reversals(500, 11);
  const std::string text = dir.write("codes.corpus", corpus.source + corpus.reversed);
  const std::string codes = (dir.path() / "codes").string();
  const auto learned = run_process({tool_path("nmt-bpe"), "learn", "-i", text, "-s", "20", "-o", codes, "-q"});
  BOOST_TEST_REQUIRE(learned.exit_code == 0, learned.err);
  return codes;
}

std::string train_copy_model(const TempDir& dir, const std::string& name) {
  const auto sentences = held_out_reversals(2000, 5).source;
  const std::string src = dir.write(name + ".src", sentences), tgt = dir.write(name + ".tgt", sentences);
  const std::string model = (dir.path() / name).string();
  // ReversalModel's sizes and steps (support/reversal_model.cc), on a copying task.
  const auto trained = run_process({tool_path("nmt-train"), "-t", src, tgt, "-m", model, "--dim-emb", "32", "--dim-enc",
                                    "32", "--dim-dec", "64", "--dim-att", "32", "--dim-maxout", "32", "--mini-batch",
                                    "32", "--dropout", "0", "-l", "0.003", "--max-updates", "400", "--log-freq", "400"});
  BOOST_TEST_REQUIRE(trained.exit_code == 0, trained.err);
  return model;
}

const ServedModel& shared_model() {
  struct Shared {
    ReversalModel reversal;
    TempDir dir;
    ServedModel served;
    Shared() : served{reversal.model, learn_codes(dir)} {}
  };
  static const Shared shared;
  return shared.served;
}

// ---- Replies ----

std::string HttpReply::header(const std::string& name) const {
  const auto found = headers.find(lowercase(name));
  return found == headers.end() ? "" : found->second;
}

nlohmann::json HttpReply::json() const {
  try {
    return nlohmann::json::parse(body);
  } catch (const std::exception& e) {
    BOOST_TEST(false, "the body is not JSON (" << e.what() << "): " << describe());
    return nullptr;
  }
}

std::string HttpReply::describe() const {
  if (status == 0) return "no reply: " + error;
  std::string shown = body.size() > 300 ? body.substr(0, 300) + "..." : body;
  return "status " + std::to_string(status) + ", body " + shown;
}

HttpReply parse_http_reply(const std::string& raw) {
  HttpReply reply;
  const std::size_t end = raw.find("\r\n\r\n");
  if (raw.compare(0, 9, "HTTP/1.1 ") != 0 && raw.compare(0, 9, "HTTP/1.0 ") != 0) {
    reply.error = "not an HTTP reply: " + raw.substr(0, 80);
    return reply;
  }
  if (end == std::string::npos) {
    reply.error = "headers not complete: " + raw.substr(0, 80);
    return reply;
  }
  reply.status = std::atoi(raw.substr(9, 3).c_str());
  std::size_t line = raw.find("\r\n") + 2;
  while (line < end) {
    const std::size_t next = raw.find("\r\n", line);
    const std::string field = raw.substr(line, next - line);
    const std::size_t colon = field.find(':');
    if (colon != std::string::npos) {
      const std::string name = lowercase(field.substr(0, colon)), value = trimmed(field.substr(colon + 1));
      const auto [entry, added] = reply.headers.emplace(name, value);
      if (!added) entry->second += ", " + value;
    }
    line = next + 2;
  }
  reply.body = raw.substr(end + 4);
  const std::string length = reply.header("content-length");
  if (!length.empty()) reply.body = reply.body.substr(0, std::strtoull(length.c_str(), nullptr, 10));
  return reply;
}

// ---- nmt-serve ----

ServeProcess::ServeProcess(const std::string& model, const std::string& codes, const std::vector<std::string>& options) {
  std::vector<std::string> argv = {tool_path("nmt-serve"), "-m", model, "-c", codes, "-s", "xa", "-t", "xb",
                                   "--port", "0", "-q"};
  argv.insert(argv.end(), options.begin(), options.end());
  process_ = std::make_unique<ChildProcess>(argv);
  const std::string prefix = "listening on http://127.0.0.1:";
  BOOST_TEST_REQUIRE(process_->wait_for_stderr(prefix, 60), "nmt-serve did not start: " << process_->err());
  const std::string& err = process_->err();
  const std::size_t digits = err.find(prefix) + prefix.size();
  std::size_t end = digits;
  while (end < err.size() && std::isdigit(static_cast<unsigned char>(err[end]))) ++end;
  BOOST_TEST_REQUIRE(end > digits, "no port after '" << prefix << "': " << err);
  // The URL comes in one write; the line's end may come in the next.
  BOOST_TEST_REQUIRE(process_->wait_for_stderr(prefix + err.substr(digits, end - digits) + "\n", 5), err);
  port_ = static_cast<unsigned short>(std::atoi(err.substr(digits, end - digits).c_str()));
  BOOST_TEST_REQUIRE(port_ != 0);
}

ServeProcess::~ServeProcess() = default;

HttpReply ServeProcess::post(const std::string& path, const std::string& body, const std::string& content_type,
                             const Headers& headers) const {
  HttpClient client(port_);
  return client.post(path, body, content_type, headers);
}

HttpReply ServeProcess::get(const std::string& path, const Headers& headers) const {
  HttpClient client(port_);
  return client.get(path, headers);
}

bool ServeProcess::serves() const {
  const HttpReply reply = post("/v1/translate", R"({"text": "w1 w2 w3"})");
  if (reply.status != 200) return false;
  try {
    const auto json = nlohmann::json::parse(reply.body);
    return json.at("translations").at(0).at("text").is_string();
  } catch (const std::exception&) {
    return false;
  }
}

// ---- HttpClient ----

HttpClient::HttpClient(unsigned short port, double seconds) : port_(port), seconds_(seconds), stream_(io_) {}

HttpClient::~HttpClient() { close(); }

void HttpClient::close() {
  error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
  stream_.close();
  connected_ = false;
  buffer_.clear();
}

std::string HttpClient::connect() {
  std::optional<error_code> result;
  stream_.expires_after(duration_of(seconds_));
  stream_.async_connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_),
                        [&result](error_code ec) { result = ec; });
  const error_code ec = run(io_, result, seconds_, [this] { stream_.close(); });
  if (ec) {
    stream_.close();
    return "connect: " + ec.message();
  }
  close_on_exec(stream_.socket().native_handle());
  connected_ = true;
  return "";
}

HttpReply HttpClient::request(const std::string& method, const std::string& target, const std::string& body,
                              const std::string& content_type, const Headers& headers) {
  HttpReply reply;
  const auto start = Clock::now();
  if (!connected_) {
    reply.error = connect();
    if (!reply.error.empty()) return reply;
  }
  http::request<http::string_body> message(http::string_to_verb(method), target, 11);
  message.set(http::field::host, "127.0.0.1:" + std::to_string(port_));
  if (!content_type.empty()) message.set(http::field::content_type, content_type);
  for (const auto& [name, value] : headers) message.insert(name, value);
  message.body() = body;
  if (!body.empty() || method == "POST") message.prepare_payload();

  std::optional<error_code> result;
  stream_.expires_after(duration_of(seconds_));
  http::async_write(stream_, message, [&result](error_code ec, std::size_t) { result = ec; });
  error_code ec = run(io_, result, seconds_, [this] { stream_.close(); });
  if (ec) {
    reply.error = "write: " + ec.message();
    close();
    return reply;
  }
  http::response_parser<http::string_body> parser;
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  parser.header_limit(1 << 20);
  result.reset();
  stream_.expires_after(duration_of(seconds_));
  http::async_read(stream_, buffer_, parser, [&result](error_code e, std::size_t) { result = e; });
  ec = run(io_, result, seconds_, [this] { stream_.close(); });
  if (ec) {
    reply.error = "read: " + ec.message();
    close();
    return reply;
  }
  stream_.expires_never();
  const auto& response = parser.get();
  reply.status = response.result_int();
  for (const auto& field : response) {
    const std::string name = lowercase(std::string(field.name_string()));
    const auto [entry, added] = reply.headers.emplace(name, std::string(field.value()));
    if (!added) entry->second += ", " + std::string(field.value());
  }
  reply.body = response.body();
  reply.closed = !response.keep_alive();
  if (reply.closed) close();
  reply.seconds = seconds_since(start);
  return reply;
}

// ---- WsClient ----

WsClient::WsClient(unsigned short port, double seconds) : port_(port), seconds_(seconds), ws_(io_) {}

WsClient::~WsClient() {
  error_code ignored;
  beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
  beast::get_lowest_layer(ws_).close();
}

std::string WsClient::handshake(const std::string& target) {
  auto& lowest = beast::get_lowest_layer(ws_);
  auto close = [&lowest] { lowest.close(); };
  std::optional<error_code> result;
  lowest.expires_after(duration_of(seconds_));
  lowest.async_connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_),
                       [&result](error_code ec) { result = ec; });
  error_code ec = run(io_, result, seconds_, close);
  if (ec) return error_ = "connect: " + ec.message();
  close_on_exec(lowest.socket().native_handle());
  lowest.expires_never();  // the WebSocket stream keeps time itself from here
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = duration_of(seconds_);
  // No idle timeout of Beast's (without pings it would end the stream that long after the
  // handshake, whatever came since): run()'s guard bounds each read instead.
  timeouts.idle_timeout = websocket::stream_base::none();
  timeouts.keep_alive_pings = false;
  ws_.set_option(timeouts);
  websocket::response_type response;
  result.reset();
  ws_.async_handshake(response, "127.0.0.1:" + std::to_string(port_), target,
                      [&result](error_code e) { result = e; });
  ec = run(io_, result, seconds_, close);
  if (!ec) return "";
  refusal_.status = response.result_int();
  for (const auto& field : response) {
    refusal_.headers[lowercase(std::string(field.name_string()))] = std::string(field.value());
  }
  refusal_.body = response.body();
  return error_ = "handshake: " + ec.message();
}

std::string WsClient::send(const std::string& bytes, bool binary) {
  std::optional<error_code> result;
  ws_.binary(binary);
  ws_.async_write(asio::buffer(bytes), [&result](error_code ec, std::size_t) { result = ec; });
  const error_code ec = run(io_, result, seconds_, [this] { beast::get_lowest_layer(ws_).close(); });
  if (ec) return error_ = "write: " + ec.message();
  return "";
}

std::optional<std::string> WsClient::read() {
  beast::flat_buffer buffer;
  std::optional<error_code> result;
  ws_.async_read(buffer, [&result](error_code ec, std::size_t) { result = ec; });
  const error_code ec = run(io_, result, seconds_, [this] { beast::get_lowest_layer(ws_).close(); });
  if (ec) {
    error_ = "read: " + ec.message();
    if (ec == websocket::error::closed) reason_ = std::string(ws_.reason().reason.c_str());
    return std::nullopt;
  }
  return beast::buffers_to_string(buffer.data());
}

std::optional<std::string> WsClient::exchange(const std::string& text) {
  if (!send(text).empty()) return std::nullopt;
  return read();
}

int WsClient::close_code() {
  handshake_completed_ = false;
  for (;;) {
    beast::flat_buffer buffer;
    std::optional<error_code> result;
    ws_.async_read(buffer, [&result](error_code ec, std::size_t) { result = ec; });
    const error_code ec = run(io_, result, seconds_, [this] { beast::get_lowest_layer(ws_).close(); });
    if (!ec) continue;  // a message before the close
    error_ = "read: " + ec.message();
    // The server's close frame came; our answer to it may still fail (the server closed
    // its socket at once): the code is the server's either way.
    const auto& reason = ws_.reason();
    if (ec != websocket::error::closed && reason.code == websocket::close_code::none) return -1;
    handshake_completed_ = ec == websocket::error::closed;
    reason_ = std::string(reason.reason.c_str());
    return static_cast<int>(reason.code);
  }
}

// ---- RawConnection ----

RawConnection::RawConnection(unsigned short port, double seconds) : seconds_(seconds) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  BOOST_TEST_REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    bool ok = false;
    if (errno == EINPROGRESS) {
      pollfd waiting{fd, POLLOUT, 0};
      int error = 0;
      socklen_t size = sizeof error;
      ok = ::poll(&waiting, 1, static_cast<int>(seconds * 1000)) == 1 &&
           ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 && error == 0;
    }
    if (!ok) {
      ::close(fd);
      BOOST_TEST(false, "cannot connect to 127.0.0.1:" << port);
      return;
    }
  }
  fd_ = fd;
}

RawConnection::~RawConnection() {
  if (fd_ >= 0) ::close(fd_);
}

bool RawConnection::send(const std::string& bytes) {
  if (fd_ < 0) return false;
  const auto deadline = Clock::now() + duration_of(seconds_);
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd waiting{fd_, POLLOUT, 0};
    ::poll(&waiting, 1, static_cast<int>(left));
  }
  return true;
}

void RawConnection::shutdown_write() {
  if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);
}

RawConnection::Received RawConnection::read_all(double seconds) {
  Received received;
  received.bytes = std::move(pending_);
  pending_.clear();
  if (fd_ < 0) {
    received.eof = true;
    return received;
  }
  const auto deadline = Clock::now() + duration_of(seconds < 0 ? seconds_ : seconds);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      received.timed_out = true;
      return received;
    }
    pollfd waiting{fd_, POLLIN, 0};
    if (::poll(&waiting, 1, static_cast<int>(left)) <= 0) continue;
    char buffer[65536];
    const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
    if (n > 0) {
      received.bytes.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0) {
      received.eof = true;
      return received;
    } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      received.reset = errno == ECONNRESET;
      received.eof = !received.reset;
      return received;
    }
  }
}

HttpReply RawConnection::read_reply(double seconds) {
  const auto start = Clock::now();
  const auto deadline = start + duration_of(seconds < 0 ? seconds_ : seconds);
  std::string raw = std::move(pending_);
  pending_.clear();
  bool ended = false;
  while (!complete_reply_size(raw) && !ended && fd_ >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) break;
    pollfd waiting{fd_, POLLIN, 0};
    if (::poll(&waiting, 1, static_cast<int>(left)) <= 0) continue;
    char buffer[65536];
    const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
    if (n > 0) raw.append(buffer, static_cast<std::size_t>(n));
    else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) ended = true;
  }
  const auto size = complete_reply_size(raw);
  if (!size) {
    HttpReply none;
    none.error = raw.empty() ? (ended ? "closed without a reply" : "no reply in time")
                             : "incomplete reply: " + raw.substr(0, 200);
    none.closed = ended;
    return none;
  }
  HttpReply reply = parse_http_reply(raw.substr(0, *size));
  pending_ = raw.substr(*size);
  reply.closed = ended;
  reply.seconds = seconds_since(start);
  return reply;
}

bool refuses_connections(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool refused = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 &&
                       errno == ECONNREFUSED;
  ::close(fd);
  return refused;
}

// ---- Checks ----

bool eventually(const std::function<bool()>& condition, double seconds) {
  const auto until = Clock::now() + duration_of(seconds);
  while (!condition()) {
    if (Clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

std::string error_reply_problem(const HttpReply& reply, int status) {
  if (reply.status != status) return "expected status " + std::to_string(status) + ", got " + reply.describe();
  if (reply.header("content-type") != "application/json") {
    return "Content-Type '" + reply.header("content-type") + "', expected application/json";
  }
  if (reply.body.empty() || reply.body.back() != '\n' ||
      std::count(reply.body.begin(), reply.body.end(), '\n') != 1) {
    return "the body is not one line ending with a newline: " + reply.body;
  }
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(reply.body);
  } catch (const std::exception& e) {
    return std::string("the body is not JSON: ") + e.what() + ": " + reply.body;
  }
  if (!json.is_object() || json.size() != 1 || !json.contains("error") || !json["error"].is_string()) {
    return "the body is not {\"error\": string}: " + reply.body;
  }
  const std::string message = json["error"].get<std::string>();
  if (message.empty()) return "the error message is empty";
  if (message.find_first_of("\r\n") != std::string::npos) return "the error message has a newline: " + reply.body;
  return "";
}

std::string tool_text(const nlohmann::json& value) {
  if (value.is_number()) return util::general(value.get<double>());
  if (value.is_string()) return value.get<std::string>();
  return "<" + std::string(value.type_name()) + ">";
}

std::string tool_texts(const nlohmann::json& array) {
  std::string text;
  if (!array.is_array()) return "<" + std::string(array.type_name()) + ">";
  for (const auto& value : array) text += (text.empty() ? "" : " ") + tool_text(value);
  return text;
}

std::string json_body(const nlohmann::json& value) { return value.dump(); }

std::optional<double> metric_value(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.compare(0, name.size() + 1, name + " ") == 0) return std::strtod(line.c_str() + name.size() + 1, nullptr);
  }
  return std::nullopt;
}

// ---- The command-line tools ----

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string joined_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

std::vector<std::string> cli_translations(const std::string& model, const std::string& codes,
                                          const std::vector<std::string>& lines, int beam,
                                          const std::vector<std::string>& decode_options) {
  std::string options;
  for (const auto& option : decode_options) options += " " + quoted(option);
  const std::string script =
      quoted(tool_path("nmt-tokenize")) + " -l xa --no-escape -q | " + quoted(tool_path("nmt-bpe")) + " apply -c " +
      quoted(codes) + " | " + quoted(tool_path("nmt-decode")) + " -m " + quoted(model) + " --max-length 0 -b " +
      std::to_string(beam) + " -q" + options + " | " + quoted(tool_path("nmt-bpe")) + " undo | " +
      quoted(tool_path("nmt-detokenize")) + " -l xb -q";
  const auto out = lines_of(run_script(script, joined_lines(lines)));
  BOOST_TEST_REQUIRE(out.size() == lines.size(), "the pipeline printed " << out.size() << " lines for " << lines.size());
  return out;
}

std::vector<std::string> cli_pieces(const std::string& codes, const std::vector<std::string>& lines) {
  const std::string script = quoted(tool_path("nmt-tokenize")) + " -l xa --no-escape -q | " +
                             quoted(tool_path("nmt-bpe")) + " apply -c " + quoted(codes);
  const auto out = lines_of(run_script(script, joined_lines(lines)));
  BOOST_TEST_REQUIRE(out.size() == lines.size());
  return out;
}

std::vector<std::string> cli_text_of_pieces(const std::vector<std::string>& pieces) {
  const std::string script =
      quoted(tool_path("nmt-bpe")) + " undo | " + quoted(tool_path("nmt-detokenize")) + " -l xb -q";
  const auto out = lines_of(run_script(script, joined_lines(pieces)));
  BOOST_TEST_REQUIRE(out.size() == pieces.size());
  return out;
}

std::string cli_decode(const std::string& model, const std::vector<std::string>& pieces,
                       const std::vector<std::string>& options) {
  std::vector<std::string> argv = {tool_path("nmt-decode"), "-m", model, "--max-length", "0", "-q"};
  argv.insert(argv.end(), options.begin(), options.end());
  const auto decoded = run_process(argv, "", joined_lines(pieces));
  BOOST_TEST_REQUIRE(decoded.exit_code == 0, decoded.err);
  return decoded.out;
}

std::vector<NBestEntry> parse_nbest(const std::string& text) {
  std::vector<NBestEntry> entries;
  for (const auto& line : lines_of(text)) {
    const auto fields = nbest_fields(line);
    BOOST_TEST_REQUIRE(fields.size() >= 4u, "not an n-best line: " << line);
    NBestEntry entry;
    entry.sentence = static_cast<std::size_t>(std::stoul(fields[0]));
    entry.pieces = fields[1];
    const std::string features = fields[2];
    const std::string f0 = "F0= ", words = " WordScores= ";
    BOOST_TEST_REQUIRE(features.compare(0, f0.size(), f0) == 0, "no F0= in " << line);
    const std::size_t scores = features.find(words);
    entry.log_prob = features.substr(f0.size(), scores == std::string::npos ? std::string::npos : scores - f0.size());
    if (scores != std::string::npos) entry.word_scores = features.substr(scores + words.size());
    entry.score = fields[3];
    if (fields.size() > 4) entry.alignment = fields[4];
    entries.push_back(entry);
  }
  return entries;
}

std::vector<std::string> cli_scores(const std::string& model, const std::vector<std::string>& sources,
                                    const std::vector<std::string>& targets, const std::vector<std::string>& options) {
  std::string input;
  for (std::size_t i = 0; i < sources.size(); ++i) input += sources[i] + "\t" + targets[i] + "\n";
  std::vector<std::string> argv = {tool_path("nmt-score"), "-m", model, "-q"};
  argv.insert(argv.end(), options.begin(), options.end());
  const auto scored = run_process(argv, "", input);
  BOOST_TEST_REQUIRE(scored.exit_code == 0, scored.err);
  auto out = lines_of(scored.out);
  BOOST_TEST_REQUIRE(out.size() == sources.size());
  return out;
}

std::vector<std::string> cli_alignments(const std::string& model, const std::vector<std::string>& sources,
                                        const std::vector<std::string>& targets, const std::string& mode) {
  TempDir dir;
  const auto source = dir.write("align.src", joined_lines(sources)), target = dir.write("align.tgt", joined_lines(targets));
  const auto aligned =
      run_process({tool_path("nmt-align"), "-m", model, "-s", source, "-t", target, "--mode", mode, "-q"});
  BOOST_TEST_REQUIRE(aligned.exit_code == 0, aligned.err);
  auto out = lines_of(aligned.out);
  BOOST_TEST_REQUIRE(out.size() == sources.size());
  return out;
}

}  // namespace rnnsearch::testing::serve
