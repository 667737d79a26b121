// LibreTranslate's API, as its clients call it:
//   POST /translate {q, source, target, format, alternatives, api_key} (JSON or a form)
//     -> {"translatedText": "..."} ({"translatedText": [...]} for an array q), with
//        "alternatives" when asked, and "detectedLanguage" for source "auto" (the only
//        source language the server has into target: no detection is done)
//   GET /languages -> [{"code", "name", "targets"}]
// Errors are {"error": "..."}: 400 bad request, 403 API key, 429 busy (LibreTranslate's
// slow-down, where the other APIs say 503), 500.
#include <set>

#include "serve/api_routes.h"
#include "serve/form_fields.h"
#include "serve/json_fields.h"
#include "serve/reply.h"
#include "serve/service.h"
#include "text/languages.h"

namespace rnnsearch::serve {

namespace {

// The text of each hypothesis of a line, best first, without repeats (two piece sequences
// can detokenize alike): the best, then up to `alternatives` others.
std::vector<std::string> distinct_texts(const Service& service, const LanguagePair& pair, const TranslatedLine& line,
                                        const search::TranslateOptions& config, std::size_t alternatives) {
  std::vector<std::string> texts;
  for (const auto& h : line.hypotheses) {
    const std::string text = pair.text_of(service.pieces_of(pair, line, h, config));
    if (std::find(texts.begin(), texts.end(), text) == texts.end()) texts.push_back(text);
    if (texts.size() == alternatives + 1) break;
  }
  return texts;
}

// LibreTranslate's own name for its slow-down: 429.
RequestError as_slow_down(const RequestError& error) {
  if (error.status() != 503) return error;
  return RequestError(429, error.what(), error.headers());
}

void translate(Service& service, const HttpRequest& request, CancelFlag cancelled, const Respond& respond) {
  const auto type = request.headers.find("content-type");
  const nlohmann::json body = parse_body(type == request.headers.end() ? "" : type->second, request.body);
  service.check_key(request, string_field(body, "api_key").value_or(""));
  const Strings q = required_strings(body, "q");
  const std::string format = string_field(body, "format").value_or("text");
  if (format != "text") throw RequestError(400, "'format' \"" + format + "\" is not supported; send \"text\"");
  const std::string source = required_string(body, "source"), target = required_string(body, "target");
  const auto pair = service.pair_of(body, "source", "target");
  const auto alternatives = static_cast<std::size_t>(
      integer_field(body, "alternatives", 0, service.options().max_n_best - 1).value_or(0));
  search::TranslateOptions config = service.translate_options(nlohmann::json::object(), *pair);
  if (alternatives > 0) {
    config.n_best = static_cast<int>(alternatives + 1);
    config.beam.beam_size = std::max(config.beam.beam_size, config.n_best);
  }
  LinesRequest lines{pair, q.values, false, config, {}};
  service.translate(std::move(lines), "q", std::move(cancelled),
                    [&service, pair, config, q, alternatives, source, respond](
                        const std::vector<TranslatedLine>* done, const RequestError* error) {
    if (error) return respond(error_reply(as_slow_down(*error)));
    nlohmann::json texts = nlohmann::json::array(), others = nlohmann::json::array();
    for (const auto& line : *done) {
      auto all = distinct_texts(service, *pair, line, config, alternatives);
      texts.push_back(all.front());
      others.push_back(std::vector<std::string>(all.begin() + 1, all.end()));
    }
    nlohmann::json reply = {{"translatedText", q.array ? texts : texts.front()}};
    if (alternatives > 0) reply["alternatives"] = q.array ? others : others.front();
    if (source == "auto") {
      const nlohmann::json detected = {{"language", pair->config().source_language}, {"confidence", 100}};
      reply["detectedLanguage"] = q.array ? nlohmann::json(std::vector<nlohmann::json>(texts.size(), detected))
                                          : detected;
    }
    respond(json_reply(reply));
  });
}

nlohmann::json languages(const Service& service) {
  std::map<std::string, std::set<std::string>> targets;
  for (const auto& pair : service.pairs()->pairs) {
    targets[pair->config().source_language].insert(pair->config().target_language);
    targets[pair->config().target_language];
  }
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [code, into] : targets) {
    list.push_back({{"code", code}, {"name", text::language_name(code)}, {"targets", std::vector<std::string>(into.begin(), into.end())}});
  }
  return list;
}

}  // namespace

void add_libretranslate_routes(Service& service) {
  service.add_route("POST", "/translate", [&service](const HttpRequest& request, CancelFlag cancelled, Respond respond) {
    try {
      translate(service, request, std::move(cancelled), respond);
    } catch (const RequestError& e) {
      respond(error_reply(as_slow_down(e)));
    }
  });
  service.add_route("GET", "/languages", [&service](const HttpRequest&, CancelFlag, Respond respond) {
    respond(json_reply(languages(service)));
  });
}

}  // namespace rnnsearch::serve
