// The native API: what only rnnsearch has, per request.
//   POST /v1/translate {"text": "..." | [...], "pair" | "source_language" + "target_language", "input": "text" |
//        "pieces", "beam_size", "n_best", "length_penalty", "max_length_ratio", "alignment":
//        "hard" | "soft", "word_scores", "replace_unk", "target_prefix", "constraints", "avoid",
//        "constraints_order" (serve/constraint_fields.h)}
//     -> {"pair", "translations": [{"text", "pieces", "log_prob", "score", "complete",
//        "alignment"?, "word_scores"?, "n_best"?: [the same fields per hypothesis]}]}
//   POST /v1/score {"source": [...], "target": [...], "input", "normalize", "word_scores"}
//     -> {"pair", "scores": [{"score", "word_scores"?}]}        (nmt-score)
//   POST /v1/align {"source": [...], "target": [...], "input", "method": "attention" | "hmm", ...}
//     -> {"pair", "alignments": ["0-0 1-2", ...]}, source index first:
//        attention: nmt-align -m MODEL ("mode": "hard" | "threshold", "threshold"), over words
//          made of the BPE'd pairs' pieces;
//        hmm: nmt-align hmm --load-params with the pair's --hmm-params ("links": "forward" |
//          "reverse" | "agreed", "decode": "posterior" | "viterbi", "threshold"), over the
//          tokenized words
//   GET /v1/pairs -> [{"pair", "source", "target", "models", "bpe", "attention", "alignment_head",
//        "hmm"}]: what each pair can do
// Numbers are those the command-line tools print (util::general's digits); alignments and
// pieces are the tools' text, byte for byte.
#include "align/extract.h"
#include "align/hmm.h"
#include "search/beam_search.h"
#include "search/forced_scorer.h"
#include "search/sentence_search.h"
#include "search/word_scores.h"
#include "serve/api_routes.h"
#include "serve/constraint_fields.h"
#include "serve/json_fields.h"
#include "serve/reply.h"
#include "serve/service.h"
#include "serve/tasks.h"
#include "text/word_counter.h"
#include "util/number_format.h"

namespace rnnsearch::serve {

namespace {

bool pieces_input(const nlohmann::json& body) {
  const std::string input = string_field(body, "input").value_or("text");
  if (input != "text" && input != "pieces") {
    throw RequestError(400, "'input' must be \"text\" or \"pieces\", got \"" + input + "\"");
  }
  return input == "pieces";
}

// Word scores as the tools print them, as numbers.
nlohmann::json word_scores_json(const std::string& pieces, const std::vector<float>& log_probs) {
  std::vector<std::string_view> words;
  text::split_space_words(pieces, words);
  std::vector<std::string_view> values;
  const std::string text = search::word_scores_text(words, log_probs);
  text::split_space_words(text, values);
  nlohmann::json list = nlohmann::json::array();
  for (const auto value : values) list.push_back(tool_number(std::strtod(std::string(value).c_str(), nullptr)));
  return list;
}

nlohmann::json hypothesis_json(const Service& service, const LanguagePair& pair, const TranslatedLine& line,
                               const search::Hypothesis& h, const search::TranslateOptions& config, bool pieces) {
  const std::string translation = service.pieces_of(pair, line, h, config);
  nlohmann::json entry = {{"text", pieces ? translation : pair.text_of(translation)},
                          {"pieces", translation},
                          {"log_prob", tool_number(h.log_probability)},
                          {"score", tool_number(h.score)},
                          {"complete", h.complete}};
  if (config.alignment != search::AlignmentOutput::kNone) {
    entry["alignment"] = search::alignment_text(h, line.source, config.alignment);
  }
  if (config.word_scores) entry["word_scores"] = word_scores_json(translation, h.token_log_probs);
  return entry;
}

void translate(Service& service, const HttpRequest& request, CancelFlag cancelled, const Respond& respond) {
  const nlohmann::json body = parse_json_object(request.body);
  service.check_key(request, string_field(body, "api_key").value_or(""));
  const Strings text = required_strings(body, "text");
  const auto pair = service.pair_of(body);
  search::TranslateOptions config = service.translate_options(body, *pair);
  config.constraint_input.order = constraint_order(body);
  const bool pieces = pieces_input(body);
  LinesRequest lines{pair, text.values, pieces, config, constraint_requests(body, text)};
  service.translate(std::move(lines), "text", std::move(cancelled),
                    [&service, pair, config, pieces, respond](const std::vector<TranslatedLine>* done,
                                                              const RequestError* error) {
    if (error) return respond(error_reply(*error));
    nlohmann::json translations = nlohmann::json::array();
    for (const auto& line : *done) {
      nlohmann::json best = hypothesis_json(service, *pair, line, line.hypotheses.front(), config, pieces);
      if (config.n_best > 0) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& h : line.hypotheses) list.push_back(hypothesis_json(service, *pair, line, h, config, pieces));
        best["n_best"] = list;
      }
      translations.push_back(best);
    }
    respond(json_reply({{"pair", pair->config().name()}, {"translations", translations}}));
  });
}

