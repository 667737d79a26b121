#include "serve/service.h"

#include <chrono>
#include <optional>

#include "serve/api_routes.h"
#include "serve/form_fields.h"
#include "serve/json_fields.h"
#include "serve/reply.h"
#include "serve/request_error.h"
#include "serve/tasks.h"
#include "text/word_counter.h"
#include "util/error.h"
#include "util/number_format.h"
#include "util/utf8.h"

namespace rnnsearch::serve {

namespace {

std::shared_ptr<const PairSet> load_pairs(const ServeOptions& options, const util::Messages& log) {
  auto set = std::make_shared<PairSet>();
  for (const PairConfig& config : options.pairs) {
    set->pairs.push_back(std::make_shared<LanguagePair>(config, options.queue.workers, options.translate.precision,
                                                        [&log](const std::string& line) { log.warn(line); }));
  }
  return set;
}

// "'text'", or "'text' line 3" in a request of several lines.
std::string line_name(const std::string& field, std::size_t i, std::size_t lines) {
  return "'" + field + "'" + (lines > 1 ? " line " + std::to_string(i + 1) : "");
}

// The pieces of a line, 400 when there are more than the decoder reads.
std::vector<std::string> checked_pieces(const std::string& pieces, const std::string& where) {
  std::vector<std::string_view> views;
  text::split_space_words(pieces, views);
  if (views.size() > search::kMaxSourcePieces) {
    throw RequestError(400, where + " has " + std::to_string(views.size()) + " pieces, more than the decoder reads (" +
                                std::to_string(search::kMaxSourcePieces) + ")");
  }
  return std::vector<std::string>(views.begin(), views.end());
}

std::size_t code_points(std::string_view text) {
  std::size_t count = 0;
  for (const char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

// The name /metrics counts a refusal under.
const char* rejection_reason(JobStatus status) {
  switch (status) {
    case JobStatus::kCancelled: return "client_gone";
    case JobStatus::kExpired: return "expired";
    case JobStatus::kStopped: return "stopping";
    default: return "failed";
  }
}

RequestError status_error(JobStatus status, const SentenceJob& job, const ServeOptions& options) {
  const std::vector<std::pair<std::string, std::string>> retry{{"Retry-After", "1"}};
  switch (status) {
    case JobStatus::kCancelled: return RequestError(503, "the client went away before its translation ran");
    case JobStatus::kExpired:
      return RequestError(503, "queued longer than --queue-seconds (" + util::general(options.queue_seconds) +
                                   " s); retry later", retry);
    case JobStatus::kStopped: return RequestError(503, "the server is stopping", retry);
    default: return RequestError(500, job.error.empty() ? "the translation failed" : job.error);
  }
}

// Collects the jobs of one request and calls `finish` once the last is answered.
struct Gather {
  std::vector<std::shared_ptr<SentenceJob>> jobs;
  std::atomic<std::size_t> left{0};
  std::mutex mutex;
  std::optional<RequestError> failure;  // the first
  std::function<void(Gather&)> finish;
};

void attach(const std::shared_ptr<Gather>& gather, const ServeOptions& options, Metrics& metrics) {
  gather->left = gather->jobs.size();
  for (const auto& job : gather->jobs) {
    job->done = [gather, &options, &metrics](SentenceJob& done, JobStatus status) {
      if (status != JobStatus::kDone) {
        std::lock_guard<std::mutex> lock(gather->mutex);
        if (!gather->failure) {
          gather->failure = status_error(status, done, options);
          metrics.rejection(rejection_reason(status));
        }
      }
      if (--gather->left == 0) gather->finish(*gather);
    };
  }
}

// A line's prefix and phrases as target ids, in the request's form (raw text: tokenized and
// BPE'd as the pair's target side); RequestError 400 naming the line for a bad one.
search::TargetConstraints line_constraints(const LinesRequest& request, search::LineRequest ask,
                                           const search::Source& source, const std::string& where) {
  if (!request.pieces) {
    const LanguagePair& pair = *request.pair;
    ask.prefix = pair.target_pieces_of(ask.prefix);
    for (auto& phrase : ask.positive) phrase = pair.target_pieces_of(phrase);
    for (auto& phrase : ask.avoid) phrase = pair.target_pieces_of(phrase);
  }
  try {
    const search::TranslateOptions& config = request.config;
    search::TargetConstraints c = search::target_constraints(ask, config.constraint_input.order,
                                                             request.pair->models().front().target_vocabulary, where, 0);
    if (c.empty()) return c;
    if (source.words.empty()) throw util::Error(where, "an empty text has no translation to constrain");
    search::check_constraint_length(c, search::target_length_limit(config.beam.max_length_ratio, source.words.size()),
                                    where, 0);
    return c;
  } catch (const util::Error& e) {
    throw RequestError(400, e.what());
  }
}

}  // namespace

std::shared_ptr<LanguagePair> PairSet::find(const std::string& name) const {
  for (const auto& pair : pairs) {
    if (pair->config().name() == name) return pair;
  }
  return nullptr;
}

std::shared_ptr<LanguagePair> PairSet::find(const std::string& source, const std::string& target) const {
  std::shared_ptr<LanguagePair> only;
  for (const auto& pair : pairs) {
    if (pair->config().target_language != target) continue;
    if (pair->config().source_language == source) return pair;
    if (source == "auto") {
      if (only) return nullptr;  // two sources into target: "auto" cannot choose
      only = pair;
    }
  }
  return only;
}

Service::Service(ServeOptions options, util::Messages log)
    : options_(std::move(options)),
      log_(std::move(log)),
      keys_(options_.api_keys.empty() ? ApiKeys() : ApiKeys::from_file(options_.api_keys)),
      pairs_(load_pairs(options_, log_)),
      queue_(options_.queue, [this](std::size_t sentences) { metrics_.batch(sentences); }) {
  add_operation_routes(*this);
  add_libretranslate_routes(*this);
  add_opennmt_routes(*this);
  add_native_routes(*this);
}

Service::~Service() { queue_.stop(); }

std::shared_ptr<const PairSet> Service::pairs() const {
  std::lock_guard<std::mutex> lock(pairs_mutex_);
  return pairs_;
}

std::string Service::reload() {
  try {
    auto fresh = load_pairs(options_, log_);
    std::lock_guard<std::mutex> lock(pairs_mutex_);
    pairs_ = std::move(fresh);
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

void Service::add_route(const std::string& method, const std::string& path, Route route) {
  routes_[path][method] = std::move(route);
}

void Service::handle(HttpRequest request, CancelFlag cancelled, Respond respond) {
  try {
    const auto path = routes_.find(request.path);
    if (path == routes_.end()) throw RequestError(404, "no such endpoint: " + request.path);
    auto method = path->second.find(request.method == "HEAD" ? "GET" : request.method);
    if (method == path->second.end()) {
      std::string allow;
      for (const auto& [name, route] : path->second) allow += (allow.empty() ? "" : ", ") + name;
      throw RequestError(405, request.method + " is not allowed on " + request.path + " (allowed: " + allow + ")",
                         {{"Allow", allow}});
    }
    method->second(request, std::move(cancelled), respond);
  } catch (const RequestError& e) {
    respond(error_reply(e));
  } catch (const std::exception& e) {
    respond(error_reply(RequestError(500, e.what())));
  }
}

// Marian's WebSocket: GET /translate upgraded, then each text message is lines to translate
// with the first pair (or the one the query names: ?pair=en-fr) and the server's options;
// the reply has as many lines, joined by "\n". An error is one line "error: MESSAGE".
HttpResponse Service::websocket_upgrade(const HttpRequest& upgrade) {
  HttpResponse refusal;
  try {
    if (upgrade.path != "/translate") throw RequestError(404, "no WebSocket at " + upgrade.path + " (only /translate)");
    check_key(upgrade, "");
    websocket_pair(upgrade);
    refusal.status = 0;
    return refusal;
  } catch (const RequestError& e) {
    return error_reply(e);
  }
}

std::shared_ptr<LanguagePair> Service::websocket_pair(const HttpRequest& upgrade) const {
  const std::string prefix = "pair=";
  nlohmann::json names = nlohmann::json::object();
  if (upgrade.query.compare(0, prefix.size(), prefix) == 0) names["pair"] = upgrade.query.substr(prefix.size());
  return pair_of(names);
}

void Service::websocket_message(const HttpRequest& upgrade, std::string message, CancelFlag cancelled,
                                Respond respond) {
  auto text_reply = [respond](int status, std::string text) {
    HttpResponse reply;
    reply.status = status;
    reply.content_type = "text/plain";
    reply.body = std::move(text);
    respond(std::move(reply));
  };
  try {
    std::vector<std::string> lines;  // as std::getline reads them: a final newline adds no line
    std::size_t begin = 0;
    while (begin < message.size()) {
      const std::size_t end = std::min(message.find('\n', begin), message.size());
      lines.push_back(message.substr(begin, end - begin));
      begin = end + 1;
    }
    const auto pair = websocket_pair(upgrade);
    LinesRequest request{pair, std::move(lines), false, translate_options(nlohmann::json::object(), *pair), {}};
    const auto config = request.config;
    translate(std::move(request), "message", std::move(cancelled),
              [this, pair, config, text_reply](const std::vector<TranslatedLine>* done, const RequestError* e) {
      if (e) return text_reply(e->status(), std::string("error: ") + e->what());
      std::string text;
      for (std::size_t i = 0; i < done->size(); ++i) {
        const auto& line = (*done)[i];
        text += (i ? "\n" : "") + pair->text_of(pieces_of(*pair, line, line.hypotheses.front(), config));
      }
      text_reply(200, std::move(text));
    });
  } catch (const RequestError& e) {
    text_reply(e.status(), std::string("error: ") + e.what());
  }
}

HttpResponse Service::error(int status, const std::string& message) const {
  // What the transport refuses itself comes here (serve/http_server.h), and only that.
  static const std::map<int, std::string> reasons = {{400, "bad_http"}, {408, "timeout"}, {413, "body_too_large"},
                                                     {431, "headers_too_large"}, {503, "too_many_connections"}};
  if (const auto it = reasons.find(status); it != reasons.end()) metrics_.rejection(it->second);
  HttpResponse reply;
  reply.status = status;
  reply.body = error_body(message);
  return reply;
}

void Service::completed(const std::string& method, const std::string& path, int status, double seconds) {
  const bool known = routes_.count(path) != 0 || (method == "WS" && path == "/translate");
  metrics_.request(known ? (method == "WS" ? "WS " + path : path) : "other", status, seconds);
  if (options_.log_requests) {
    log_.note(method + " " + (path.empty() ? "-" : path) + " " + std::to_string(status) + " " +
              util::fixed(seconds * 1000, 1) + " ms");
  }
}

std::string Service::metrics_text() const {
  return metrics_.text(queue_.queued(), queue_.running(), connections_ ? connections_() : 0, ready());
}

std::shared_ptr<LanguagePair> Service::pair_of(const nlohmann::json& body, const std::string& source_field,
                                              const std::string& target_field) const {
  const auto set = pairs();
  const auto name = string_field(body, "pair");
  const auto source = string_field(body, source_field), target = string_field(body, target_field);
  std::shared_ptr<LanguagePair> pair;
  if (name) {
    pair = set->find(*name);
  } else if (source || target) {
    if (!source || !target) throw RequestError(400, "'" + source_field + "' and '" + target_field + "' go together");
    pair = set->find(*source, *target);
  } else {
    pair = set->pairs.front();
  }
  if (pair) return pair;
  std::string served;
  for (const auto& p : set->pairs) served += (served.empty() ? "" : ", ") + p->config().name();
  const std::string asked = name ? *name : *source + "-" + *target;
  throw RequestError(400, "no language pair " + asked + " (this server translates " + served + ")");
}

search::TranslateOptions Service::translate_options(const nlohmann::json& body, const LanguagePair& pair) const {
  search::TranslateOptions config = options_.translate;
  config.beam.weights = pair.config().weights;
  config.beam.beam_size = static_cast<int>(integer_field(body, "beam_size", 1, options_.max_beam_size)
                                               .value_or(config.beam.beam_size));
  const int n_best_max = std::min(options_.max_n_best, config.beam.beam_size);
  config.n_best = static_cast<int>(integer_field(body, "n_best", 0, n_best_max).value_or(config.n_best));
  config.beam.length_penalty = number_field(body, "length_penalty", 0.0, search::kMaxLengthPenalty)
                                   .value_or(config.beam.length_penalty);
  // At most the server's: a longer limit is longer work for a model that does not end.
  config.beam.max_length_ratio = number_field(body, "max_length_ratio", 0.01, config.beam.max_length_ratio)
                                     .value_or(config.beam.max_length_ratio);
  if (const auto alignment = string_field(body, "alignment")) {
    if (*alignment != "hard" && *alignment != "soft") {
      throw RequestError(400, "'alignment' must be \"hard\" or \"soft\", got \"" + *alignment + "\"");
    }
    config.alignment = search::parse_alignment_output(*alignment);
  }
  config.word_scores = bool_field(body, "word_scores").value_or(config.word_scores);
  config.replace_unknown = bool_field(body, "replace_unk").value_or(config.replace_unknown);
  if ((config.alignment != search::AlignmentOutput::kNone || config.replace_unknown) && !pair.has_attention()) {
    throw RequestError(400, "'alignment' and 'replace_unk' need attention weights; the " + pair.config().name() +
                                " model has none (trained with --attention none)");
  }
  config.alignment_head = pair.has_alignment_head();
  return config;
}

void Service::check_key(const HttpRequest& request, const std::string& body_key) const {
  if (!keys_.required()) return;
  std::string key = body_key;
  if (key.empty() && !request.query.empty()) {
    const auto query = parse_form(request.query);
    if (const auto it = query.find("api_key"); it != query.end() && it->is_string()) key = it->get<std::string>();
  }
  if (key.empty()) {
    const auto header = request.headers.find("authorization");
    if (header != request.headers.end()) key = ApiKeys::bearer_key(header->second);
  }
  if (key.empty()) throw RequestError(403, "an API key is required ('api_key' or 'Authorization: Bearer KEY')");
  if (!keys_.accepts(key)) throw RequestError(403, "invalid API key");
}

// 400 unless every line fits the limits: their count, and per line valid UTF-8, no newline,
// at most --max-line-chars characters.
void Service::check_lines(const std::vector<std::string>& lines, const std::string& field) const {
  if (lines.size() > options_.max_lines) {
    throw RequestError(400, "'" + field + "' has " + std::to_string(lines.size()) + " lines, more than --max-lines (" +
                                std::to_string(options_.max_lines) + ")");
  }
  if (lines.size() > options_.queue.capacity) {  // never fits: not a "retry later"
    throw RequestError(400, "'" + field + "' has " + std::to_string(lines.size()) + " lines, more than the queue holds (" +
                                "--queue-size " + std::to_string(options_.queue.capacity) + ")");
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const std::string where = line_name(field, i, lines.size());
    if (util::find_invalid_utf8(line) != std::string::npos) throw RequestError(400, where + " is not valid UTF-8");
    if (line.find('\n') != std::string::npos) throw RequestError(400, where + " holds a newline: one line per item");
    if (code_points(line) > options_.max_line_chars) {
      throw RequestError(400, where + " has " + std::to_string(code_points(line)) + " characters, more than " +
                                  "--max-line-chars (" + std::to_string(options_.max_line_chars) + ")");
    }
  }
}

std::vector<std::shared_ptr<SentenceJob>> Service::checked_jobs(const std::vector<std::string>& lines,
                                                                const std::string& field,
                                                                const std::shared_ptr<const BatchTask>& task,
                                                                const LinesRequest& request, CancelFlag cancelled) {
  check_lines(lines, field);
  std::vector<std::shared_ptr<SentenceJob>> jobs;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(options_.queue_seconds));
  std::vector<std::string> all_pieces;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    all_pieces.push_back(request.pieces ? lines[i] : request.pair->pieces_of(lines[i]));
    const std::string& pieces = all_pieces.back();
    std::vector<std::string> words = checked_pieces(pieces, line_name(field, i, lines.size()));
    if (request.config.max_length > 0 && words.size() > request.config.max_length) words.resize(request.config.max_length);
    auto job = std::make_shared<SentenceJob>();
    job->task = task;
    job->source = search::make_source(std::move(words), request.pair->models());
    if (!request.constraints.empty()) {
      job->source.constraints = line_constraints(request, request.constraints[i], job->source,
                                                 line_name(field, i, lines.size()));
    }
    job->cancelled = cancelled;
    job->deadline = deadline;
    jobs.push_back(std::move(job));
  }
  for (const std::string& warning : request.pair->language_watch().add(all_pieces, options_.translate.language_warning)) {
    log_.warn(warning);
    metrics_.language_warning(request.pair->config().name());
  }
  return jobs;
}

void Service::submit(std::vector<std::shared_ptr<SentenceJob>>& jobs) {
  if (queue_.submit(jobs)) return;
  for (auto& job : jobs) job->done = nullptr;  // it holds the request's state, which holds the job
  metrics_.rejection("queue_full");
  throw RequestError(503, "busy: the queue is full (--queue-size " + std::to_string(options_.queue.capacity) +
                              " sentences); retry later", {{"Retry-After", "1"}});
}

void Service::translate(LinesRequest request, const std::string& field, CancelFlag cancelled, LinesDone done) {
  if (request.pieces == false && !request.pair->has_codes()) {
    throw RequestError(400, "the " + request.pair->config().name() + " pair has no BPE codes: send pieces");
  }
  auto task = std::make_shared<TranslateTask>(request.pair, request.config);
  auto gather = std::make_shared<Gather>();
  gather->jobs = checked_jobs(request.lines, field, task, request, cancelled);
  gather->finish = [done](Gather& g) {
    if (g.failure) return done(nullptr, &*g.failure);
    std::vector<TranslatedLine> lines;
    for (const auto& job : g.jobs) lines.push_back({std::move(job->source), std::move(job->hypotheses)});
    done(&lines, nullptr);
  };
  attach(gather, options_, metrics_);
  if (gather->jobs.empty()) return gather->finish(*gather);
  submit(gather->jobs);
}

void Service::run_pairs(PairsRequest request, std::shared_ptr<const BatchTask> task, CancelFlag cancelled,
                        PairsDone done) {
  if (request.sources.size() != request.targets.size()) {
    throw RequestError(400, "'source' has " + std::to_string(request.sources.size()) + " lines and 'target' " +
                                std::to_string(request.targets.size()) + ": they go in pairs");
  }
  if (!request.pieces && !request.pair->has_codes()) {
    throw RequestError(400, "the " + request.pair->config().name() + " pair has no BPE codes: send pieces");
  }
  LinesRequest lines{request.pair, {}, request.pieces, options_.translate, {}};
  auto gather = std::make_shared<Gather>();
  gather->jobs = checked_jobs(request.sources, "source", task, lines, cancelled);
  check_lines(request.targets, "target");
  for (std::size_t i = 0; i < gather->jobs.size(); ++i) {
    const std::string pieces = request.pieces ? request.targets[i] : request.pair->target_pieces_of(request.targets[i]);
    gather->jobs[i]->target = checked_pieces(pieces, line_name("target", i, request.targets.size()));
  }
  gather->finish = [done](Gather& g) { g.failure ? done(nullptr, &*g.failure) : done(&g.jobs, nullptr); };
  attach(gather, options_, metrics_);
  if (gather->jobs.empty()) return gather->finish(*gather);
  submit(gather->jobs);
}

std::string Service::pieces_of(const LanguagePair& pair, const TranslatedLine& line, const search::Hypothesis& h,
                               const search::TranslateOptions& config) const {
  return search::translation_text(h, line.source, pair.target_vocabulary(), config.replace_unknown);
}

}  // namespace rnnsearch::serve
