// OpenNMT-py's REST server API:
//   POST /translator/translate [{"src": "...", "id": 0}, ...]
//     -> [[{"src", "tgt", "n_best", "pred_score", "align"}, ...]]: one inner list, its
//        entries in request order, n_best of them per src when the server's --n-best > 1
//   GET /translator/models -> [{"model_id", "source", "target", "loaded"}]
//   GET /translator/health -> {"status": "ok"}
// "id" is the model id: the pair's place in the server's configuration (0 the first).
#include "serve/api_routes.h"
#include "serve/json_fields.h"
#include "serve/reply.h"
#include "serve/service.h"

namespace rnnsearch::serve {

namespace {

std::shared_ptr<LanguagePair> pair_by_id(const Service& service, long long id) {
  const auto set = service.pairs();
  if (id < 0 || static_cast<std::size_t>(id) >= set->pairs.size()) {
    throw RequestError(400, "no model with 'id' " + std::to_string(id) + " (ids 0 to " +
                                std::to_string(set->pairs.size() - 1) + ")");
  }
  return set->pairs[static_cast<std::size_t>(id)];
}

void translate(Service& service, const HttpRequest& request, CancelFlag cancelled, const Respond& respond) {
  service.check_key(request, "");
  const nlohmann::json body = parse_json_body(request.body);
  if (!body.is_array()) throw RequestError(400, "the body must be an array of {\"src\", \"id\"}, got " + json_kind(body));
  if (body.empty()) return respond(json_reply(nlohmann::json::array({nlohmann::json::array()})));
  std::vector<std::string> lines;
  long long id = -1;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const nlohmann::json& item = body[i];
    const std::string where = "[" + std::to_string(i) + "]";
    if (!item.is_object()) throw RequestError(400, "'" + where + "' must be an object, got " + json_kind(item));
    const auto src = string_field(item, "src");
    if (!src) throw RequestError(400, "'" + where + ".src' is required");
    const long long item_id = integer_field(item, "id", 0, 1000000).value_or(0);
    if (id >= 0 && item_id != id) throw RequestError(400, "all items of a request must have one 'id'");
    id = item_id;
    lines.push_back(*src);
  }
  const auto pair = pair_by_id(service, id);
  search::TranslateOptions config = service.translate_options(nlohmann::json::object(), *pair);
  LinesRequest line_request{pair, lines, false, config, {}};
  service.translate(std::move(line_request), "src", std::move(cancelled),
                    [&service, pair, config, lines, respond](const std::vector<TranslatedLine>* done,
                                                             const RequestError* error) {
    if (error) return respond(error_reply(*error));
    nlohmann::json entries = nlohmann::json::array();
    for (std::size_t i = 0; i < done->size(); ++i) {
      const TranslatedLine& line = (*done)[i];
      for (const auto& h : line.hypotheses) {
        const std::string text = pair->text_of(service.pieces_of(*pair, line, h, config));
        entries.push_back({{"src", lines[i]}, {"tgt", text}, {"n_best", std::max(1, config.n_best)},
                           {"pred_score", tool_number(h.score)}, {"align", nullptr}});
      }
    }
    respond(json_reply(nlohmann::json::array({entries})));
  });
}

}  // namespace

void add_opennmt_routes(Service& service) {
  service.add_route("POST", "/translator/translate",
                    [&service](const HttpRequest& request, CancelFlag cancelled, Respond respond) {
    translate(service, request, std::move(cancelled), respond);
  });
  service.add_route("GET", "/translator/models", [&service](const HttpRequest&, CancelFlag, Respond respond) {
    nlohmann::json models = nlohmann::json::array();
    const auto set = service.pairs();
    for (std::size_t id = 0; id < set->pairs.size(); ++id) {
      const auto& config = set->pairs[id]->config();
      models.push_back({{"model_id", id}, {"source", config.source_language}, {"target", config.target_language},
                        {"loaded", true}});
    }
    respond(json_reply(models));
  });
  service.add_route("GET", "/translator/health", [](const HttpRequest&, CancelFlag, Respond respond) {
    respond(json_reply({{"status", "ok"}}));
  });
}

}  // namespace rnnsearch::serve