PairsRequest pairs_request(Service& service, const nlohmann::json& body) {
  PairsRequest request;
  request.pair = service.pair_of(body);
  request.sources = required_strings(body, "source").values;
  request.targets = required_strings(body, "target").values;
  request.pieces = pieces_input(body);
  return request;
}

void score(Service& service, const HttpRequest& request, CancelFlag cancelled, const Respond& respond) {
  const nlohmann::json body = parse_json_object(request.body);
  service.check_key(request, string_field(body, "api_key").value_or(""));
  const double normalize = number_field(body, "normalize", 0.0, search::kMaxLengthPenalty).value_or(0.0);
  const bool word_scores = bool_field(body, "word_scores").value_or(false);
  PairsRequest pairs = pairs_request(service, body);
  const std::string name = pairs.pair->config().name();
  auto task = std::make_shared<ScoreTask>(pairs.pair);
  service.run_pairs(std::move(pairs), task, std::move(cancelled),
                    [name, normalize, word_scores, respond](const std::vector<std::shared_ptr<SentenceJob>>* jobs,
                                                            const RequestError* error) {
    if (error) return respond(error_reply(*error));
    nlohmann::json scores = nlohmann::json::array();
    for (const auto& job : *jobs) {
      const auto& values = job->token_log_probs;
      nlohmann::json entry = {{"score", tool_number(search::normalized_score(search::sum_log_probs(values),
                                                                             values.size(), normalize))}};
      std::string target;
      for (const auto& piece : job->target) target += (target.empty() ? "" : " ") + piece;
      if (word_scores) entry["word_scores"] = word_scores_json(target, values);
      scores.push_back(entry);
    }
    respond(json_reply({{"pair", name}, {"scores", scores}}));
  });
}

void reply_links(const std::string& name, const Respond& respond, const std::vector<std::shared_ptr<SentenceJob>>* jobs,
                 const RequestError* error) {
  if (error) return respond(error_reply(*error));
  nlohmann::json links = nlohmann::json::array();
  for (const auto& job : *jobs) links.push_back(job->links);
  respond(json_reply({{"pair", name}, {"alignments", links}}));
}

// nmt-align -m MODEL: links of the model's attention, over the (BPE'd) pairs.
std::shared_ptr<const BatchTask> attention_task(const nlohmann::json& body, const PairsRequest& pairs) {
  align::ExtractOptions options;
  const std::string mode = string_field(body, "mode").value_or("hard");
  if (mode != "hard" && mode != "threshold") {
    throw RequestError(400, "'mode' must be \"hard\" or \"threshold\", got \"" + mode + "\"");
  }
  options.set_mode(align::parse_alignment_mode(mode));
  options.rules.threshold =
      static_cast<float>(number_field(body, "threshold", 0.0, 1.0).value_or(options.rules.threshold));
  if (!pairs.pair->has_attention()) {
    throw RequestError(400, "the " + pairs.pair->config().name() + " model has no attention weights to align with");
  }
  const std::string key = mode + " " + util::general_exact(options.rules.threshold);
  return std::make_shared<AttentionAlignTask>(pairs.pair, options, key);
}

