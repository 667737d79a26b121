// nmt-serve's life after it starts: SIGTERM while requests wait for their batch (each is
// answered with the tools' bytes, a WebSocket open is closed with 1001, new connections
// are refused, exit 0), a drain cut off by --drain-seconds (exit 1), and SIGHUP: with a
// model file that does not load (the old models keep serving, one line on stderr says
// why), with a model trained for another task (the replies become that model's), and in
// the middle of a batch's wait (each request on the models it started with).
#include <boost/test/unit_test.hpp>

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "serve/serve_fixture.h"
#include "support/reversal_model.h"

namespace rs = rnnsearch::testing::serve;
using nlohmann::json;
using rnnsearch::testing::TempDir;

namespace {

std::vector<std::string> held_out_lines(int count, std::uint64_t seed) {
  return rs::lines_of(rnnsearch::testing::held_out_reversals(count, seed).source);
}

// Whether /metrics counts at least `sentences` queued sentences within 5 s.
bool queued_at_least(const rs::ServeProcess& server, double sentences) {
  return rs::eventually([&] {
    const auto text = server.get("/metrics").body;
    return rs::metric_value(text, "nmt_serve_queued_sentences").value_or(-1) >= sentences;
  });
}

// The texts of a /v1/translate reply ({"<status N>"} when it is not 200).
std::vector<std::string> texts_of(const rs::HttpReply& reply) {
  if (reply.status != 200) return {"<" + reply.describe() + ">"};
  std::vector<std::string> texts;
  const json body = json::parse(reply.body);
  for (const auto& t : body.at("translations")) texts.push_back(t.value("text", "<none>"));
  return texts;
}

rs::HttpReply translate(const rs::ServeProcess& server, const std::vector<std::string>& lines) {
  return server.post("/v1/translate", json{{"text", lines}}.dump());
}

// The lines of `text` holding `part`.
std::vector<std::string> lines_with(const std::string& text, const std::string& part) {
  std::vector<std::string> found;
  for (const auto& line : rs::lines_of(text)) {
    if (line.find(part) != std::string::npos) found.push_back(line);
  }
  return found;
}

// Replaces `path` by `bytes` at once (a new file renamed over it), as a deployment does.
void replace_file(const std::string& path, const std::string& bytes) {
  const std::string fresh = path + ".new";
  std::ofstream(fresh, std::ios::binary) << bytes;
  std::filesystem::rename(fresh, path);
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(serve_lifecycle)

BOOST_AUTO_TEST_CASE(sigterm_answers_the_requests_in_flight_then_exits_0) {
  const auto& m = rs::shared_model();
  constexpr int kInFlight = 6;
  std::vector<std::vector<std::string>> lines;
  std::vector<std::string> all;
  for (int r = 0; r < kInFlight; ++r) {
    lines.push_back(held_out_lines(3, 40 + static_cast<std::uint64_t>(r)));
    all.insert(all.end(), lines.back().begin(), lines.back().end());
  }
  const auto expected = rs::cli_translations(m.model, m.codes, all);
  // A batch that is not full waits 1 s: the 18 sentences are all queued at the SIGTERM.
  rs::ServeProcess server(m.model, m.codes, {"--batch-wait-ms", "1000", "--threads", "1"});
  rs::WsClient ws(server.port());
  BOOST_TEST_REQUIRE(ws.handshake() == "");
  std::vector<rs::HttpReply> replies(kInFlight);
  std::vector<std::thread> clients;
  for (int r = 0; r < kInFlight; ++r) {
    clients.emplace_back([&, r] { replies[static_cast<std::size_t>(r)] = translate(server, lines[static_cast<std::size_t>(r)]); });
  }
  BOOST_TEST_REQUIRE(queued_at_least(server, 3 * kInFlight));
  server.process().send_signal(SIGTERM);
  BOOST_TEST(server.process().wait_for_stderr("SIGTERM: no new connections", 5), server.err());
  BOOST_TEST(server.err().find("answering the " + std::to_string(kInFlight) + " request(s) in flight") !=
             std::string::npos, server.err());
  BOOST_TEST(rs::eventually([&] { return rs::refuses_connections(server.port()); }), "still accepting after SIGTERM");
  // The open WebSocket is told the server goes away.
  BOOST_TEST(ws.close_code() == 1001, ws.error());
  for (auto& client : clients) client.join();
  for (int r = 0; r < kInFlight; ++r) {
    BOOST_TEST_CONTEXT("request " << r) {
      const std::vector<std::string> want(expected.begin() + 3 * r, expected.begin() + 3 * r + 3);
      BOOST_TEST(texts_of(replies[static_cast<std::size_t>(r)]) == want, boost::test_tools::per_element());
    }
  }
  const int code = server.process().wait();
  BOOST_TEST(code == 0, server.err());
  BOOST_TEST(server.process().killed_by() == 0);
  BOOST_TEST(server.err().find("unanswered") == std::string::npos, server.err());
  BOOST_TEST(rs::refuses_connections(server.port()));
}

BOOST_AUTO_TEST_CASE(a_drain_cut_off_by_drain_seconds_exits_1) {
  const auto& m = rs::shared_model();
  // The batch waits 3 s, the drain gives 0.3 s.
  rs::ServeProcess server(m.model, m.codes, {"--batch-wait-ms", "3000", "--drain-seconds", "0.3", "--threads", "1"});
  rs::HttpReply reply;
  std::thread client([&] { reply = translate(server, {"w1 w2 w3"}); });
  BOOST_TEST_REQUIRE(queued_at_least(server, 1));
  server.process().send_signal(SIGTERM);
  const int code = server.process().wait();
  client.join();
  BOOST_TEST(code == 1, server.err());
  BOOST_TEST(lines_with(server.err(), "--drain-seconds passed with 1 request(s) unanswered").size() == 1u, server.err());
  // Cut off: no reply, or one saying the server stops.
  BOOST_TEST((reply.status == 0 || rs::error_reply_problem(reply, 503) == ""), reply.describe());
}

BOOST_AUTO_TEST_CASE(sighup_keeps_the_old_models_when_a_file_does_not_load_then_loads_a_new_one) {
  const auto& m = rs::shared_model();
  TempDir dir;
  const std::string model = (dir.path() / "served.bin").string();
  std::filesystem::copy_file(m.model, model);
  const std::string copy_model = rs::train_copy_model(dir);
  const auto lines = held_out_lines(8, 77);
  const auto reversed = rs::cli_translations(m.model, m.codes, lines);
  const auto copied = rs::cli_translations(copy_model, m.codes, lines);
  BOOST_TEST_REQUIRE(reversed != copied, "the two models translate alike");

  rs::ServeProcess server(model, m.codes);
  BOOST_TEST_REQUIRE(texts_of(translate(server, lines)) == reversed, boost::test_tools::per_element());

  // A model file that does not load: the models loaded stay, and stderr says why, once.
  replace_file(model, "this is not a model\n" + std::string(1000, '\x7f'));
  server.process().send_signal(SIGHUP);
  BOOST_TEST_REQUIRE(server.process().wait_for_stderr("keeping the models already loaded", 10), server.err());
  const auto why = lines_with(server.err(), "keeping the models already loaded");
  BOOST_TEST(why.size() == 1u, server.err());
  if (!why.empty()) BOOST_TEST(why[0].find("served.bin") != std::string::npos, "the line names no file: " << why[0]);
  BOOST_TEST(texts_of(translate(server, lines)) == reversed, boost::test_tools::per_element());
  BOOST_TEST(server.get("/ready").status == 200);

  // A good file of another model: its translations from now on.
  replace_file(model, file_bytes(copy_model));
  server.process().send_signal(SIGHUP);
  BOOST_TEST_REQUIRE(server.process().wait_for_stderr("SIGHUP: reloaded the models of 1 pair(s)", 10), server.err());
  BOOST_TEST(texts_of(translate(server, lines)) == copied, boost::test_tools::per_element());
  const auto libre = server.post("/translate", json{{"q", lines}, {"source", "xa"}, {"target", "xb"}}.dump());
  BOOST_TEST(libre.json()["translatedText"] == json(copied));
  BOOST_TEST(lines_with(server.err(), "keeping the models already loaded").size() == 1u, server.err());

  server.process().send_signal(SIGTERM);
  BOOST_TEST(server.process().wait() == 0, server.err());
}

// service.h: "Requests in flight finish on the pairs they started with." A request queued
// before a SIGHUP and one sent after it, while the first still waits for its batch, may be
// pooled in one batch (same pair name, same options): each must still get the
// translations of the models it started on.
BOOST_AUTO_TEST_CASE(a_reload_while_a_batch_waits_keeps_each_request_on_its_models) {
  const auto& m = rs::shared_model();
  TempDir dir;
  const std::string model = (dir.path() / "served.bin").string();
  std::filesystem::copy_file(m.model, model);
  const std::string copy_model = rs::train_copy_model(dir);
  // The request after the reload has the longer sentences (a batch runs longest first).
  const std::vector<std::string> before_lines = {"w1 w2 w3", "w4 w5 w6"};
  const std::vector<std::string> after_lines = {"w7 w8 w9 w0 w1", "w2 w3 w4 w5 w6"};
  const auto old_before = rs::cli_translations(m.model, m.codes, before_lines);
  const auto new_after = rs::cli_translations(copy_model, m.codes, after_lines);
  BOOST_TEST_REQUIRE(rs::cli_translations(copy_model, m.codes, before_lines) != old_before);

  rs::ServeProcess server(model, m.codes, {"--batch-wait-ms", "2000", "--threads", "1"});
  rs::HttpReply before, after;
  std::thread first([&] { before = translate(server, before_lines); });
  BOOST_TEST_REQUIRE(queued_at_least(server, 2));
  replace_file(model, file_bytes(copy_model));
  server.process().send_signal(SIGHUP);
  BOOST_TEST_REQUIRE(server.process().wait_for_stderr("SIGHUP: reloaded the models", 10), server.err());
  std::thread second([&] { after = translate(server, after_lines); });
  first.join();
  second.join();
  BOOST_TEST(texts_of(before) == old_before, boost::test_tools::per_element());
  BOOST_TEST(texts_of(after) == new_after, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
