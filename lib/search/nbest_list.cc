#include "search/nbest_list.h"

#include <charconv>
#include <cmath>

#include "text/word_counter.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/number_format.h"

namespace rnnsearch::search {

namespace {

constexpr std::string_view kSeparator = " ||| ";

[[noreturn]] void malformed(const std::string& file, std::size_t line_number, const std::string& what) {
  throw util::Error(file, line_number, what + "; expected 'N ||| translation ||| features ||| score' (a Moses n-best line)");
}

}  // namespace

NbestEntry parse_nbest_line(std::string_view line, const std::string& file, std::size_t line_number) {
  std::size_t bars[3];
  std::size_t from = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    bars[k] = line.find(kSeparator, from);
    if (bars[k] == std::string_view::npos) malformed(file, line_number, "found " + std::to_string(k + 1) + " of 4 fields");
    from = bars[k] + kSeparator.size();
  }
  NbestEntry entry;
  const std::string_view id = line.substr(0, bars[0]);
  const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), entry.id);
  if (id.empty() || error != std::errc() || end != id.data() + id.size()) {
    malformed(file, line_number, "the sentence number '" + std::string(id) + "' is not a non-negative integer");
  }
  entry.translation = line.substr(bars[0] + kSeparator.size(), bars[1] - bars[0] - kSeparator.size());
  entry.features = line.substr(bars[1] + kSeparator.size(), bars[2] - bars[1] - kSeparator.size());
  entry.features_end = bars[2];
  return entry;
}

std::vector<Feature> parse_features(std::string_view features, const std::string& file, std::size_t line_number) {
  std::vector<std::string_view> tokens;
  text::split_space_words(features, tokens);
  std::vector<Feature> parsed;
  for (const auto token : tokens) {
    if (token.back() == '=') {
      parsed.push_back({std::string(token.substr(0, token.size() - 1)), {}});
      continue;
    }
    const auto value = util::parse_double(token);
    if (parsed.empty()) malformed(file, line_number, "the features field starts with '" + std::string(token) + "', not a name=");
    if (!value) malformed(file, line_number, "feature " + parsed.back().name + "= has the value '" + std::string(token) + "'");
    parsed.back().values.push_back(*value);
  }
  return parsed;
}

std::string with_feature(std::string_view line, const NbestEntry& entry, const std::string& name,
                         const std::string& value) {
  std::string out(line.substr(0, entry.features_end));
  out += ' ' + name + "= " + value;
  out += line.substr(entry.features_end);
  return out;
}

void RerankOptions::validate() {
  if (weights.empty()) throw util::UsageError("--weights NAME=WEIGHT... is required");
  parsed.clear();
  for (const auto& weight : weights) {
    const auto equals = weight.find('=');
    const auto value = equals == std::string::npos ? std::nullopt : util::parse_double(std::string_view(weight).substr(equals + 1));
    if (equals == 0 || !value || !std::isfinite(*value)) {
      throw util::UsageError("--weights takes NAME=WEIGHT (a feature name and a number), got '" + weight + "'");
    }
    if (!parsed.emplace(weight.substr(0, equals), *value).second) {
      throw util::UsageError("--weights names " + weight.substr(0, equals) + " twice");
    }
  }
}

namespace {

// The weighted sum of one entry's features.
double weighted_sum(const std::vector<Feature>& features, const std::map<std::string, double>& weights,
                    const std::string& file, std::size_t line_number) {
  double sum = 0.0;
  for (const auto& [name, weight] : weights) {
    const Feature* found = nullptr;
    for (const auto& f : features) {
      if (f.name == name) found = &f;
    }
    if (!found) throw util::Error(file, line_number, "has no feature " + name + "= (named by --weights)");
    if (found->values.size() != 1) {
      throw util::Error(file, line_number, "feature " + name + "= has " + std::to_string(found->values.size()) +
                                               " values; --weights weighs features of one value");
    }
    sum += weight * found->values[0];
  }
  return sum;
}

}  // namespace

std::size_t rerank_files(RerankOptions options) {
  options.validate();
  util::LineReader reader(options.input);
  util::AtomicFileWriter writer(options.output);
  std::size_t written = 0;  // sentences 0 .. written - 1 are out
  bool have = false;        // a best entry of sentence `written` so far
  double best = 0.0;
  std::string best_translation, line;
  while (reader.next(line)) {
    const NbestEntry entry = parse_nbest_line(line, reader.name(), reader.line_number());
    if (entry.id < written) {  // sentence `written` is the one being read
      throw util::Error(reader.name(), reader.line_number(), "sentence " + std::to_string(entry.id) +
                                                                 " after a later one; an n-best list is in sentence order");
    }
    const double sum = weighted_sum(parse_features(entry.features, reader.name(), reader.line_number()), options.parsed,
                                    reader.name(), reader.line_number());
    if (have && entry.id > written) {
      writer.write_line(best_translation);
      ++written;
      have = false;
    }
    for (; written < entry.id; ++written) writer.write_line("");
    if (!have || sum > best) {
      best = sum;
      best_translation = entry.translation;
      have = true;
    }
  }
  if (have) {
    writer.write_line(best_translation);
    ++written;
  }
  writer.commit();
  return written;
}

}  // namespace rnnsearch::search
