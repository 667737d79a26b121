#pragma once
// The acceptance tests' side of nmt-serve: the tool started on a tiny model over
// 127.0.0.1 (ServeProcess), and the clients that talk to it the way its users' clients do:
// HTTP/1.1 (HttpClient, Boost.Beast), Marian's WebSocket (WsClient) and raw bytes for what
// no well-behaved client sends (RawConnection). Every connect, write and read has a
// deadline of a few seconds, so a test that waits for what never comes fails instead of
// hanging. The expected bytes come from the command-line tools (cli_* below).
#include <boost/asio/io_context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/child_process.h"
#include "support/temp_dir.h"

namespace rnnsearch::testing::serve {

// ---- The model the suites serve ----

// A ReversalModel (support/reversal_model.h) and BPE codes learned from its words, so that
// raw text goes through tokenizing and BPE (the codes merge each w0..w9 whole).
struct ServedModel {
  std::string model, codes;
};
// Trained once per test process (about a second), on the first call, in a directory that
// lives until the process ends. A failed training fails the calling test.
const ServedModel& shared_model();
// BPE codes for the w0..w9 words, learned by `nmt-bpe learn` into `dir`/codes.
std::string learn_codes(const TempDir& dir);
// A model of the ReversalModel's sizes trained to copy its sentence instead (into
// `dir`/`name`): it translates every sentence unlike the reversal model.
std::string train_copy_model(const TempDir& dir, const std::string& name = "copy.bin");

// ---- nmt-serve ----

using Headers = std::vector<std::pair<std::string, std::string>>;

struct HttpReply {
  int status = 0;                              // 0: no reply (error says why)
  std::map<std::string, std::string> headers;  // names lowercased
  std::string body;
  std::string error;     // the transport's failure, "" when a reply came
  bool closed = false;   // the server closed the connection after the reply (raw replies)
  double seconds = 0;    // from the request's first byte to the reply's last

  bool has_header(const std::string& name) const { return headers.count(name) != 0; }
  std::string header(const std::string& name) const;  // "" when absent
  // The body as JSON; a failing test check (and null) when it is not.
  nlohmann::json json() const;
  // "status 400, body ..." for messages.
  std::string describe() const;
};

// nmt-serve -m MODEL -c CODES -s xa -t xb --port 0 -q OPTIONS..., started and waited for
// ("listening on http://127.0.0.1:PORT" on stderr). Killed (SIGKILL) when destroyed.
class ServeProcess {
 public:
  ServeProcess(const std::string& model, const std::string& codes, const std::vector<std::string>& options = {});
  ~ServeProcess();
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  unsigned short port() const { return port_; }
  ChildProcess& process() { return *process_; }
  const std::string& err() const { return process_->err(); }

  // One request on a new connection.
  HttpReply post(const std::string& path, const std::string& body, const std::string& content_type = "application/json",
                 const Headers& headers = {}) const;
  HttpReply get(const std::string& path, const Headers& headers = {}) const;
  // Whether it still translates: POST /v1/translate "w1 w2 w3" answers 200 with a translation.
  bool serves() const;

 private:
  std::unique_ptr<ChildProcess> process_;
  unsigned short port_ = 0;
};

// ---- Clients ----

// A blocking HTTP/1.1 client on one kept-alive connection (connected on the first request,
// again after the server closes it). Beast's asynchronous calls run to completion on the
// client's own io_context, bounded by beast::tcp_stream's timeout.
class HttpClient {
 public:
  explicit HttpClient(unsigned short port, double seconds = 5);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  HttpReply request(const std::string& method, const std::string& target, const std::string& body = "",
                    const std::string& content_type = "", const Headers& headers = {});
  HttpReply post(const std::string& path, const std::string& body, const std::string& content_type = "application/json",
                 const Headers& headers = {}) {
    return request("POST", path, body, content_type, headers);
  }
  HttpReply get(const std::string& path, const Headers& headers = {}) { return request("GET", path, "", "", headers); }
  void close();

 private:
  std::string connect();
  unsigned short port_;
  double seconds_;
  boost::asio::io_context io_;
  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  bool connected_ = false;
};

// A blocking WebSocket client (beast::websocket::stream<tcp_stream>), bounded likewise.
class WsClient {
 public:
  explicit WsClient(unsigned short port, double seconds = 5);
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  // The upgrade to `target`: "" when accepted, else what failed; a refused upgrade's
  // HTTP reply is in refusal().
  std::string handshake(const std::string& target = "/translate");
  const HttpReply& refusal() const { return refusal_; }
  // Sends one message (text or binary): "" or what failed.
  std::string send(const std::string& bytes, bool binary = false);
  // Reads one message; nullopt when none came (error() says why).
  std::optional<std::string> read();
  // send() then read().
  std::optional<std::string> exchange(const std::string& text);
  // Reads until the server closes: its close frame's code, or -1 when the connection
  // ended another way or nothing came in time; close_reason() is the frame's reason, and
  // closing_handshake_completed() whether our close frame reached the server in answer.
  int close_code();
  bool closing_handshake_completed() const { return handshake_completed_; }
  const std::string& close_reason() const { return reason_; }
  const std::string& error() const { return error_; }

