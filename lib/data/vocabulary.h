#pragma once
// Token <-> id maps of the model. Four special tokens come first, at fixed ids, then
// the tokens most frequent first (the order of an nmt-vocab file):
//   0 <pad>  1 <unk>  2 <s> (decoder start)  3 </s> (end of every sentence, both sides)
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace rnnsearch::data {

class Vocabulary {
 public:
  static constexpr std::int32_t kPad = 0, kUnk = 1, kBos = 2, kEos = 3;
  static constexpr int kSpecials = 4;

  Vocabulary();  // only the specials
  // Specials, then `tokens` in order (duplicates and specials among them are skipped).
  explicit Vocabulary(const std::vector<std::string>& tokens);

  // The first `max_size` entries (specials included; 0 = all) of an nmt-vocab file
  // ("token count" per line) whose count is at least min_count. Errors name file:line.
  static Vocabulary from_vocab_file(const std::string& path, std::size_t max_size = 0, std::int64_t min_count = 0);
  // Counts the tokens of text files (one sentence per line) and keeps them as
  // from_vocab_file would keep the lines of their nmt-vocab file.
  static Vocabulary from_text_files(const std::vector<std::string>& paths, std::size_t max_size = 0,
                                    std::int64_t min_count = 0);

  std::optional<std::int32_t> find(const std::string& token) const;
  std::int32_t id_or_unk(const std::string& token) const;
  const std::string& token(std::int32_t id) const;  // "<unk>" text for ids out of range never happens: throws
  std::size_t size() const { return tokens_.size(); }
  const std::vector<std::string>& tokens() const { return tokens_; }
  bool operator==(const Vocabulary& other) const { return tokens_ == other.tokens_; }

  // Space-joined tokens of ids, stopping before the first </s>; <pad> and <s> are skipped.
  std::string decode(const std::vector<std::int32_t>& ids) const;

 private:
  void add(const std::string& token);

  std::vector<std::string> tokens_;
  std::unordered_map<std::string, std::int32_t> ids_;
};

}  // namespace rnnsearch::data
