#include "align/word_stems.h"

#include <string>
#include <unordered_map>
#include <vector>


namespace rnnsearch::align {

namespace {

// One side of a corpus: its tokens and its words by id, ids from `first_id` (1 on the source
// side, where 0 is the empty word).
struct Side {
  std::vector<std::int32_t>& tokens;
  std::vector<std::string>& words;
  int& types;
  std::int32_t first_id;
};

// Replaces each word of `side` by word_of(id) (a view valid until the call returns), numbering
// the resulting words in order of first sight among the tokens.
void rename_words(Side side, const std::function<std::string_view(std::int32_t id)>& word_of) {
  const std::size_t old_types = side.words.size();
  std::vector<std::int32_t> new_id(old_types, -1);
  std::unordered_map<std::string, std::int32_t> ids;
  std::vector<std::string> words(static_cast<std::size_t>(side.first_id));
  for (std::int32_t& token : side.tokens) {
    std::int32_t& renamed = new_id[static_cast<std::size_t>(token)];
    if (renamed < 0) {
      const auto [at, added] = ids.emplace(std::string(word_of(token)), static_cast<std::int32_t>(words.size()));
      if (added) words.push_back(at->first);
      renamed = at->second;
    }
    token = renamed;
  }
  side.words = std::move(words);
  side.types = static_cast<int>(side.words.size());
}

Side source_side(Ibm2Corpus& corpus) { return {corpus.source, corpus.source_words, corpus.source_types, 1}; }
Side target_side(Ibm2Corpus& corpus) { return {corpus.target, corpus.target_words, corpus.target_types, 0}; }

// The bytes of the code point at s[i]: its UTF-8 sequence, or 1 for a byte that does not start
// a whole one (a stray continuation byte, an invalid lead, a sequence cut short).
std::size_t code_point_bytes(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const std::size_t n = c < 0xC2 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 1;
  if (n == 1 || i + n > s.size()) return 1;
  for (std::size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0u) != 0x80u) return 1;
  }
  return n;
}

}  // namespace

std::string_view word_prefix(std::string_view word, int code_points) {
  std::size_t end = 0;
  for (int k = 0; k < code_points && end < word.size(); ++k) end += code_point_bytes(word, end);
  return word.substr(0, end);
}

Ibm2Corpus stem_rare_words(Ibm2Corpus corpus, const StemRule& rule) {
  if (!rule.on()) return corpus;
  for (const Side side : {source_side(corpus), target_side(corpus)}) {
    std::vector<std::int64_t> seen(side.words.size(), 0);
    for (const std::int32_t token : side.tokens) ++seen[static_cast<std::size_t>(token)];
    rename_words(side, [&](std::int32_t id) {
      const std::string& word = side.words[static_cast<std::size_t>(id)];
      return seen[static_cast<std::size_t>(id)] < rule.below ? word_prefix(word, rule.length) : std::string_view(word);
    });
  }
  return corpus;
}

Ibm2Corpus stem_unnamed_words(Ibm2Corpus corpus, int length, const NamedWord& source_named,
                              const NamedWord& target_named) {
  if (length <= 0) return corpus;
  for (const auto& [side, named] : {std::pair{source_side(corpus), &source_named}, {target_side(corpus), &target_named}}) {
    rename_words(side, [&](std::int32_t id) {
      const std::string& word = side.words[static_cast<std::size_t>(id)];
      const std::string_view stem = word_prefix(word, length);
      return stem.size() == word.size() || (*named)(word) ? std::string_view(word) : stem;
    });
  }
  return corpus;
}

}  // namespace rnnsearch::align
