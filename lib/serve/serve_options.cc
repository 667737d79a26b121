#include "serve/serve_options.h"

#include <set>

#include "util/error.h"
#include "util/number_format.h"
#include "util/option_range.h"

namespace rnnsearch::serve {

namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    if (end == std::string::npos) return parts;
    begin = end + 1;
  }
}

}  // namespace

double batch_wait_seconds(const std::string& value, int workers) {
  if (value == "auto") return workers > 1 ? 0.0 : 0.002;
  const auto ms = util::parse_double(value);
  if (!ms) throw util::UsageError("--batch-wait-ms must be a number of milliseconds or auto, got '" + value + "'");
  return *ms / 1000;
}

PairConfig parse_pair(const std::string& value) {
  const auto fields = split(value, ',');
  if (fields.size() < 4 || fields.size() > 6 || fields[0].empty() || fields[1].empty() || fields[2].empty()) {
    throw util::UsageError("--pair must be SRC,TGT,MODEL[+MODEL...],CODES[,SHORTLIST[,HMM_PARAMS]], got '" + value +
                           "'");
  }
  PairConfig pair;
  pair.source_language = fields[0];
  pair.target_language = fields[1];
  pair.models = split(fields[2], '+');
  pair.codes = fields[3];
  if (fields.size() >= 5) pair.shortlist = fields[4];
  if (fields.size() == 6) pair.hmm_params = fields[5];
  return pair;
}

void ServeOptions::validate() const {
  util::check_range("port", port, 0, 65535);
  if (pairs.empty()) throw util::UsageError("a model is required: -m MODEL -c CODES -s SRC -t TGT, or --pair");
  std::set<std::string> names;
  for (const auto& pair : pairs) {
    pair.validate();
    if (!names.insert(pair.name()).second) throw util::UsageError("the pair " + pair.name() + " is given twice");
  }
  translate.validate();
  util::check_range("max-beam-size", max_beam_size, translate.beam.beam_size, search::kMaxBeamSize);
  util::check_range("max-n-best", max_n_best, 1, max_beam_size);
  util::check_range("mini-batch", queue.max_batch, std::size_t{1}, static_cast<std::size_t>(search::kMaxMiniBatch));
  util::check_range("queue-size", queue.capacity, std::size_t{1}, std::size_t{1000000});
  util::check_range("max-batch-tokens", queue.max_batch_tokens, std::size_t{1}, std::size_t{1000000});
  util::check_range("batch-wait-ms", queue.max_wait_seconds * 1000, 0.0, 10000.0);
  util::check_range("queue-seconds", queue_seconds, 0.001, 3600.0);
  util::check_range("max-lines", max_lines, std::size_t{1}, std::size_t{1000000});
  util::check_range("max-line-chars", max_line_chars, std::size_t{1}, std::size_t{10000000});
  util::check_range("max-body-bytes", http.max_body_bytes, std::size_t{64}, std::size_t{1} << 30);
  util::check_range("max-header-bytes", http.max_header_bytes, std::size_t{1024}, std::size_t{1} << 20);
  util::check_range("max-connections", http.max_connections, std::size_t{1}, std::size_t{100000});
  util::check_range("header-seconds", http.header_seconds, 0.01, 3600.0);
  util::check_range("read-seconds", http.body_seconds, 0.01, 3600.0);
  util::check_range("idle-seconds", http.idle_seconds, 0.01, 86400.0);
  util::check_range("drain-seconds", drain_seconds, 0.0, 86400.0);
}

}  // namespace rnnsearch::serve
