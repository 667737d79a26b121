#include "data/vocabulary.h"

#include "text/vocab_counts.h"
#include "util/error.h"

namespace rnnsearch::data {

namespace {

const std::vector<std::string>& special_tokens() {
  static const std::vector<std::string> specials = {"<pad>", "<unk>", "<s>", "</s>"};
  return specials;
}

Vocabulary from_counts(const std::vector<text::WordCount>& counts, std::size_t max_size, std::int64_t min_count) {
  std::vector<std::string> tokens;
  for (const auto& entry : counts) {
    if (entry.count < min_count) continue;
    tokens.push_back(entry.word);
  }
  Vocabulary vocabulary(tokens);
  if (max_size == 0 || vocabulary.size() <= max_size) return vocabulary;
  tokens.resize(max_size > static_cast<std::size_t>(Vocabulary::kSpecials) ? max_size - Vocabulary::kSpecials : 0);
  return Vocabulary(tokens);
}

}  // namespace

Vocabulary::Vocabulary() {
  for (const auto& special : special_tokens()) add(special);
}

Vocabulary::Vocabulary(const std::vector<std::string>& tokens) : Vocabulary() {
  for (const auto& token : tokens) add(token);
}

void Vocabulary::add(const std::string& token) {
  if (ids_.count(token)) return;
  ids_.emplace(token, static_cast<std::int32_t>(tokens_.size()));
  tokens_.push_back(token);
}

Vocabulary Vocabulary::from_vocab_file(const std::string& path, std::size_t max_size, std::int64_t min_count) {
  const auto counts = text::read_vocab(path);
  if (counts.empty()) throw util::Error(path, "is empty: a vocabulary file has a \"token count\" line per token (nmt-vocab)");
  return from_counts(counts, max_size, min_count);
}

Vocabulary Vocabulary::from_text_files(const std::vector<std::string>& paths, std::size_t max_size,
                                       std::int64_t min_count) {
  return from_counts(text::build_vocab(paths), max_size, min_count);
}

std::optional<std::int32_t> Vocabulary::find(const std::string& token) const {
  const auto it = ids_.find(token);
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

std::int32_t Vocabulary::id_or_unk(const std::string& token) const {
  const auto it = ids_.find(token);
  return it == ids_.end() ? kUnk : it->second;
}

const std::string& Vocabulary::token(std::int32_t id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size()) {
    throw util::Error("token id " + std::to_string(id) + " is outside the vocabulary of " +
                      std::to_string(tokens_.size()));
  }
  return tokens_[static_cast<std::size_t>(id)];
}

std::string Vocabulary::decode(const std::vector<std::int32_t>& ids) const {
  std::string text;
  for (const std::int32_t id : ids) {
    if (id == kEos) break;
    if (id == kPad || id == kBos) continue;
    if (!text.empty()) text += ' ';
    text += token(id);
  }
  return text;
}

}  // namespace rnnsearch::data
