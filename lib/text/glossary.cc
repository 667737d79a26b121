#include "text/glossary.h"

#include <algorithm>

#include "text/unicode.h"
#include "text/word_counter.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/split_fields.h"

namespace rnnsearch::text {
namespace {

// The tokens of `text`: the runs between spaces (text::split_space_words).
std::vector<std::string_view> tokens_of(std::string_view text) {
  std::vector<std::string_view> tokens;
  split_space_words(text, tokens);
  return tokens;
}

std::string joined(const std::vector<std::string_view>& tokens) {
  std::string out;
  for (std::string_view t : tokens) {
    if (!out.empty()) out += ' ';
    out += t;
  }
  return out;
}

}  // namespace

Glossary::Glossary(const std::string& path, bool ignore_case) : ignore_case_(ignore_case) {
  util::LineReader reader(path);
  std::string line;
  while (reader.next(line)) {
    if (line.find_first_not_of(" \t") == std::string::npos) continue;  // blank
    const auto fields = util::split_fields(line, '\t');
    if (fields.size() != 2) {
      throw util::Error(reader.name(), reader.line_number(),
                        fields.size() == 1 ? "expected \"source term<TAB>target term\", found no tab"
                                           : "expected \"source term<TAB>target term\", found " +
                                                 std::to_string(fields.size() - 1) + " tabs");
    }
    add(fields[0], fields[1], reader.name(), reader.line_number());
  }
}

Glossary::Glossary(const std::vector<std::pair<std::string, std::string>>& entries, bool ignore_case,
                   const std::string& where)
    : ignore_case_(ignore_case) {
  for (std::size_t i = 0; i < entries.size(); ++i) add(entries[i].first, entries[i].second, where, i + 1);
}

std::string Glossary::key(std::string_view token) const {
  return ignore_case_ ? lowercase(token) : std::string(token);
}

void Glossary::add(std::string_view source, std::string_view target, const std::string& where, std::size_t line) {
  const auto source_tokens = tokens_of(source), target_tokens = tokens_of(target);
  if (source_tokens.empty()) throw util::Error(where, line, "the source term is empty");
  if (target_tokens.empty()) throw util::Error(where, line, "the target term is empty");
  std::string k;
  for (std::string_view t : source_tokens) k += (k.empty() ? "" : " ") + key(t);
  const std::string target_term = joined(target_tokens);
  const auto found = sources_.find(k);
  if (found != sources_.end()) {
    if (targets_[found->second.target] == target_term) return;
    throw util::Error(where, line, "the source term \"" + joined(source_tokens) + "\" has another target term at line " +
                                       std::to_string(found->second.line) + ": \"" +
                                       targets_[found->second.target] + "\"");
  }
  // Source terms with one target term share its index, so that match() writes it once.
  const auto index = target_index_.emplace(target_term, targets_.size());
  if (index.second) targets_.push_back(target_term);
  sources_.emplace(std::move(k), Entry{index.first->second, line});
  longest_ = std::max(longest_, source_tokens.size());
}

std::vector<std::string> Glossary::match(std::string_view source) const {
  std::vector<std::string> keys;
  for (std::string_view t : tokens_of(source)) keys.push_back(key(t));
  std::vector<std::size_t> found;  // indices into targets_, each once
  std::string candidate;
  for (std::size_t i = 0; i < keys.size();) {
    std::size_t length = std::min(longest_, keys.size() - i);
    for (; length > 0; --length) {
      candidate = keys[i];
      for (std::size_t k = 1; k < length; ++k) candidate += ' ' + keys[i + k];
      const auto hit = sources_.find(candidate);
      if (hit == sources_.end()) continue;
      if (std::find(found.begin(), found.end(), hit->second.target) == found.end()) found.push_back(hit->second.target);
      break;
    }
    i += std::max<std::size_t>(length, 1);
  }
  std::vector<std::string> out;
  for (std::size_t f : found) out.push_back(targets_[f]);
  return out;
}

std::string Glossary::annotate(std::string_view line) const {
  std::string out(line);
  for (const std::string& term : match(line.substr(0, line.find('\t')))) out += '\t' + term;
  return out;
}

void GlossaryMatchOptions::validate() const {
  if (glossary.empty()) throw util::UsageError("-g GLOSSARY is required");
  if (glossary == "-" && input == "-") throw util::UsageError("-g and -i cannot both be standard input");
}

void match_glossary_file(const GlossaryMatchOptions& options, const util::LinePipelineOptions& pipeline) {
  options.validate();
  const Glossary glossary(options.glossary, options.ignore_case);
  util::map_lines(options.input, options.output, pipeline, [&](std::string_view line) {
    if (!options.terms_only) return glossary.annotate(line);
    std::string terms;
    for (const std::string& term : glossary.match(line.substr(0, line.find('\t')))) {
      terms += (terms.empty() ? "" : "\t") + term;
    }
    return terms;
  });
}

}  // namespace rnnsearch::text
