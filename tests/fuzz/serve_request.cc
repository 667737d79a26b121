// Fuzz target: nmt-serve's request readers (lib/serve/: serve::Service::handle and
// websocket_message, the JSON and form bodies of every API) over one tiny language pair
// (a random model of a few dimensions and a codes file of a few merges, written to a
// temporary folder and loaded once, at the first input).
// An input is
//   byte 0   the route, byte % 16: '@' POST /translate (LibreTranslate), 'A' POST
//            /translator/translate (OpenNMT-py), 'B' POST /v1/translate, 'C' POST
//            /v1/score, 'D' POST /v1/align, 'E' GET /languages, 'F' GET /v1/pairs, 'G'
//            GET /health, 'H' GET /metrics, 'I' POST to an unknown path, 'J' a WebSocket
//            message to /translate, 'K' GET /translate (405), 'L' GET /ready, 'M' GET
//            /translator/models, 'N' HEAD /translator/health, 'O' PUT /v1/translate (405);
//   byte 1   the request's headers, bits: & 3 the content type (0 application/json, 1 a
//            form, 2 none, 3 "application/x-www-form-urlencoded; charset=UTF-8"), & 4 the
//            service that requires an API key ("fuzz-key"), & 8 "Authorization: Bearer
//            fuzz-key" (the WebSocket: "?pair=en-fr" instead of no query), & 64 the
//            client gone before the request (its cancellation flag set): '0'..'?' and
//            'p'..DEL;
//   the rest the body (the WebSocket's message), at most 4 KB.
// Every request must be answered exactly once within 10 s, with a status the server
// documents (200, 400, 403, 404, 405, 413, 429, 503; 500 is an unhandled path, a finding),
// a JSON reply must parse, and an error's body must be {"error": "ONE LINE"}; a WebSocket
// reply has a line per line of the message, or is one line "error: ...". Failures abort:
// libFuzzer (and the replay test) report them with the input.
// SERVE_FUZZ_VERBOSE=1 prints every reply (for writing seeds).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "data/vocabulary.h"
#include "fuzz_input.h"
#include "model/model_file.h"
#include "model/rnnsearch.h"
#include "serve/service.h"
#include "util/rng.h"

using namespace rnnsearch;

namespace {

constexpr std::size_t kMaxBody = 4096;
constexpr auto kReplySeconds = std::chrono::seconds(10);
const char* const kKey = "fuzz-key";

struct Route {
  const char* method;
  const char* path;
};

// By byte 0 % 16; index 10 is the WebSocket (its upgrade is GET /translate).
const Route kRoutes[16] = {
    {"POST", "/translate"}, {"POST", "/translator/translate"}, {"POST", "/v1/translate"}, {"POST", "/v1/score"},
    {"POST", "/v1/align"},  {"GET", "/languages"},             {"GET", "/v1/pairs"},      {"GET", "/health"},
    {"GET", "/metrics"},    {"POST", "/v1/nowhere"},           {"WS", "/translate"},      {"GET", "/translate"},
    {"GET", "/ready"},      {"GET", "/translator/models"},     {"HEAD", "/translator/health"},
    {"PUT", "/v1/translate"}};
constexpr std::size_t kWebSocket = 10;

const char* const kContentTypes[4] = {"application/json", "application/x-www-form-urlencoded", nullptr,
                                      "application/x-www-form-urlencoded; charset=UTF-8"};

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  fuzz::check(static_cast<bool>(out.flush()), "cannot write the service's files");
}

// A random model over the pieces the codes below make of a few words, its </s> favoured so
// that most translations end within a few steps: without that bias a random model seldom
// ends, and a request of max_length_ratio 100 runs to its length limit for seconds.
void write_model(const std::string& path) {
  const std::vector<std::string> source_words = {"the", "cat", "hou@@", "se", "he@@", "llo", "world", ".", ",", "!",
                                                 "?", "a", "b", "c", "s@@"};
  const std::vector<std::string> target_words = {"le", "chat", "mai@@", "son", "bon@@", "jour", "monde", ".", ",",
                                                 "!", "?", "x", "y", "z@@", "&amp;"};
  const data::Vocabulary source(source_words), target(target_words);
  model::ModelOptions config;
  config.source_vocabulary = static_cast<int>(source.size());
  config.target_vocabulary = static_cast<int>(target.size());
  config.embedding = 4;
  config.encoder_hidden = 3;
  config.decoder_hidden = 5;
  config.attention = 4;
  config.maxout = 3;
  config.attention_form = nn::AttentionForm::kGeneral;
  config.alignment_head = 3;  // /v1/align and alignments read the head
  model::RnnSearch net(config);
  util::Rng rng(7);
  net.initialize(model::Initialization::kXavier, rng);
  net.parameters().get("decoder.output.b").value(0, data::Vocabulary::kEos) = 0.7f;
  model::write_model_file(path, model::FileKind::kModel, net, source, target);
}

