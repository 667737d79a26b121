// What nmt-serve answers to requests it cannot serve: each class of bad request gets its
// status and one line of JSON, {"error": "..."} (a message without a newline, naming
// what is wrong), and the server goes on translating after every one of them. The classes:
// ill-formed JSON and UTF-8, fields of the wrong type or out of their bounds, an unknown
// pair, limits (body bytes, lines, characters, header bytes, connections, time to send
// headers or body), HTTP that is not HTTP, wrong paths and methods, each API's own
// shapes, and WebSocket messages that are binary, too big or not UTF-8.
#include <boost/test/unit_test.hpp>

#include <functional>
#include <string>
#include <vector>

#include "serve/serve_fixture.h"

namespace rs = rnnsearch::testing::serve;
using nlohmann::json;

namespace {

// The server of most classes: small limits, so each is reached cheaply.
const std::vector<std::string> kLimits = {"--max-body-bytes", "200000", "--max-line-chars", "200", "--max-beam-size",
                                          "8", "--max-n-best", "8", "--header-seconds", "0.5", "--read-seconds", "0.5"};

struct BadRequest {
  std::string name;
  int status;
  std::string mentions;  // a part of the error message ("" for none)
  std::function<rs::HttpReply(const rs::ServeProcess&)> send;
  std::function<void(const rs::HttpReply&)> more = {};  // further checks of the reply
};

rs::HttpReply post(const rs::ServeProcess& s, const std::string& path, const std::string& body) {
  return s.post(path, body);
}

// `bytes` sent on a connection of its own, then the reply read (within 5 s); after a
// reply saying "Connection: close", or any reply to a client that half-closed (the server
// then reads the end of its requests), whether the server closes (within 3 s) too.
rs::HttpReply raw(const rs::ServeProcess& s, const std::string& bytes, bool half_close = false) {
  rs::RawConnection connection(s.port());
  connection.send(bytes);
  if (half_close) connection.shutdown_write();
  rs::HttpReply reply = connection.read_reply(5);
  if (reply.status != 0 && (half_close || reply.header("connection") == "close")) {
    const auto rest = connection.read_all(3);
    reply.closed = (rest.eof || rest.reset) && rest.bytes.empty();
  }
  return reply;
}

std::string http_post(const std::string& path, const std::string& body, const std::string& extra_headers = "") {
  return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n" + extra_headers + "\r\n" + body;
}

std::string many_lines(std::size_t count) {
  json lines = json::array();
  for (std::size_t i = 0; i < count; ++i) lines.push_back("w" + std::to_string(i % 10));
  return json{{"text", lines}}.dump();
}

// Runs each class: its status, its one JSON line naming the fault, then the server serves.
void run_matrix(const rs::ServeProcess& server, const std::vector<BadRequest>& cases) {
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT("class '" << c.name << "'") {
      const rs::HttpReply reply = c.send(server);
      BOOST_TEST(rs::error_reply_problem(reply, c.status) == "");
      if (!c.mentions.empty()) {
        BOOST_TEST(reply.body.find(c.mentions) != std::string::npos, "'" << c.mentions << "' not in " << reply.body);
      }
      if (c.more) c.more(reply);
      BOOST_TEST(server.serves(), "the server does not translate after it: " << server.err());
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(serve_bad_requests)

BOOST_AUTO_TEST_CASE(bodies_fields_and_limits) {
  const auto& m = rs::shared_model();
  rs::ServeProcess server(m.model, m.codes, kLimits);
  const std::vector<BadRequest> cases = {
      {"bad JSON", 400, "bad JSON", [](auto& s) { return post(s, "/v1/translate", R"({"text": "w1 w2")"); }},
      {"a body that is not an object", 400, "JSON object",
       [](auto& s) { return post(s, "/v1/translate", R"(["w1 w2"])"); }},
      {"q a number", 400, "'q'",
       [](auto& s) { return post(s, "/translate", R"({"q": 5, "source": "xa", "target": "xb"})"); }},
      {"q an array holding a number", 400, "'q[1]'",
       [](auto& s) { return post(s, "/translate", R"({"q": ["w1", 5], "source": "xa", "target": "xb"})"); }},
      {"beam_size a string", 400, "'beam_size'",
       [](auto& s) { return post(s, "/v1/translate", R"({"text": "w1", "beam_size": "five"})"); }},
      {"n_best 1.5", 400, "'n_best'", [](auto& s) { return post(s, "/v1/translate", R"({"text": "w1", "n_best": 1.5})"); }},
      {"word_scores not a boolean", 400, "'word_scores'",
       [](auto& s) { return post(s, "/v1/translate", R"({"text": "w1", "word_scores": "yes"})"); }},
      {"alignment neither hard nor soft", 400, "'alignment'",
       [](auto& s) { return post(s, "/v1/translate", R"({"text": "w1", "alignment": "medium"})"); }},
      {"max_length_ratio out of range", 400, "'max_length_ratio'",
       [](auto& s) { return post(s, "/v1/translate", R"({"text": "w1", "max_length_ratio": 0})"); }},
      {"max_length_ratio above the server's --max-length-ratio", 400, "'max_length_ratio'",
       [](auto& s) { return post(s, "/v1/translate", R"({"text": "w1", "max_length_ratio": 2.5})"); }},
      {"a body over --max-body-bytes", 413, "200000",
       [](auto& s) { return post(s, "/v1/translate", json{{"text", std::string(300000, 'w')}}.dump()); }},
      {"invalid UTF-8 in a JSON string", 400, "UTF-8",
       [](auto& s) { return post(s, "/v1/translate", "{\"text\": \"w1 \xff\xfe w2\"}"); }},
      {"a lone surrogate escaped in a JSON string", 400, "",
       [](auto& s) { return post(s, "/v1/translate", R"({"text": "w1 \udc00"})"); }},
      {"an unknown language pair (LibreTranslate)", 400, "xa-fr",
       [](auto& s) { return post(s, "/translate", R"({"q": "w1", "source": "xa", "target": "fr"})"); }},
      {"an unknown language pair (native)", 400, "en-fr",
       [](auto& s) { return post(s, "/v1/translate", R"({"text": "w1", "pair": "en-fr"})"); }},
      {"a source language without its target", 400, "",
       [](auto& s) { return post(s, "/v1/translate", R"({"text": "w1", "source_language": "xa"})"); }},
      {"n_best above the beam", 400, "'n_best'",
       [](auto& s) { return post(s, "/v1/translate", R"({"text": "w1", "beam_size": 2, "n_best": 3})"); }},
      {"beam_size above --max-beam-size", 400, "'beam_size'",
       [](auto& s) { return post(s, "/v1/translate", R"({"text": "w1", "beam_size": 9})"); }},
      {"LibreTranslate alternatives above --max-n-best", 400, "'alternatives'",
       [](auto& s) { return post(s, "/translate", R"({"q": "w1", "source": "xa", "target": "xb", "alternatives": 8})"); }},
      {"q missing", 400, "'q'", [](auto& s) { return post(s, "/translate", R"({"source": "xa", "target": "xb"})"); }},
      {"10,000 lines, above --max-lines", 400, "'text' has 10000 lines",
       [](auto& s) { return post(s, "/v1/translate", many_lines(10000)); },
       [](const rs::HttpReply& r) { BOOST_TEST(r.body.find("--max-lines (1000)") != std::string::npos, r.body); }},
      {"a line over --max-line-chars", 400, "--max-line-chars",
       [](auto& s) { return post(s, "/v1/translate", json{{"text", {"w1", std::string(201, 'w')}}}.dump()); },
       [](const rs::HttpReply& r) { BOOST_TEST(r.body.find("line 2") != std::string::npos, r.body); }},
      {"a newline inside a line", 400, "newline",
       [](auto& s) { return post(s, "/v1/translate", json{{"text", {"w1\nw2"}}}.dump()); }},
      {"format html on LibreTranslate", 400, "'format'",
       [](auto& s) { return post(s, "/translate", R"({"q": "w1", "source": "xa", "target": "xb", "format": "html"})"); }},
      {"a bad %-escape in a form", 400, "%-escape",
       [](auto& s) { return s.post("/translate", "q=w1%zz&source=xa&target=xb", "application/x-www-form-urlencoded"); }},
      {"an OpenNMT body that is not an array", 400, "array",
       [](auto& s) { return post(s, "/translator/translate", R"({"src": "w1", "id": 0})"); }},
      {"OpenNMT items of mixed ids", 400, "'id'",
       [](auto& s) { return post(s, "/translator/translate", R"([{"src": "w1", "id": 0}, {"src": "w2", "id": 1}])"); }},
      {"an OpenNMT id no model has", 400, "'id' 3",
       [](auto& s) { return post(s, "/translator/translate", R"([{"src": "w1", "id": 3}])"); }},
      {"an OpenNMT item without src", 400, "'[0].src'",
       [](auto& s) { return post(s, "/translator/translate", R"([{"id": 0}])"); }},
      {"score sources and targets of different counts", 400, "'source' has 2 lines",
       [](auto& s) { return post(s, "/v1/score", R"({"source": ["w1", "w2"], "target": ["w1"]})"); }},
      {"align mode soft", 400, "'mode'",
       [](auto& s) { return post(s, "/v1/align", R"({"source": ["w1"], "target": ["w1"], "mode": "soft"})"); }},
      {"an unknown path", 404, "/v2/translate", [](auto& s) { return s.get("/v2/translate"); }},
      {"GET where POST is allowed", 405, "allowed: POST", [](auto& s) { return s.get("/v1/translate"); },
       [](const rs::HttpReply& r) { BOOST_TEST(r.header("allow") == "POST"); }},
      {"POST where GET is allowed", 405, "", [](auto& s) { return post(s, "/health", "{}"); },
       [](const rs::HttpReply& r) { BOOST_TEST(r.header("allow") == "GET"); }},
  };
  BOOST_TEST(cases.size() >= 20u);
  run_matrix(server, cases);
}

BOOST_AUTO_TEST_CASE(what_the_transport_refuses) {
  const auto& m = rs::shared_model();
  rs::ServeProcess server(m.model, m.codes, kLimits);
  const std::string whole = http_post("/v1/translate", R"({"text": "w1 w2 w3"})");
  const std::string cut_short = whole.substr(0, whole.size() - 5);  // the body's last 5 bytes never come
  auto closes = [](const rs::HttpReply& r) {
    BOOST_TEST(r.header("connection") == "close");
    BOOST_TEST(r.closed, "the connection stayed open after " << r.status);
  };
  const std::vector<BadRequest> cases = {
      {"headers that never end (--header-seconds 0.5)", 408, "headers",
       [](auto& s) { return raw(s, "POST /v1/translate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"); },
       [&](const rs::HttpReply& r) {
         closes(r);
         BOOST_TEST(r.seconds >= 0.4, "408 after " << r.seconds << " s");
         BOOST_TEST(r.seconds < 3.0, "408 after " << r.seconds << " s");
       }},
      {"a body that never completes (--read-seconds 0.5)", 408, "body",
       [&](auto& s) { return raw(s, cut_short); },
       [&](const rs::HttpReply& r) {
         closes(r);
         BOOST_TEST(r.seconds >= 0.4, "408 after " << r.seconds << " s");
         BOOST_TEST(r.seconds < 3.0, "408 after " << r.seconds << " s");
       }},
      {"a request cut short by a half-close", 400, "",
       [](auto& s) { return raw(s, "POST /v1/translate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le", true); }, closes},
      {"a body cut short by a half-close", 400, "",
       [&](auto& s) { return raw(s, cut_short, true); },
       closes},
      {"a huge header", 431, "headers",
       [](auto& s) {
         return raw(s, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + std::string(20000, 'a') + "\r\n\r\n");
       },
       closes},
      {"garbage bytes", 400, "bad HTTP", [](auto& s) { return raw(s, std::string("\x16\x03\x01\x02\x00\x01\xfc garbage\r\n\r\n", 19)); },
       closes},
      {"a request line that is not HTTP", 400, "", [](auto& s) { return raw(s, "HELLO\r\n\r\n"); }, closes},
      {"a Content-Length that is not a number", 400, "",
       [](auto& s) { return raw(s, "POST /v1/translate HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n{}"); }, closes},
      {"a chunked body over --max-body-bytes", 413, "",
       [](auto& s) {
         std::string chunked = "POST /v1/translate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
         for (int i = 0; i < 30; ++i) chunked += "2710\r\n" + std::string(10000, 'w') + "\r\n";
         return raw(s, chunked + "0\r\n\r\n");
       },
       closes},
      {"a WebSocket upgrade to another path", 404, "/v1/translate",
       [](auto& s) {
         rs::WsClient ws(s.port());
         BOOST_TEST(ws.handshake("/v1/translate") != "");
         return ws.refusal();
       }},
  };
  run_matrix(server, cases);
}

// LibreTranslate's q "" is a request, not an error: it translates to "" (q missing is the error, above).
BOOST_AUTO_TEST_CASE(empty_q_translates_to_empty) {
  const auto& m = rs::shared_model();
  rs::ServeProcess server(m.model, m.codes, kLimits);
  const auto empty = server.post("/translate", R"({"q": "", "source": "xa", "target": "xb"})");
  BOOST_TEST(empty.status == 200, empty.describe());
  BOOST_TEST(empty.body == "{\"translatedText\":\"\"}\n");
  const auto none = server.post("/translate", R"({"q": [], "source": "xa", "target": "xb"})");
  BOOST_TEST(none.status == 200, none.describe());
  BOOST_TEST(none.body == "{\"translatedText\":[]}\n");
  // 150 two-byte characters: 300 bytes, but within --max-line-chars 200 (characters, not bytes).
  std::string accents;
  for (int i = 0; i < 150; ++i) accents += "\xc3\xa9";
  BOOST_TEST(server.post("/v1/translate", json{{"text", accents}}.dump()).status == 200);
}

// A whole request, then the client's half-close (shutdown(SHUT_WR)), as `nc -N` does. The
// server reads EOF after the request: it may take it as the client gone and drop the work,
// but then it must still answer in one JSON line (or translate), and serve on.
BOOST_AUTO_TEST_CASE(a_whole_request_then_a_half_close) {
  const auto& m = rs::shared_model();
  rs::ServeProcess server(m.model, m.codes, kLimits);
  const auto expected = rs::cli_translations(m.model, m.codes, {"w1 w2 w3"});
  for (int i = 0; i < 5; ++i) {
    const auto reply = raw(server, http_post("/v1/translate", R"({"text": "w1 w2 w3"})"), true);
    BOOST_TEST_CONTEXT("try " << i << ": " << reply.describe()) {
      BOOST_TEST((reply.status == 200 || reply.status == 503));
      if (reply.status == 200) BOOST_TEST(reply.json()["translations"][0]["text"] == expected[0]);
      if (reply.status == 503) BOOST_TEST(rs::error_reply_problem(reply, 503) == "");
      BOOST_TEST(reply.closed, "the server kept the half-closed connection open");
    }
  }
  BOOST_TEST(server.serves());
}

BOOST_AUTO_TEST_CASE(too_many_connections) {
  const auto& m = rs::shared_model();
  rs::ServeProcess server(m.model, m.codes, {"--max-connections", "2"});
  // Two kept-alive connections, each known to be open (it has been answered).
  rs::HttpClient first(server.port()), second(server.port());
  BOOST_TEST_REQUIRE(first.get("/health").status == 200);
  BOOST_TEST_REQUIRE(second.get("/health").status == 200);
  rs::RawConnection third(server.port());
  third.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  const rs::HttpReply refused = third.read_reply(5);
  BOOST_TEST(rs::error_reply_problem(refused, 503) == "");
  BOOST_TEST(refused.body.find("too many connections") != std::string::npos, refused.body);
  BOOST_TEST(refused.has_header("retry-after"));
  BOOST_TEST((refused.closed || third.read_all(3).eof), "the refused connection stays open");
  // The two go on; once one closes, a new connection is served again.
  BOOST_TEST(first.get("/health").status == 200);
  second.close();
  BOOST_TEST(rs::eventually([&] { return server.get("/health").status == 200; }));
  first.close();
  BOOST_TEST(rs::eventually([&] { return server.serves(); }));
}

// A message over --max-body-bytes, by hand: the server answers with its 1009 close frame,
// reads the rest of the message, and closes with a FIN once the client has, never with a
// reset (which can drop the close frame the client has not read yet).
BOOST_AUTO_TEST_CASE(websocket_message_over_the_limit_is_read_to_its_end_before_the_close) {
  const auto& m = rs::shared_model();
  rs::ServeProcess server(m.model, m.codes, kLimits);
  rs::RawConnection connection(server.port());
  connection.send(
      "GET /translate HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
  BOOST_TEST_REQUIRE(connection.read_reply(5).status == 101);
  // A final text frame, masked with a zero key, its length in 64 bits: 300,000 bytes.
  const std::size_t length = 300000;
  std::string frame = {'\x81', '\xff'};
  for (int shift = 56; shift >= 0; shift -= 8) frame += static_cast<char>((length >> shift) & 0xff);
  frame += std::string(4, '\0') + std::string(length, 'w');
  BOOST_TEST(connection.send(frame), "the server stopped reading the message");
  connection.shutdown_write();
  const auto rest = connection.read_all(5);
  // The close frame: 0x88, its length, then the code 1009 in two bytes.
  BOOST_TEST_REQUIRE(rest.bytes.size() >= 4u);
  BOOST_TEST(static_cast<unsigned char>(rest.bytes[0]) == 0x88u);
  BOOST_TEST(static_cast<unsigned char>(rest.bytes[2]) * 256 + static_cast<unsigned char>(rest.bytes[3]) == 1009);
  BOOST_TEST(rest.eof);
  BOOST_TEST(!rest.reset);
  BOOST_TEST(server.serves());
}

BOOST_AUTO_TEST_CASE(websocket_messages_it_cannot_take) {
  const auto& m = rs::shared_model();
  rs::ServeProcess server(m.model, m.codes, kLimits);
  const auto expected = rs::cli_translations(m.model, m.codes, {"w1 w2 w3"});
  {
    // A binary frame: closed with 1003 (unsupported data) and a reason.
    rs::WsClient ws(server.port());
    BOOST_TEST_REQUIRE(ws.handshake() == "");
    BOOST_TEST(ws.send(std::string("\x00\x01\x02", 3), true) == "");
    BOOST_TEST(ws.close_code() == 1003, ws.error());
    BOOST_TEST(!ws.close_reason().empty());
    BOOST_TEST(ws.closing_handshake_completed(), ws.error());
  }
  BOOST_TEST(server.serves());
  {
    // Invalid UTF-8 in a text message: closed with 1007 (RFC 6455's invalid payload).
    rs::WsClient ws(server.port());
    BOOST_TEST_REQUIRE(ws.handshake() == "");
    BOOST_TEST(ws.exchange("w1 w2 w3").value_or("<none>") == expected[0]);
    BOOST_TEST(ws.send("w1 \xff\xfe w2") == "");
    BOOST_TEST(ws.close_code() == 1007, ws.error());
  }
  BOOST_TEST(server.serves());
  {
    // A message over --max-body-bytes: closed with 1009 (too big). The server closes its
    // socket right after its close frame (the rest of the message unread), so our answer
    // to it may fail: only the code is checked.
    rs::WsClient ws(server.port());
    BOOST_TEST_REQUIRE(ws.handshake() == "");
    BOOST_TEST(ws.send(std::string(250000, 'w')) == "");
    BOOST_TEST(ws.close_code() == 1009, ws.error());
  }
  BOOST_TEST(server.serves());
  {
    // What the server refuses within a message is one line "error: ...", and the
    // connection goes on.
    rs::WsClient ws(server.port());
    BOOST_TEST_REQUIRE(ws.handshake() == "");
    std::string lines;
    for (int i = 0; i < 10000; ++i) lines += "w1\n";
    const auto many = ws.exchange(lines);
    BOOST_TEST_REQUIRE(many.has_value(), ws.error());
    BOOST_TEST(many->rfind("error: ", 0) == 0u, *many);
    BOOST_TEST(many->find("--max-lines") != std::string::npos, *many);
    BOOST_TEST(many->find('\n') == std::string::npos, *many);
    const auto long_line = ws.exchange(std::string(201, 'w'));
    BOOST_TEST_REQUIRE(long_line.has_value(), ws.error());
    BOOST_TEST(long_line->rfind("error: ", 0) == 0u, *long_line);
    BOOST_TEST(long_line->find('\n') == std::string::npos, *long_line);
    BOOST_TEST(ws.exchange("w1 w2 w3").value_or("<none>") == expected[0]);
  }
  {
    // An upgrade to a pair the server does not have: refused before it opens.
    rs::WsClient ws(server.port());
    BOOST_TEST(ws.handshake("/translate?pair=en-fr") != "");
    BOOST_TEST(rs::error_reply_problem(ws.refusal(), 400) == "");
  }
  BOOST_TEST(server.serves());
}

BOOST_AUTO_TEST_SUITE_END()