 private:
  unsigned short port_;
  double seconds_;
  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  HttpReply refusal_;
  std::string error_, reason_;
  bool handshake_completed_ = false;
};

// Raw bytes over a plain socket, for requests no HTTP library would send.
class RawConnection {
 public:
  explicit RawConnection(unsigned short port, double seconds = 5);  // connects (a failing check when it cannot)
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  bool connected() const { return fd_ >= 0; }
  // Whether every byte went (false once the server has closed).
  bool send(const std::string& bytes);
  void shutdown_write();  // shutdown(SHUT_WR): the server reads EOF, the reply can still come
  struct Received {
    std::string bytes;
    bool eof = false;        // the server closed (FIN)
    bool reset = false;      // ... or reset the connection
    bool timed_out = false;  // `seconds` passed first
  };
  // Everything until the server closes, or `seconds` pass (the constructor's when < 0).
  Received read_all(double seconds = -1);
  // Bytes until one complete HTTP reply (headers and Content-Length's body) has come.
  HttpReply read_reply(double seconds = -1);

 private:
  int fd_ = -1;
  double seconds_;
  std::string pending_;
};

// The reply at the start of `raw` ("HTTP/1.1 400 ...\r\n...\r\n\r\nbody"); status 0 when
// it is not one.
HttpReply parse_http_reply(const std::string& raw);
// Whether a connection to 127.0.0.1:`port` is refused (nothing listens).
bool refuses_connections(unsigned short port);

// ---- Checks ----

// Whether `condition` holds within `seconds` (checked every 10 ms).
bool eventually(const std::function<bool()>& condition, double seconds = 5);
// "" when the reply has `status` and a one-line JSON error body {"error": "..."} (a
// non-empty string without a newline, the body's one newline at its end); else what is wrong.
std::string error_reply_problem(const HttpReply& reply, int status);
// A JSON number as the tools print it (util::general), or a string value (the "-inf" of a
// score) as it is; "<TYPE>" for anything else.
std::string tool_text(const nlohmann::json& value);
// The numbers of a JSON array as tool_text joined by spaces.
std::string tool_texts(const nlohmann::json& array);
// The JSON request body of a string ({"a": "b"} with any key order) built with nlohmann.
std::string json_body(const nlohmann::json& value);
// The value of metric line `name` (exact, labels included) in a Prometheus text, or nullopt.
std::optional<double> metric_value(const std::string& text, const std::string& name);

// ---- The command-line tools' bytes ----

std::vector<std::string> lines_of(const std::string& text);    // without their newlines
std::string joined_lines(const std::vector<std::string>& lines);  // each with its newline

// rnnsearch-translate's pipeline on `lines`:
//   nmt-tokenize -l xa --no-escape | nmt-bpe apply -c CODES | nmt-decode -m MODEL
//   --max-length 0 -b BEAM DECODE_OPTIONS | nmt-bpe undo | nmt-detokenize -l xb
// one translation per line (a failing check when a tool fails).
std::vector<std::string> cli_translations(const std::string& model, const std::string& codes,
                                          const std::vector<std::string>& lines, int beam = 5,
                                          const std::vector<std::string>& decode_options = {});
// nmt-tokenize -l xa --no-escape | nmt-bpe apply -c CODES on raw lines: the pieces the model reads.
std::vector<std::string> cli_pieces(const std::string& codes, const std::vector<std::string>& lines);
// nmt-bpe undo | nmt-detokenize -l xb on pieces: their raw text.
std::vector<std::string> cli_text_of_pieces(const std::vector<std::string>& pieces);

// An entry of nmt-decode --n-best K [--word-scores] [--alignment hard] (Moses n-best):
// "i ||| pieces ||| F0= logp [WordScores= ...] ||| score [||| alignment]".
struct NBestEntry {
  std::size_t sentence = 0;
  std::string pieces, log_prob, word_scores, score, alignment;
};
// nmt-decode -m MODEL --max-length 0 OPTIONS on `pieces` (one source a line): stdout.
std::string cli_decode(const std::string& model, const std::vector<std::string>& pieces,
                       const std::vector<std::string>& options);
std::vector<NBestEntry> parse_nbest(const std::string& text);
// nmt-score -m MODEL OPTIONS (by default --word-scores) on "source<TAB>target" lines: each line's text.
std::vector<std::string> cli_scores(const std::string& model, const std::vector<std::string>& sources,
                                    const std::vector<std::string>& targets,
                                    const std::vector<std::string>& options = {"--word-scores"});
// nmt-align -m MODEL -s S -t T [--mode MODE]: each pair's links.
std::vector<std::string> cli_alignments(const std::string& model, const std::vector<std::string>& sources,
                                        const std::vector<std::string>& targets, const std::string& mode = "hard");

}  // namespace rnnsearch::testing::serve
