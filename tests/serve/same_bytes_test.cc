// nmt-serve answers a line with the command-line tools' bytes whatever else it batches the
// line with: 16 client threads send seeded random lines over w0..w9 (empty lines, 1 to 14
// words, some punctuation for the tokenizer), 1 to 4 lines a request, through every API at
// once, to a server of 2 workers and mini-batches of 8 (so a batch pools requests). Each
// reply is compared with what the tools print for its lines:
//   translations  nmt-tokenize -l xa --no-escape | nmt-bpe apply | nmt-decode --max-length 0
//                 -b 5 | nmt-bpe undo | nmt-detokenize -l xb (rnnsearch-translate's pipeline)
//   n-best        nmt-decode --n-best 3 --word-scores --alignment hard: pieces, alignments
//                 byte for byte, numbers as util::general prints them
//   scores        nmt-score --word-scores
//   alignments    nmt-align
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "serve/serve_fixture.h"

namespace rs = rnnsearch::testing::serve;
using nlohmann::json;

namespace {

constexpr int kClients = 16;
constexpr int kLinesPerClient = 60;
constexpr std::size_t kMostLinesPerRequest = 4;  // a batch of more sentences pools requests

// Seeded random lines: about one in ten empty, the others 1 to 14 words of w0..w9, some
// with punctuation the tokenizer splits off (the model reads it as unknown pieces).
std::vector<std::string> random_lines(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  auto below = [&rng](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < count; ++i) {
    std::string line;
    const int words = below(10) == 0 ? 0 : 1 + below(below(3) == 0 ? 14 : 6);
    for (int k = 0; k < words; ++k) {
      line += (k ? " " : "") + std::string("w") + std::to_string(below(10));
      if (below(25) == 0) line += below(2) ? "," : ".";
    }
    lines.push_back(line);
  }
  return lines;
}

// A target for each line to score and align with: its words reversed, some changed.
std::vector<std::string> targets_for(const std::vector<std::string>& pieces, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> targets;
  for (const auto& line : pieces) {
    std::vector<std::string> words;
    std::string word;
    for (const char c : line + " ") {
      if (c != ' ') {
        word += c;
      } else if (!word.empty()) {
        words.insert(words.begin(), rng() % 5 == 0 ? "w" + std::to_string(rng() % 10) : word);
        word.clear();
      }
    }
    if (rng() % 8 == 0) words.push_back("w" + std::to_string(rng() % 10));
    std::string target;
    for (const auto& w : words) target += (target.empty() ? "" : " ") + w;
    targets.push_back(target);
  }
  return targets;
}

// What the tools print for every line.
struct Expected {
  std::vector<std::string> lines, pieces, targets;
  std::vector<std::string> translations;
  std::vector<std::vector<rs::NBestEntry>> nbest;  // per line
  std::vector<std::string> scores, alignments;
};

Expected expected_for(const rs::ServedModel& m, std::vector<std::string> lines) {
  Expected e;
  e.lines = std::move(lines);
  e.translations = rs::cli_translations(m.model, m.codes, e.lines);
  e.pieces = rs::cli_pieces(m.codes, e.lines);
  e.targets = targets_for(e.pieces, 99);
  e.nbest.resize(e.lines.size());
  for (const auto& entry : rs::parse_nbest(rs::cli_decode(
           m.model, e.pieces, {"-b", "5", "--n-best", "3", "--word-scores", "--alignment", "hard"}))) {
    e.nbest.at(entry.sentence).push_back(entry);
  }
  e.scores = rs::cli_scores(m.model, e.pieces, e.targets);
  e.alignments = rs::cli_alignments(m.model, e.pieces, e.targets);
  return e;
}

// One client thread's requests; what differs from the tools goes into `failures`.
class ClientRun {
 public:
  ClientRun(const Expected& expected, unsigned short port, int client, std::vector<std::string>& failures)
      : e_(expected), port_(port), client_(client), failures_(failures), http_(port, 20), ws_(port, 20) {}

  void run() {
    std::mt19937 rng(1000 + static_cast<unsigned>(client_));
    std::vector<std::size_t> mine;
    for (std::size_t i = static_cast<std::size_t>(client_); i < e_.lines.size(); i += kClients) mine.push_back(i);
    int kind = client_;
    for (std::size_t begin = 0; begin < mine.size();) {
      const std::size_t count = std::min<std::size_t>(1 + rng() % kMostLinesPerRequest, mine.size() - begin);
      const std::vector<std::size_t> group(mine.begin() + static_cast<long>(begin),
                                           mine.begin() + static_cast<long>(begin + count));
      begin += count;
      switch (kind++ % 7) {
        case 0: libretranslate(group); break;
        case 1: native(group); break;
        case 2: native_nbest(group); break;
        case 3: marian(group); break;
        case 4: opennmt(group); break;
        case 5: score(group); break;
        default: align(group); break;
      }
      ++requests;
    }
  }
  int requests = 0;

