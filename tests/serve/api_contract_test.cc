// nmt-serve's APIs as their clients call them, over 127.0.0.1 on a tiny reversal model:
// recorded requests and the replies those clients read, field names and JSON types
// included, with every translation, score and alignment the bytes the command-line tools
// print for the same line. LibreTranslate (/translate as JSON and as a form, q a string or
// an array, alternatives, source "auto", its errors and API keys, /languages, /health),
// OpenNMT-py (/translator/translate, /translator/models, /translator/health), Marian's
// WebSocket /translate, and the native /v1/translate (n-best, word scores, hard and soft
// alignments, replace_unk, pieces), /v1/score, /v1/align, /v1/pairs, /ready and /metrics.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "serve/serve_fixture.h"
#include "support/reversal_model.h"

namespace rs = rnnsearch::testing::serve;
using nlohmann::json;
using rnnsearch::testing::TempDir;

namespace {

// The object's keys, sorted, joined by commas ("" for a non-object).
std::string keys_of(const json& object) {
  if (!object.is_object()) return "<" + std::string(object.type_name()) + ">";
  std::string keys;
  for (const auto& item : object.items()) keys += (keys.empty() ? "" : ",") + item.key();
  return keys;
}

// The lines the tests send: what the model has learned, one longer than that, an empty
// line, and punctuation the tokenizer splits off (so the raw text's path is taken).
const std::vector<std::string> kLines = {"w1 w2 w3", "w4 w5 w6 w7 w8", "", "w9 w0,w3.", "w2 w2 w7 w1 w1 w5 w6 w0 w8"};

// {"q": q, "source": "xa", "target": "xb"} with the fields of `extra` added or replaced.
json lt_request(const json& q, const json& extra = json::object()) {
  json request = {{"q", q}, {"source", "xa"}, {"target", "xb"}};
  request.update(extra);
  return request;
}

struct Served {
  const rs::ServedModel& model = rs::shared_model();
  rs::ServeProcess server;
  explicit Served(const std::vector<std::string>& options = {}) : server(model.model, model.codes, options) {}
};

// The nmt-decode n-best entries of the raw lines (tokenized and BPE'd as the server does).
std::vector<rs::NBestEntry> cli_nbest(const rs::ServedModel& model, const std::vector<std::string>& lines,
                                      const std::vector<std::string>& options) {
  std::vector<std::string> argv = {"-b", "5"};
  argv.insert(argv.end(), options.begin(), options.end());
  return rs::parse_nbest(rs::cli_decode(model.model, rs::cli_pieces(model.codes, lines), argv));
}

// A native hypothesis against nmt-decode's n-best entry, its text against the pipeline's.
void check_hypothesis(const json& h, const rs::NBestEntry& cli, const std::string& text, const std::string& keys) {
  BOOST_TEST(keys_of(h) == keys);
  BOOST_TEST(h["text"].is_string());
  BOOST_TEST(h["pieces"].is_string());
  BOOST_TEST(h["log_prob"].is_number());
  BOOST_TEST(h["score"].is_number());
  BOOST_TEST(h["complete"].is_boolean());
  BOOST_TEST(h.value("text", "") == text);
  BOOST_TEST(h.value("pieces", "") == cli.pieces);
  BOOST_TEST(rs::tool_text(h["log_prob"]) == cli.log_prob);
  BOOST_TEST(rs::tool_text(h["score"]) == cli.score);
  if (h.contains("word_scores")) {
    BOOST_TEST(h["word_scores"].is_array());
    BOOST_TEST(rs::tool_texts(h["word_scores"]) == cli.word_scores);
  }
  if (h.contains("alignment")) {
    BOOST_TEST(h["alignment"].is_string());
    BOOST_TEST(h.value("alignment", "") == cli.alignment);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(serve_api)

// ---- LibreTranslate ----

BOOST_AUTO_TEST_CASE(libretranslate_json_with_q_a_string_and_an_array) {
  Served s;
  const auto expected = rs::cli_translations(s.model.model, s.model.codes, kLines);
  const auto one = s.server.post("/translate", rs::json_body(lt_request(kLines[0])));
  BOOST_TEST_REQUIRE(one.status == 200, one.describe());
  BOOST_TEST(one.header("content-type") == "application/json");
  const json body = one.json();
  BOOST_TEST(keys_of(body) == "translatedText");
  BOOST_TEST(body["translatedText"].is_string());
  BOOST_TEST(body.value("translatedText", "") == expected[0]);

  const auto many = s.server.post("/translate", rs::json_body(lt_request(kLines)));
  BOOST_TEST_REQUIRE(many.status == 200, many.describe());
  const json texts = many.json()["translatedText"];
  BOOST_TEST_REQUIRE(texts.is_array());
  BOOST_TEST_REQUIRE(texts.size() == kLines.size());
  for (std::size_t i = 0; i < kLines.size(); ++i) {
    BOOST_TEST_CONTEXT("line " << i << ": '" << kLines[i] << "'") {
      BOOST_TEST(texts[i].is_string());
      BOOST_TEST(texts[i].get<std::string>() == expected[i]);
    }
  }
  // An array of one is still an array; an empty q translates to "".
  const auto single = s.server.post("/translate", rs::json_body(lt_request(json::array({kLines[1]}))));
  BOOST_TEST(single.json() == json({{"translatedText", json::array({expected[1]})}}));
  const auto empty = s.server.post("/translate", rs::json_body(lt_request("")));
  BOOST_TEST(empty.status == 200);
  BOOST_TEST(empty.json() == json({{"translatedText", ""}}));
}

BOOST_AUTO_TEST_CASE(libretranslate_form_bodies) {
  Served s;
  const auto expected = rs::cli_translations(s.model.model, s.model.codes, {"w1 w2 w3", "w9 w0,w3."});
  const std::string form = "application/x-www-form-urlencoded";
  // Python's requests.post(url, data={...}) and the web page: "+" and %-escapes.
  const auto one = s.server.post("/translate", "q=w1+w2%20w3&source=xa&target=xb&format=text", form);
  BOOST_TEST_REQUIRE(one.status == 200, one.describe());
  BOOST_TEST(one.json() == json({{"translatedText", expected[0]}}));
  // q given twice: an array, in order.
  const auto two = s.server.post("/translate", "source=xa&q=w1+w2+w3&target=xb&q=w9+w0%2Cw3.", form);
  BOOST_TEST_REQUIRE(two.status == 200, two.describe());
  BOOST_TEST(two.json() == json({{"translatedText", json::array({expected[0], expected[1]})}}));
  // A form's numbers are strings: alternatives=1.
  const auto alternatives = s.server.post("/translate", "q=w1+w2+w3&source=xa&target=xb&alternatives=1", form);
  BOOST_TEST_REQUIRE(alternatives.status == 200, alternatives.describe());
  BOOST_TEST(keys_of(alternatives.json()) == "alternatives,translatedText");
  BOOST_TEST(alternatives.json()["alternatives"].is_array());
  // A bad %-escape is the client's error.
  BOOST_TEST(rs::error_reply_problem(s.server.post("/translate", "q=w1%2&source=xa&target=xb", form), 400) == "");
}

BOOST_AUTO_TEST_CASE(libretranslate_alternatives_are_the_distinct_n_best_texts) {
  Served s;
  const std::vector<std::string> lines = {"w1 w2 w3", "w4 w5 w6 w7 w8", ""};
  // alternatives 2: the 3 best of a beam of 5, their texts without repeats.
  const auto entries = cli_nbest(s.model, lines, {"--n-best", "3"});
  std::vector<std::string> pieces;
  for (const auto& e : entries) pieces.push_back(e.pieces);
  const auto texts = rs::cli_text_of_pieces(pieces);
  std::vector<std::vector<std::string>> distinct(lines.size());
  for (std::size_t k = 0; k < entries.size(); ++k) {
    auto& list = distinct[entries[k].sentence];
    if (std::find(list.begin(), list.end(), texts[k]) == list.end()) list.push_back(texts[k]);
  }
  const auto reply = s.server.post("/translate", rs::json_body(lt_request(lines, {{"alternatives", 2}})));
  BOOST_TEST_REQUIRE(reply.status == 200, reply.describe());
  const json body = reply.json();
  BOOST_TEST(keys_of(body) == "alternatives,translatedText");
  BOOST_TEST_REQUIRE(body["translatedText"].size() == lines.size());
  BOOST_TEST_REQUIRE(body["alternatives"].size() == lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    BOOST_TEST_CONTEXT("line " << i) {
      BOOST_TEST(body["translatedText"][i].get<std::string>() == distinct[i].front());
      const json& others = body["alternatives"][i];
      BOOST_TEST_REQUIRE(others.is_array());
      std::vector<std::string> got;
      for (const auto& o : others) got.push_back(o.is_string() ? o.get<std::string>() : "<not a string>");
      const std::vector<std::string> want(distinct[i].begin() + 1, distinct[i].end());
      BOOST_TEST(got == want, boost::test_tools::per_element());
    }
  }
  // q a string: alternatives a flat array of strings.
  const auto one = s.server.post("/translate", rs::json_body(lt_request(lines[0], {{"alternatives", 1}})));
  BOOST_TEST_REQUIRE(one.status == 200, one.describe());
  BOOST_TEST(one.json()["translatedText"] == distinct[0][0]);
  BOOST_TEST(one.json()["alternatives"] == json::array({distinct[0].at(1)}));
}

BOOST_AUTO_TEST_CASE(libretranslate_source_auto_names_the_detected_language) {
  Served s;
  const auto expected = rs::cli_translations(s.model.model, s.model.codes, {"w1 w2 w3"});
  const auto reply = s.server.post("/translate", R"({"q": "w1 w2 w3", "source": "auto", "target": "xb"})");
  BOOST_TEST_REQUIRE(reply.status == 200, reply.describe());
  BOOST_TEST(reply.json() ==
             json({{"translatedText", expected[0]}, {"detectedLanguage", {{"language", "xa"}, {"confidence", 100}}}}));
  const auto many = s.server.post("/translate", R"({"q": ["w1 w2 w3"], "source": "auto", "target": "xb"})");
  BOOST_TEST(many.json()["detectedLanguage"] == json::array({{{"language", "xa"}, {"confidence", 100}}}));
}

BOOST_AUTO_TEST_CASE(libretranslate_errors_are_one_json_line) {
  Served s;
  BOOST_TEST(rs::error_reply_problem(s.server.post("/translate", R"({"source": "xa", "target": "xb"})"), 400) == "");
  BOOST_TEST(s.server.post("/translate", R"({"source": "xa", "target": "xb"})").json()["error"] == "'q' is required");
  BOOST_TEST(rs::error_reply_problem(s.server.post("/translate", rs::json_body(lt_request("w1", {{"target", "fr"}}))),
                                     400) == "");
  BOOST_TEST(rs::error_reply_problem(s.server.post("/translate", R"({"q": "w1", "target": "xb"})"), 400) == "");
  BOOST_TEST(rs::error_reply_problem(s.server.post("/translate", rs::json_body(lt_request(json::array({"w1", 2})))),
                                     400) == "");
}

BOOST_AUTO_TEST_CASE(api_keys_in_the_body_in_a_form_and_as_a_bearer_token) {
  TempDir dir;
  const std::string keys = dir.write("keys", "# the clients' keys\n  key-one  \n\nkey-two\n");
  Served s({"--api-keys", keys});
  const auto expected = rs::cli_translations(s.model.model, s.model.codes, {"w1 w2 w3"});
  const json ok = {{"translatedText", expected[0]}};
  // None, or a wrong one: 403.
  const auto none = s.server.post("/translate", rs::json_body(lt_request("w1 w2 w3")));
  BOOST_TEST(rs::error_reply_problem(none, 403) == "");
  const auto wrong = s.server.post("/translate", rs::json_body(lt_request("w1 w2 w3", {{"api_key", "key-three"}})));
  BOOST_TEST(rs::error_reply_problem(wrong, 403) == "");
  const auto comment = s.server.post("/translate", rs::json_body(lt_request("w1 w2 w3", {{"api_key", "# the clients' keys"}})));
  BOOST_TEST(rs::error_reply_problem(comment, 403) == "");
  const auto bad_bearer = s.server.post("/translate", rs::json_body(lt_request("w1 w2 w3")), "application/json",
                                        {{"Authorization", "Bearer key-three"}});
  BOOST_TEST(rs::error_reply_problem(bad_bearer, 403) == "");
  // The field (trimmed in the file), a form's field, the header.
  const auto field = s.server.post("/translate", rs::json_body(lt_request("w1 w2 w3", {{"api_key", "key-one"}})));
  BOOST_TEST(field.status == 200, field.describe());
  BOOST_TEST(field.json() == ok);
  const auto form = s.server.post("/translate", "q=w1+w2+w3&source=xa&target=xb&api_key=key-two",
                                  "application/x-www-form-urlencoded");
  BOOST_TEST(form.status == 200, form.describe());
  BOOST_TEST(form.json() == ok);
  const auto bearer = s.server.post("/translate", rs::json_body(lt_request("w1 w2 w3")), "application/json",
                                    {{"Authorization", "Bearer key-two"}});
  BOOST_TEST(bearer.status == 200, bearer.describe());
  BOOST_TEST(bearer.json() == ok);
  // The other APIs take the header; the operations' endpoints need no key.
  BOOST_TEST(rs::error_reply_problem(s.server.post("/v1/translate", R"({"text": "w1 w2 w3"})"), 403) == "");
  BOOST_TEST(s.server.post("/v1/translate", R"({"text": "w1 w2 w3"})", "application/json",
                           {{"Authorization", "Bearer key-one"}}).status == 200);
  BOOST_TEST(rs::error_reply_problem(s.server.post("/translator/translate", R"([{"src": "w1", "id": 0}])"), 403) == "");
  BOOST_TEST(s.server.post("/translator/translate", R"([{"src": "w1", "id": 0}])", "application/json",
                           {{"Authorization", "Bearer key-one"}}).status == 200);
  BOOST_TEST(s.server.get("/health").status == 200);
  BOOST_TEST(s.server.get("/ready").status == 200);
}

BOOST_AUTO_TEST_CASE(libretranslate_languages_and_health) {
  Served s;
  const auto languages = s.server.get("/languages");
  BOOST_TEST_REQUIRE(languages.status == 200, languages.describe());
  BOOST_TEST(languages.header("content-type") == "application/json");
  const json list = languages.json();
  BOOST_TEST_REQUIRE(list.is_array());
  BOOST_TEST_REQUIRE(list.size() == 2u);
  for (const auto& language : list) {
    BOOST_TEST(keys_of(language) == "code,name,targets");
    BOOST_TEST(language["code"].is_string());
    BOOST_TEST(language["name"].is_string());
    BOOST_TEST(language["targets"].is_array());
  }
  BOOST_TEST(list[0] == json({{"code", "xa"}, {"name", "xa"}, {"targets", {"xb"}}}));
  BOOST_TEST(list[1] == json({{"code", "xb"}, {"name", "xb"}, {"targets", json::array()}}));
  const auto health = s.server.get("/health");
  BOOST_TEST(health.status == 200);
  BOOST_TEST(health.json() == json({{"status", "ok"}}));
}

// ---- OpenNMT-py ----

BOOST_AUTO_TEST_CASE(opennmt_translate_models_and_health) {
  Served s;
  const std::vector<std::string> lines = {"w1 w2 w3", "", "w9 w0,w3."};
  const auto expected = rs::cli_translations(s.model.model, s.model.codes, lines);
  const auto best = cli_nbest(s.model, lines, {"--n-best", "1"});
  BOOST_TEST_REQUIRE(best.size() == lines.size());
  json request = json::array();
  for (const auto& line : lines) request.push_back({{"src", line}, {"id", 0}});
  const auto reply = s.server.post("/translator/translate", rs::json_body(request));
  BOOST_TEST_REQUIRE(reply.status == 200, reply.describe());
  BOOST_TEST(reply.header("content-type") == "application/json");
  const json body = reply.json();
  BOOST_TEST_REQUIRE(body.is_array());
  BOOST_TEST_REQUIRE(body.size() == 1u);
  BOOST_TEST_REQUIRE(body[0].is_array());
  BOOST_TEST_REQUIRE(body[0].size() == lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    BOOST_TEST_CONTEXT("item " << i) {
      const json& item = body[0][i];
      BOOST_TEST(keys_of(item) == "align,n_best,pred_score,src,tgt");
      BOOST_TEST(item["src"] == lines[i]);
      BOOST_TEST(item["tgt"] == expected[i]);
      BOOST_TEST(item["n_best"].is_number_integer());
      BOOST_TEST(item["n_best"] == 1);
      BOOST_TEST(item["pred_score"].is_number());
      BOOST_TEST(rs::tool_text(item["pred_score"]) == best[i].score);
      BOOST_TEST(item["align"].is_null());
    }
  }
  // No item, an id left out (0).
  BOOST_TEST(s.server.post("/translator/translate", "[]").json() == json::array({json::array()}));
  const auto no_id = s.server.post("/translator/translate", R"([{"src": "w1 w2 w3"}])");
  BOOST_TEST(no_id.status == 200, no_id.describe());
  BOOST_TEST(no_id.json()[0][0]["tgt"] == expected[0]);

  const auto models = s.server.get("/translator/models");
  BOOST_TEST(models.status == 200);
  BOOST_TEST(models.json() == json::array({{{"model_id", 0}, {"source", "xa"}, {"target", "xb"}, {"loaded", true}}}));
  const auto health = s.server.get("/translator/health");
  BOOST_TEST(health.status == 200);
  BOOST_TEST(health.json() == json({{"status", "ok"}}));
}

// ---- Marian's WebSocket ----

BOOST_AUTO_TEST_CASE(marian_websocket_lines_in_lines_out) {
  Served s;
  const auto expected = rs::cli_translations(s.model.model, s.model.codes, kLines);
  rs::WsClient ws(s.server.port());
  BOOST_TEST_REQUIRE(ws.handshake("/translate") == "");
  // N lines in one message, an empty one among them: N lines back, joined by newlines.
  std::string message, reply;
  for (std::size_t i = 0; i < kLines.size(); ++i) {
    message += (i ? "\n" : "") + kLines[i];
    reply += (i ? "\n" : "") + expected[i];
  }
  const auto got = ws.exchange(message);
  BOOST_TEST_REQUIRE(got.has_value(), ws.error());
  BOOST_TEST(*got == reply);
  BOOST_TEST(rs::lines_of(*got + "\n").size() == kLines.size());
  // More messages on the connection. A message is read as std::getline reads text (as
  // Marian's server reads it): a final newline ends the last line and adds none, so lines
  // may come each with its newline (Marian's example client) or joined by newlines.
  const auto one = ws.exchange(kLines[1]);
  BOOST_TEST_REQUIRE(one.has_value(), ws.error());
  BOOST_TEST(*one == expected[1]);
  const auto terminated = ws.exchange(kLines[0] + "\n" + kLines[1] + "\n");
  BOOST_TEST_REQUIRE(terminated.has_value(), ws.error());
  BOOST_TEST(*terminated == expected[0] + "\n" + expected[1]);
  // An empty line is an empty line: alone, first, between and last (with its newline).
  const auto empty = ws.exchange("\n");
  BOOST_TEST_REQUIRE(empty.has_value(), ws.error());
  BOOST_TEST(*empty == "");
  const auto blanks = ws.exchange("\n\n" + kLines[0]);
  BOOST_TEST_REQUIRE(blanks.has_value(), ws.error());
  BOOST_TEST(*blanks == "\n\n" + expected[0]);
  const auto last = ws.exchange(kLines[0] + "\n\n");
  BOOST_TEST_REQUIRE(last.has_value(), ws.error());
  BOOST_TEST(*last == expected[0] + "\n");
  // The pair named in the query.
  rs::WsClient named(s.server.port());
  BOOST_TEST_REQUIRE(named.handshake("/translate?pair=xa-xb") == "");
  BOOST_TEST(named.exchange(kLines[0]).value_or("<none>") == expected[0]);
}

// ---- The native API ----

BOOST_AUTO_TEST_CASE(native_translate_defaults) {
  Served s;
  const auto expected = rs::cli_translations(s.model.model, s.model.codes, kLines);
  const auto best = cli_nbest(s.model, kLines, {"--n-best", "1"});
  BOOST_TEST_REQUIRE(best.size() == kLines.size());
  const auto reply = s.server.post("/v1/translate", rs::json_body({{"text", kLines}}));
  BOOST_TEST_REQUIRE(reply.status == 200, reply.describe());
  BOOST_TEST(reply.header("content-type") == "application/json");
  const json body = reply.json();
  BOOST_TEST(keys_of(body) == "pair,translations");
  BOOST_TEST(body["pair"] == "xa-xb");
  BOOST_TEST_REQUIRE(body["translations"].is_array());
  BOOST_TEST_REQUIRE(body["translations"].size() == kLines.size());
  for (std::size_t i = 0; i < kLines.size(); ++i) {
    BOOST_TEST_CONTEXT("line " << i << ": '" << kLines[i] << "'") {
      check_hypothesis(body["translations"][i], best[i], expected[i], "complete,log_prob,pieces,score,text");
    }
  }
  // A string text, the pair named either way.
  for (const json& request : {json{{"text", kLines[0]}}, json{{"text", kLines[0]}, {"pair", "xa-xb"}},
                              json{{"text", kLines[0]}, {"source_language", "xa"}, {"target_language", "xb"}}}) {
    const auto one = s.server.post("/v1/translate", rs::json_body(request));
    BOOST_TEST_REQUIRE(one.status == 200, one.describe());
    BOOST_TEST(one.json()["translations"].size() == 1u);
    BOOST_TEST(one.json()["translations"][0]["text"] == expected[0]);
  }
}

BOOST_AUTO_TEST_CASE(native_translate_n_best_word_scores_and_hard_alignments) {
  Served s;
  const auto entries = cli_nbest(s.model, kLines, {"--n-best", "3", "--word-scores", "--alignment", "hard"});
  std::vector<std::string> pieces;
  for (const auto& e : entries) pieces.push_back(e.pieces);
  const auto texts = rs::cli_text_of_pieces(pieces);
  const json request = {{"text", kLines}, {"n_best", 3}, {"word_scores", true}, {"alignment", "hard"}, {"beam_size", 5}};
  const auto reply = s.server.post("/v1/translate", rs::json_body(request));
  BOOST_TEST_REQUIRE(reply.status == 200, reply.describe());
  const json translations = reply.json()["translations"];
  BOOST_TEST_REQUIRE(translations.size() == kLines.size());
  const std::string keys = "alignment,complete,log_prob,pieces,score,text,word_scores";
  std::size_t k = 0;
  for (std::size_t i = 0; i < kLines.size(); ++i) {
    BOOST_TEST_CONTEXT("line " << i << ": '" << kLines[i] << "'") {
      const json& t = translations[i];
      BOOST_TEST(keys_of(t) == "alignment,complete,log_prob,n_best,pieces,score,text,word_scores");
      BOOST_TEST_REQUIRE(t["n_best"].is_array());
      std::size_t count = 0;
      while (k + count < entries.size() && entries[k + count].sentence == i) ++count;
      BOOST_TEST_REQUIRE(t["n_best"].size() == count);
      check_hypothesis(t, entries[k], texts[k], "alignment,complete,log_prob,n_best,pieces,score,text,word_scores");
      for (std::size_t h = 0; h < count; ++h) {
        BOOST_TEST_CONTEXT("hypothesis " << h) { check_hypothesis(t["n_best"][h], entries[k + h], texts[k + h], keys); }
      }
      k += count;
    }
  }
  BOOST_TEST(k == entries.size());
}

BOOST_AUTO_TEST_CASE(native_translate_soft_alignments) {
  Served s;
  const std::vector<std::string> lines = {"w1 w2 w3", "", "w9 w0,w3."};
  const auto out = rs::lines_of(rs::cli_decode(s.model.model, rs::cli_pieces(s.model.codes, lines),
                                               {"-b", "5", "--alignment", "soft"}));
  BOOST_TEST_REQUIRE(out.size() == lines.size());
  const auto reply = s.server.post("/v1/translate", rs::json_body({{"text", lines}, {"alignment", "soft"}}));
  BOOST_TEST_REQUIRE(reply.status == 200, reply.describe());
  const json translations = reply.json()["translations"];
  BOOST_TEST_REQUIRE(translations.size() == lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    BOOST_TEST_CONTEXT("line " << i) {
      // nmt-decode prints "pieces ||| alignment".
      const std::size_t bar = out[i].find(" ||| ");
      BOOST_TEST_REQUIRE(bar != std::string::npos);
      BOOST_TEST(keys_of(translations[i]) == "alignment,complete,log_prob,pieces,score,text");
      BOOST_TEST(translations[i]["pieces"] == out[i].substr(0, bar));
      BOOST_TEST(translations[i]["alignment"] == out[i].substr(bar + 5));
    }
  }
}

BOOST_AUTO_TEST_CASE(native_translate_replace_unk) {
  // A model whose target vocabulary keeps 6 of the 10 words: the others come out <unk>.
  rnnsearch::testing::ReversalModel small("", {"--tgt-vocab-size", "10"});
  const auto& m = rs::shared_model();
  rs::ServeProcess server(small.model, m.codes);
  const std::vector<std::string> lines = {"w1 w2 w3 w4", "w5 w6 w7 w8 w9", "w0 w9 w8"};
  const auto pieces = rs::cli_pieces(m.codes, lines);
  const auto plain = rs::lines_of(rs::cli_decode(small.model, pieces, {"-b", "5"}));
  const auto replaced = rs::lines_of(rs::cli_decode(small.model, pieces, {"-b", "5", "--replace-unk"}));
  BOOST_TEST_REQUIRE(plain.size() == lines.size());
  BOOST_TEST_REQUIRE(replaced.size() == lines.size());
  BOOST_TEST_REQUIRE(rs::joined_lines(plain).find("<unk>") != std::string::npos, "no <unk> to replace: " << rs::joined_lines(plain));
  const auto without = server.post("/v1/translate", rs::json_body({{"text", lines}}));
  const auto with = server.post("/v1/translate", rs::json_body({{"text", lines}, {"replace_unk", true}}));
  BOOST_TEST_REQUIRE(without.status == 200, without.describe());
  BOOST_TEST_REQUIRE(with.status == 200, with.describe());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    BOOST_TEST_CONTEXT("line " << i) {
      BOOST_TEST(without.json()["translations"][i]["pieces"] == plain[i]);
      BOOST_TEST(with.json()["translations"][i]["pieces"] == replaced[i]);
    }
  }
  BOOST_TEST(with.body.find("<unk>") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(native_translate_prefix_and_constraints_as_nmt_decode) {
  Served s;
  const std::vector<std::string> lines = {"w1 w2 w3", "w4 w5 w6 w7", "w8 w9"};
  const json constraints = {{"w9"}, {"w8 w0", "w3"}, json::array()};
  const json avoid = {json::array(), {"w7"}, {"w9"}};
  const std::vector<std::string> prefixes = {"", "w1", "w9 w8 </s>"};
  std::vector<std::string> json_lines;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    json_lines.push_back(json({{"text", lines[i]}, {"constraints", constraints[i]}, {"avoid", avoid[i]},
                               {"target_prefix", prefixes[i]}}).dump());
  }
  const auto expected = rs::lines_of(rs::cli_decode(s.model.model, json_lines, {"-b", "5", "--json-input"}));
  BOOST_TEST_REQUIRE(expected.size() == lines.size());
  const auto reply = s.server.post("/v1/translate", rs::json_body({{"text", lines}, {"input", "pieces"},
                                                                   {"constraints", constraints}, {"avoid", avoid},
                                                                   {"target_prefix", prefixes}}));
  BOOST_TEST_REQUIRE(reply.status == 200, reply.describe());
  for (std::size_t i = 0; i < lines.size(); ++i) BOOST_TEST(reply.json()["translations"][i]["pieces"] == expected[i]);
  // Raw text: the phrases go through the target side's tokenizer and BPE (here whole words).
  const auto text = s.server.post("/v1/translate", rs::json_body({{"text", lines[1]}, {"constraints", {"w8 w0", "w3"}},
                                                                  {"avoid", {"w7"}}, {"target_prefix", "w1"}}));
  BOOST_TEST_REQUIRE(text.status == 200, text.describe());
  BOOST_TEST(text.json()["translations"][0]["pieces"] == expected[1]);
  const auto ordered = rs::lines_of(rs::cli_decode(s.model.model, {lines[1] + "\tw3\tw8 w0"},
                                                   {"-b", "5", "--constraints", "ordered"}));
  const auto in_order = s.server.post("/v1/translate", rs::json_body({{"text", lines[1]}, {"constraints", {"w3", "w8 w0"}},
                                                                      {"constraints_order", "ordered"}}));
  BOOST_TEST_REQUIRE(in_order.status == 200, in_order.describe());
  BOOST_TEST(in_order.json()["translations"][0]["pieces"] == ordered.at(0));
  // Bad phrases and shapes: 400, naming the text.
  const auto unknown = s.server.post("/v1/translate", rs::json_body({{"text", lines}, {"input", "pieces"},
                                                                     {"constraints", {{"w1"}, {"zz"}, json::array()}}}));
  BOOST_TEST(rs::error_reply_problem(unknown, 400) == "");
  BOOST_TEST(unknown.json()["error"] ==
             "'text' line 2: the constraint 'zz' has a piece the model's target vocabulary lacks: 'zz'");
  const auto shape = s.server.post("/v1/translate", rs::json_body({{"text", lines}, {"constraints", {"w1"}}}));
  BOOST_TEST(rs::error_reply_problem(shape, 400) == "");
  const auto order = s.server.post("/v1/translate", rs::json_body({{"text", "w1"}, {"constraints_order", "any"}}));
  BOOST_TEST(rs::error_reply_problem(order, 400) == "");
}

BOOST_AUTO_TEST_CASE(native_translate_pieces_input) {
  Served s;
  // As pieces, "w9 w0,w3." is three pieces the model mostly does not know; as text, the
  // tokenizer splits the punctuation off first.
  const std::vector<std::string> lines = {"w1 w2 w3", "w9 w0,w3.", ""};
  const auto out = rs::parse_nbest(rs::cli_decode(s.model.model, lines, {"-b", "5", "--n-best", "1"}));
  BOOST_TEST_REQUIRE(out.size() == lines.size());
  const auto reply = s.server.post("/v1/translate", rs::json_body({{"text", lines}, {"input", "pieces"}}));
  BOOST_TEST_REQUIRE(reply.status == 200, reply.describe());
  const json translations = reply.json()["translations"];
  BOOST_TEST_REQUIRE(translations.size() == lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    BOOST_TEST_CONTEXT("line " << i) {
      // Pieces in, pieces out: "text" is the pieces too.
      check_hypothesis(translations[i], out[i], out[i].pieces, "complete,log_prob,pieces,score,text");
    }
  }
  const auto as_text = s.server.post("/v1/translate", rs::json_body({{"text", lines[1]}}));
  BOOST_TEST(as_text.json()["translations"][0]["pieces"] != translations[1]["pieces"]);
  BOOST_TEST(rs::error_reply_problem(s.server.post("/v1/translate", rs::json_body({{"text", "w1"}, {"input", "words"}})),
                                     400) == "");
}

BOOST_AUTO_TEST_CASE(native_score_against_nmt_score) {
  Served s;
  const std::vector<std::string> sources = {"w1 w2 w3", "w4 w5 w6 w7", "", "", "w1 w2"};
  const std::vector<std::string> targets = {"w3 w2 w1", "w4 w5 w6 w7", "", "w1", ""};
  const auto expected = rs::cli_scores(s.model.model, sources, targets);
  const auto reply = s.server.post("/v1/score", rs::json_body({{"source", sources}, {"target", targets}, {"word_scores", true}}));
  BOOST_TEST_REQUIRE(reply.status == 200, reply.describe());
  const json body = reply.json();
  BOOST_TEST(keys_of(body) == "pair,scores");
  BOOST_TEST(body["pair"] == "xa-xb");
  BOOST_TEST_REQUIRE(body["scores"].size() == sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    BOOST_TEST_CONTEXT("pair " << i << ": '" << sources[i] << "' -> '" << targets[i] << "'") {
      const json& score = body["scores"][i];
      BOOST_TEST(keys_of(score) == "score,word_scores");
      // A number, or the tools' "-inf" as a string (JSON has no infinity).
      BOOST_TEST((score["score"].is_number() || score["score"] == "-inf"));
      BOOST_TEST(rs::tool_text(score["score"]) + " " + rs::tool_texts(score["word_scores"]) == expected[i]);
    }
  }
  // normalize, and no word scores.
  const auto normalized = rs::cli_scores(s.model.model, sources, targets, {"--normalize", "1"});
  const auto plain = s.server.post("/v1/score", rs::json_body({{"source", sources}, {"target", targets}, {"normalize", 1}}));
  BOOST_TEST_REQUIRE(plain.status == 200, plain.describe());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    BOOST_TEST(keys_of(plain.json()["scores"][i]) == "score");
    BOOST_TEST(rs::tool_text(plain.json()["scores"][i]["score"]) == normalized[i]);
  }
  BOOST_TEST(rs::error_reply_problem(s.server.post("/v1/score", R"({"source": ["w1"], "target": []})"), 400) == "");
}

BOOST_AUTO_TEST_CASE(native_align_against_nmt_align) {
  Served s;
  const std::vector<std::string> sources = {"w1 w2 w3", "w4 w5 w6 w7", "w8 w9 w0 w1 w2"};
  const std::vector<std::string> targets = {"w3 w2 w1", "w7 w6 w5 w4", "w2 w1 w0 w9 w8"};
  for (const std::string mode : {"hard", "threshold"}) {
    BOOST_TEST_CONTEXT("mode " << mode) {
      const auto expected = rs::cli_alignments(s.model.model, sources, targets, mode);
      const auto reply = s.server.post("/v1/align", rs::json_body({{"source", sources}, {"target", targets}, {"mode", mode}}));
      BOOST_TEST_REQUIRE(reply.status == 200, reply.describe());
      const json body = reply.json();
      BOOST_TEST(keys_of(body) == "alignments,pair");
      BOOST_TEST(body["pair"] == "xa-xb");
      BOOST_TEST_REQUIRE(body["alignments"].size() == sources.size());
      for (std::size_t i = 0; i < sources.size(); ++i) {
        BOOST_TEST(body["alignments"][i].is_string());
        BOOST_TEST(body["alignments"][i] == expected[i]);
      }
    }
  }
  BOOST_TEST(rs::error_reply_problem(s.server.post("/v1/align", R"({"source": ["w1"], "target": ["w1"], "mode": "soft"})"),
                                     400) == "");
}

BOOST_AUTO_TEST_CASE(native_pairs_ready_and_metrics) {
  Served s;
  const auto pairs = s.server.get("/v1/pairs");
  BOOST_TEST_REQUIRE(pairs.status == 200, pairs.describe());
  // The fields a client reads, with their values and types (more fields may come: what
  // a pair can do grows).
  const json list = pairs.json();
  BOOST_TEST_REQUIRE(list.is_array());
  BOOST_TEST_REQUIRE(list.size() == 1u);
  const json expected = {{"pair", "xa-xb"}, {"source", "xa"},    {"target", "xb"},         {"models", 1},
                         {"bpe", true},     {"attention", true}, {"alignment_head", false}};
  for (const auto& field : expected.items()) {
    BOOST_TEST_CONTEXT("field '" << field.key() << "'") {
      BOOST_TEST_REQUIRE(list[0].contains(field.key()));
      BOOST_TEST(list[0][field.key()].type_name() == field.value().type_name());
      BOOST_TEST(list[0][field.key()] == field.value());
    }
  }
  for (const auto& field : list[0].items()) BOOST_TEST(field.value().is_primitive(), field.key());
  const auto ready = s.server.get("/ready");
  BOOST_TEST(ready.status == 200);
  BOOST_TEST(ready.json() == json({{"status", "ready"}}));

  for (int i = 0; i < 3; ++i) BOOST_TEST(s.server.post("/v1/translate", R"({"text": ["w1 w2 w3", "w4"]})").status == 200);
  BOOST_TEST(s.server.post("/translate", R"({"q": "w1", "source": "xa", "target": "xb"})").status == 200);
  BOOST_TEST(s.server.post("/translate", R"({"source": "xa", "target": "xb"})").status == 400);
  BOOST_TEST(s.server.get("/nowhere").status == 404);
  // The counters are written after the reply: wait until the last one is counted.
  std::string text;
  BOOST_TEST(rs::eventually([&] {
    const auto metrics = s.server.get("/metrics");
    text = metrics.body;
    return metrics.status == 200 &&
           rs::metric_value(text, "nmt_serve_requests_total{endpoint=\"other\",status=\"404\"}").has_value();
  }));
  const auto metrics = s.server.get("/metrics");
  BOOST_TEST(metrics.status == 200);
  BOOST_TEST(metrics.header("content-type").rfind("text/plain", 0) == 0u, metrics.header("content-type"));
  text = metrics.body;
  BOOST_TEST(text.find("# TYPE nmt_serve_requests_total counter\n") != std::string::npos);
  BOOST_TEST(text.find("# TYPE nmt_serve_request_seconds histogram\n") != std::string::npos);
  BOOST_TEST(text.find("# TYPE nmt_serve_batch_sentences histogram\n") != std::string::npos);
  BOOST_TEST(rs::metric_value(text, "nmt_serve_requests_total{endpoint=\"/v1/translate\",status=\"200\"}").value_or(-1) == 3.0);
  BOOST_TEST(rs::metric_value(text, "nmt_serve_requests_total{endpoint=\"/translate\",status=\"200\"}").value_or(-1) == 1.0);
  BOOST_TEST(rs::metric_value(text, "nmt_serve_requests_total{endpoint=\"/translate\",status=\"400\"}").value_or(-1) == 1.0);
  BOOST_TEST(rs::metric_value(text, "nmt_serve_request_seconds_count{endpoint=\"/v1/translate\"}").value_or(-1) == 3.0);
  BOOST_TEST(rs::metric_value(text, "nmt_serve_request_seconds_bucket{endpoint=\"/v1/translate\",le=\"+Inf\"}").value_or(-1) == 3.0);
  BOOST_TEST(rs::metric_value(text, "nmt_serve_batch_sentences_sum").value_or(-1) >= 7.0);
  BOOST_TEST(rs::metric_value(text, "nmt_serve_queued_sentences").value_or(-1) == 0.0);
  BOOST_TEST(rs::metric_value(text, "nmt_serve_running_sentences").value_or(-1) == 0.0);
  BOOST_TEST(rs::metric_value(text, "nmt_serve_open_connections").value_or(-1) >= 1.0);
  BOOST_TEST(rs::metric_value(text, "nmt_serve_ready").value_or(-1) == 1.0);
}

BOOST_AUTO_TEST_SUITE_END()