const char* const kCodes =
    "#version: 0.2\n"
    "t h\nth e</w>\nc a\nca t</w>\nh o\nho u\nhou se</w>\nh e\nl l\nhe llo</w>\nw o\nwo r\nl d</w>\n";

struct Services {
  std::unique_ptr<serve::Service> open, keyed;  // without and with --api-keys
};

Services make_services() {
  const char* tmp = std::getenv("TMPDIR");
  const std::filesystem::path dir = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") /
                                    ("rnnsearch-fuzz-serve-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  write_model((dir / "model.bin").string());
  write_text(dir / "codes", kCodes);
  write_text(dir / "keys", std::string("# fuzz\n") + kKey + "\n");

  serve::ServeOptions options;
  serve::PairConfig pair;
  pair.models = {(dir / "model.bin").string()};
  pair.codes = (dir / "codes").string();
  pair.source_language = "en";
  pair.target_language = "fr";
  options.pairs = {pair};
  options.translate.beam.beam_size = 2;
  options.translate.max_length = 20;  // source pieces kept per line: at most 2010 target steps
  options.max_beam_size = 4;
  options.max_n_best = 4;
  options.queue.workers = 1;  // --threads 1
  options.queue.capacity = 64;
  options.queue.max_wait_seconds = 0;  // one request at a time: no batch to wait for
  options.max_lines = 50;
  options.max_line_chars = 500;
  options.http.max_body_bytes = kMaxBody;
  options.log_requests = false;
  options.validate();
  Services services;
  services.open = std::make_unique<serve::Service>(options, util::Messages{});
  options.api_keys = (dir / "keys").string();
  services.keyed = std::make_unique<serve::Service>(options, util::Messages{});
  std::filesystem::remove_all(dir);  // every file is read by now (no reload here)
  return services;
}

// The replies a request gets: exactly one is expected.
struct Recorder {
  std::mutex mutex;
  std::condition_variable arrived;
  int calls = 0;
  serve::HttpResponse reply;
};

void fail(const char* what, const serve::HttpResponse* reply) {
  if (reply) std::fprintf(stderr, "status %d, %s:\n%s\n", reply->status, reply->content_type.c_str(), reply->body.c_str());
  fuzz::check(false, what);
}

serve::Respond recording(const std::shared_ptr<Recorder>& recorder) {
  return [recorder](serve::HttpResponse reply) {
    std::lock_guard<std::mutex> lock(recorder->mutex);
    if (++recorder->calls > 1) fail("Respond called twice", &reply);
    recorder->reply = std::move(reply);
    recorder->arrived.notify_all();
  };
}

// Waits for the reply, then for the queue to be empty, so that a second reply (from a
// worker) would come now, while this input is the one named.
serve::HttpResponse wait_for(Recorder& recorder, const serve::Service& service) {
  static const bool verbose = std::getenv("SERVE_FUZZ_VERBOSE") != nullptr;
  const auto deadline = std::chrono::steady_clock::now() + kReplySeconds;
  {
    std::unique_lock<std::mutex> lock(recorder.mutex);
    if (!recorder.arrived.wait_until(lock, deadline, [&] { return recorder.calls > 0; })) {
      fail("no reply within 10 s", nullptr);
    }
  }
  while (service.queued() > 0) {
    if (std::chrono::steady_clock::now() > deadline) fail("the queue still holds work 10 s on", nullptr);
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  std::lock_guard<std::mutex> lock(recorder.mutex);
  if (verbose) std::fprintf(stderr, "%d %s\n", recorder.reply.status, recorder.reply.body.c_str());
  return recorder.reply;
}

bool one_line(const std::string& text) { return text.find_first_of("\r\n") == std::string::npos; }

void check_status(const serve::HttpResponse& reply) {
  switch (reply.status) {
    case 200: case 400: case 403: case 404: case 405: case 413: case 429: case 503: return;
    case 500: return fail("status 500: an unhandled path", &reply);
    default: return fail("a status the server does not document", &reply);
  }
}

void check_http_reply(const serve::HttpResponse& reply) {
  check_status(reply);
  if (reply.content_type != "application/json") {
    if (reply.status != 200) fail("an error reply that is not JSON", &reply);
    return;
  }
  if (reply.body.empty() || reply.body.back() != '\n' || !one_line(reply.body.substr(0, reply.body.size() - 1))) {
    fail("a JSON body that is not one line and a newline", &reply);
  }
  nlohmann::json body;
  try {
    body = nlohmann::json::parse(reply.body);
  } catch (const nlohmann::json::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    fail("a reply that is not JSON", &reply);
  }
  if (reply.status == 200) return;
  if (!body.is_object() || body.size() != 1 || !body.contains("error") || !body["error"].is_string()) {
    fail("an error body that is not {\"error\": \"...\"}", &reply);
  }
  const std::string message = body["error"].get<std::string>();
  if (message.empty()) fail("an empty error message", &reply);
  if (!one_line(message)) fail("an error message of more than one line", &reply);
}

// Marian's WebSocket: a line per line of the message (std::getline's lines), or one error line.
void check_websocket_reply(const serve::HttpResponse& reply, const std::string& message) {
  check_status(reply);
  if (reply.status != 200) {
    if (reply.body.rfind("error: ", 0) != 0) fail("a WebSocket error that is not \"error: ...\"", &reply);
    if (!one_line(reply.body)) fail("a WebSocket error of more than one line", &reply);
    return;
  }
  std::size_t lines = 0;
  for (std::size_t begin = 0; begin < message.size(); ++lines) {
    const std::size_t end = message.find('\n', begin);
    begin = end == std::string::npos ? message.size() : end + 1;
  }
  std::size_t reply_lines = 0;
  if (lines > 0) {
    reply_lines = 1;
    for (const char c : reply.body) reply_lines += c == '\n';
  }
  if (reply_lines != lines) fail("a WebSocket reply without a line per line of the message", &reply);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Services services = make_services();
  if (size < 2) return 0;
  const std::size_t route_index = data[0] % 16;
  const Route& route = kRoutes[route_index];
  const unsigned headers = data[1];
  serve::Service& service = headers & 4 ? *services.keyed : *services.open;
  std::string body(reinterpret_cast<const char*>(data) + 2, std::min(size - 2, kMaxBody));

  serve::HttpRequest request;
  request.method = route.method;
  request.path = route.path;
  request.peer = "127.0.0.1:40000";
  if (const char* type = kContentTypes[headers & 3]) request.headers["content-type"] = type;
  const auto cancelled = std::make_shared<std::atomic<bool>>((headers & 64) != 0);
  auto recorder = std::make_shared<Recorder>();
  const auto started = std::chrono::steady_clock::now();

  if (route_index == kWebSocket) {
    request.method = "GET";
    request.headers["upgrade"] = "websocket";
    request.headers["authorization"] = std::string("Bearer ") + kKey;  // the upgrade's key: the messages' concern here
    if (headers & 8) request.query = "pair=en-fr";
    const serve::HttpResponse upgrade = service.websocket_upgrade(request);
    if (upgrade.status != 0) fail("the WebSocket upgrade refused", &upgrade);
    service.websocket_message(request, body, cancelled, recording(recorder));
    const serve::HttpResponse reply = wait_for(*recorder, service);
    check_websocket_reply(reply, body);
    service.completed("WS", request.path, reply.status,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    return 0;
  }

  if (headers & 8) request.headers["authorization"] = std::string("Bearer ") + kKey;
  request.body = std::move(body);
  service.handle(request, cancelled, recording(recorder));
  const serve::HttpResponse reply = wait_for(*recorder, service);
  check_http_reply(reply);
  service.completed(request.method, request.path, reply.status,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return 0;
}