 private:
  void fail(const std::string& what, std::size_t line, const std::string& expected, const std::string& got) {
    failures_.push_back("client " + std::to_string(client_) + ", " + what + ", line " + std::to_string(line) + " '" +
                        e_.lines[line] + "': expected '" + expected + "', got '" + got + "'");
  }
  void check(const std::string& what, std::size_t line, const std::string& expected, const std::string& got) {
    if (expected != got) fail(what, line, expected, got);
  }
  // The reply's JSON, or null after recording why there is none.
  json reply_json(const std::string& what, const rs::HttpReply& reply, std::size_t line) {
    if (reply.status != 200) {
      fail(what, line, "status 200", reply.describe());
      return nullptr;
    }
    try {
      return json::parse(reply.body);
    } catch (const std::exception&) {
      fail(what, line, "JSON", reply.body);
      return nullptr;
    }
  }
  json field(const std::vector<std::size_t>& group, const std::vector<std::string>& from) const {
    json list = json::array();
    for (const auto i : group) list.push_back(from[i]);
    return list;
  }
  static std::string text_of(const json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

  void libretranslate(const std::vector<std::size_t>& group) {
    const json body = reply_json("/translate", http_.post("/translate", json{{"q", field(group, e_.lines)},
                                                                             {"source", "xa"}, {"target", "xb"}}.dump()),
                                 group[0]);
    if (body.is_null()) return;
    const json texts = body.value("translatedText", json());
    for (std::size_t k = 0; k < group.size(); ++k) {
      check("/translate", group[k], e_.translations[group[k]], k < texts.size() ? text_of(texts[k]) : "<missing>");
    }
  }

  void native(const std::vector<std::size_t>& group) {
    const json body = reply_json("/v1/translate", http_.post("/v1/translate", json{{"text", field(group, e_.lines)}}.dump()),
                                 group[0]);
    if (body.is_null()) return;
    const json list = body.value("translations", json::array());
    for (std::size_t k = 0; k < group.size(); ++k) {
      check("/v1/translate", group[k], e_.translations[group[k]],
            k < list.size() ? text_of(list[k].value("text", json())) : "<missing>");
    }
  }

  void native_nbest(const std::vector<std::size_t>& group) {
    const json request = {{"text", field(group, e_.lines)}, {"n_best", 3}, {"word_scores", true}, {"alignment", "hard"}};
    const json body = reply_json("/v1/translate n_best", http_.post("/v1/translate", request.dump()), group[0]);
    if (body.is_null()) return;
    const json list = body.value("translations", json::array());
    for (std::size_t k = 0; k < group.size(); ++k) {
      const auto& entries = e_.nbest[group[k]];
      const json hypotheses = k < list.size() ? list[k].value("n_best", json::array()) : json::array();
      check("n_best count", group[k], std::to_string(entries.size()), std::to_string(hypotheses.size()));
      for (std::size_t h = 0; h < std::min(entries.size(), hypotheses.size()); ++h) {
        const json& got = hypotheses[h];
        const rs::NBestEntry& want = entries[h];
        const std::string where = "n_best " + std::to_string(h);
        check(where + " pieces", group[k], want.pieces, text_of(got.value("pieces", json())));
        check(where + " log_prob", group[k], want.log_prob, rs::tool_text(got.value("log_prob", json())));
        check(where + " score", group[k], want.score, rs::tool_text(got.value("score", json())));
        check(where + " word_scores", group[k], want.word_scores, rs::tool_texts(got.value("word_scores", json())));
        check(where + " alignment", group[k], want.alignment, text_of(got.value("alignment", json())));
      }
    }
  }

  void marian(const std::vector<std::size_t>& group) {
    if (!connected_) {
      const std::string error = ws_.handshake("/translate");
      if (!error.empty()) return fail("WebSocket", group[0], "the upgrade", error);
      connected_ = true;
    }
    // Each line ends with its newline, as Marian's example client sends stdin's lines (a
    // message is read as std::getline reads it: a last empty line needs its newline); the
    // reply is the translations joined by newlines.
    std::string message, expected;
    for (std::size_t k = 0; k < group.size(); ++k) {
      message += e_.lines[group[k]] + "\n";
      expected += (k ? "\n" : "") + e_.translations[group[k]];
    }
    const auto reply = ws_.exchange(message);
    if (!reply) {
      connected_ = false;
      return fail("WebSocket", group[0], expected, "no reply: " + ws_.error());
    }
    check("WebSocket", group[0], expected, *reply);
  }

  void opennmt(const std::vector<std::size_t>& group) {
    json request = json::array();
    for (const auto i : group) request.push_back({{"src", e_.lines[i]}, {"id", 0}});
    const json body = reply_json("/translator/translate", http_.post("/translator/translate", request.dump()), group[0]);
    if (body.is_null()) return;
    const json items = body.is_array() && !body.empty() ? body[0] : json::array();
    for (std::size_t k = 0; k < group.size(); ++k) {
      check("/translator/translate", group[k], e_.translations[group[k]],
            k < items.size() ? text_of(items[k].value("tgt", json())) : "<missing>");
    }
  }

  void score(const std::vector<std::size_t>& group) {
    const json request = {{"source", field(group, e_.pieces)}, {"target", field(group, e_.targets)},
                          {"input", "pieces"}, {"word_scores", true}};
    const json body = reply_json("/v1/score", http_.post("/v1/score", request.dump()), group[0]);
    if (body.is_null()) return;
    const json scores = body.value("scores", json::array());
    for (std::size_t k = 0; k < group.size(); ++k) {
      const std::string got = k < scores.size() ? rs::tool_text(scores[k].value("score", json())) + " " +
                                                      rs::tool_texts(scores[k].value("word_scores", json()))
                                                : "<missing>";
      check("/v1/score", group[k], e_.scores[group[k]], got);
    }
  }

  void align(const std::vector<std::size_t>& group) {
    const json request = {{"source", field(group, e_.pieces)}, {"target", field(group, e_.targets)}, {"input", "pieces"}};
    const json body = reply_json("/v1/align", http_.post("/v1/align", request.dump()), group[0]);
    if (body.is_null()) return;
    const json links = body.value("alignments", json::array());
    for (std::size_t k = 0; k < group.size(); ++k) {
      check("/v1/align", group[k], e_.alignments[group[k]], k < links.size() ? text_of(links[k]) : "<missing>");
    }
  }

  const Expected& e_;
  unsigned short port_;
  int client_;
  std::vector<std::string>& failures_;
  rs::HttpClient http_;
  rs::WsClient ws_;
  bool connected_ = false;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(serve_same_bytes)

BOOST_AUTO_TEST_CASE(sixteen_concurrent_clients_get_the_command_line_tools_bytes) {
  const auto& m = rs::shared_model();
  const Expected expected = expected_for(m, random_lines(kClients * kLinesPerClient, 2024));
  rs::ServeProcess server(m.model, m.codes, {"--threads", "2", "--mini-batch", "8", "-b", "5"});

  std::vector<std::vector<std::string>> failures(kClients);
  std::vector<int> requests(kClients, 0);
  std::mutex mutex;
  std::condition_variable start;
  bool go = false;
  std::vector<std::thread> threads;
  for (int c = 0; c < kClients; ++c) {
    threads.emplace_back([&, c] {
      ClientRun run(expected, server.port(), c, failures[static_cast<std::size_t>(c)]);
      {
        std::unique_lock<std::mutex> lock(mutex);
        start.wait(lock, [&] { return go; });
      }
      run.run();
      requests[static_cast<std::size_t>(c)] = run.requests;
    });
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    go = true;
  }
  start.notify_all();
  for (auto& thread : threads) thread.join();

  std::size_t failed = 0, sent = 0;
  for (int c = 0; c < kClients; ++c) {
    sent += static_cast<std::size_t>(requests[static_cast<std::size_t>(c)]);
    for (const auto& failure : failures[static_cast<std::size_t>(c)]) {
      if (++failed <= 20) BOOST_TEST_MESSAGE(failure);
    }
  }
  BOOST_TEST(failed == 0u, failed << " replies differ from the tools' bytes (the first 20 above)");
  BOOST_TEST_MESSAGE(sent << " requests of " << expected.lines.size() << " lines from " << kClients << " clients");

  // The batches pooled requests: some held more sentences than any one request has.
  std::string text;
  BOOST_TEST(rs::eventually([&] {
    text = server.get("/metrics").body;
    return rs::metric_value(text, "nmt_serve_queued_sentences").value_or(-1) == 0;
  }));
  const double up_to_4 = rs::metric_value(text, "nmt_serve_batch_sentences_bucket{le=\"4\"}").value_or(-1);
  const double up_to_8 = rs::metric_value(text, "nmt_serve_batch_sentences_bucket{le=\"8\"}").value_or(-1);
  const double all = rs::metric_value(text, "nmt_serve_batch_sentences_bucket{le=\"+Inf\"}").value_or(-1);
  BOOST_TEST_MESSAGE("batches: " << all << ", of more than 4 sentences: " << up_to_8 - up_to_4);
  BOOST_TEST(up_to_8 - up_to_4 > 0, "no batch pooled two requests");
  BOOST_TEST(all == up_to_8, "a batch above --mini-batch 8");
}

BOOST_AUTO_TEST_SUITE_END()