// nmt-align hmm --load-params: links of the pair's HMM aligners, over tokenized words.
std::shared_ptr<const BatchTask> hmm_task(const nlohmann::json& body, const PairsRequest& pairs) {
  if (!pairs.pair->hmm_params()) {
    throw RequestError(400, "the " + pairs.pair->config().name() + " pair has no HMM parameters (nmt-serve --hmm-params)");
  }
  align::HmmOptions options;
  const std::string links = string_field(body, "links").value_or("forward");
  const std::string decode = string_field(body, "decode").value_or("posterior");
  if (links != "forward" && links != "reverse" && links != "agreed") {
    throw RequestError(400, "'links' must be \"forward\", \"reverse\" or \"agreed\", got \"" + links + "\"");
  }
  if (decode != "posterior" && decode != "viterbi") {
    throw RequestError(400, "'decode' must be \"posterior\" or \"viterbi\", got \"" + decode + "\"");
  }
  options.links = align::parse_hmm_links(links);
  options.decoding = align::parse_hmm_decoding(decode);
  options.threshold = number_field(body, "threshold", 0.0, 1.0).value_or(options.threshold);
  for (std::size_t i = 0; i < pairs.sources.size(); ++i) {
    for (const std::string* side : {&pairs.sources[i], &pairs.targets[i]}) {
      std::vector<std::string_view> words;
      text::split_space_words(*side, words);
      if (words.empty() || words.size() > align::kMaxIbm2Words) {
        throw RequestError(400, "pair " + std::to_string(i + 1) + " needs 1 to " + std::to_string(align::kMaxIbm2Words) +
                                    " words on each side, as nmt-align hmm");
      }
    }
  }
  return std::make_shared<HmmAlignTask>(pairs.pair, options, links + " " + decode + " " +
                                                                 util::general_exact(options.threshold));
}

void align(Service& service, const HttpRequest& request, CancelFlag cancelled, const Respond& respond) {
  const nlohmann::json body = parse_json_object(request.body);
  service.check_key(request, string_field(body, "api_key").value_or(""));
  const std::string method = string_field(body, "method").value_or("attention");
  if (method != "attention" && method != "hmm") {
    throw RequestError(400, "'method' must be \"attention\" or \"hmm\", got \"" + method + "\"");
  }
  PairsRequest pairs = pairs_request(service, body);
  if (!pairs.pieces && method == "hmm") {  // the HMM's words: tokenized here, so hmm_task can count them
    for (auto& line : pairs.sources) line = pairs.pair->words_of(line, false);
    for (auto& line : pairs.targets) line = pairs.pair->words_of(line, true);
    pairs.pieces = true;
  }
  const auto task = method == "hmm" ? hmm_task(body, pairs) : attention_task(body, pairs);
  const std::string name = pairs.pair->config().name();
  service.run_pairs(std::move(pairs), task, std::move(cancelled),
                    [name, respond](const std::vector<std::shared_ptr<SentenceJob>>* jobs, const RequestError* error) {
    reply_links(name, respond, jobs, error);
  });
}

nlohmann::json pairs_json(const Service& service) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& pair : service.pairs()->pairs) {
    const auto& config = pair->config();
    list.push_back({{"pair", config.name()}, {"source", config.source_language}, {"target", config.target_language},
                    {"models", config.models.size()}, {"bpe", pair->has_codes()}, {"attention", pair->has_attention()},
                    {"alignment_head", pair->has_alignment_head()}, {"hmm", pair->hmm_params() != nullptr}});
  }
  return list;
}

}  // namespace

void add_native_routes(Service& service) {
  service.add_route("POST", "/v1/translate", [&service](const HttpRequest& request, CancelFlag c, Respond respond) {
    translate(service, request, std::move(c), respond);
  });
  service.add_route("POST", "/v1/score", [&service](const HttpRequest& request, CancelFlag c, Respond respond) {
    score(service, request, std::move(c), respond);
  });
  service.add_route("POST", "/v1/align", [&service](const HttpRequest& request, CancelFlag c, Respond respond) {
    align(service, request, std::move(c), respond);
  });
  service.add_route("GET", "/v1/pairs", [&service](const HttpRequest&, CancelFlag, Respond respond) {
    respond(json_reply(pairs_json(service)));
  });
}

}  // namespace rnnsearch::serve
