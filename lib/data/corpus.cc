#include "data/corpus.h"

#include <string_view>

#include "text/word_counter.h"
#include "util/error.h"
#include "util/line_reader.h"

namespace rnnsearch::data {

namespace {

// Splits `line` and maps its tokens; counts (or rejects) tokens not in the vocabulary.
std::vector<std::int32_t> map_line(const std::string& line, const Vocabulary& vocabulary, const CorpusOptions& options,
                                   const util::LineReader& reader, const std::string& vocabulary_name,
                                   std::size_t& unknown, std::vector<std::string_view>& words) {
  text::split_space_words(line, words);
  std::vector<std::int32_t> ids;
  ids.reserve(words.size());
  for (const auto word : words) {
    const auto id = vocabulary.find(std::string(word));
    if (id) {
      ids.push_back(*id);
      continue;
    }
    if (!options.allow_unknown) {
      throw util::Error(reader.name(), reader.line_number(),
                        "token '" + std::string(word) + "' is not in the " + vocabulary_name +
                            " vocabulary (its BPE or vocabulary file does not match this data?)");
    }
    ++unknown;
    ids.push_back(Vocabulary::kUnk);
  }
  return ids;
}

}  // namespace

std::size_t ParallelCorpus::target_tokens() const {
  std::size_t tokens = 0;
  for (const auto& sentence : target) tokens += sentence.size() + 1;
  return tokens;
}

std::vector<std::int32_t> to_ids(const std::string& line, const Vocabulary& vocabulary) {
  std::vector<std::string_view> words;
  text::split_space_words(line, words);
  std::vector<std::int32_t> ids;
  ids.reserve(words.size());
  for (const auto word : words) ids.push_back(vocabulary.id_or_unk(std::string(word)));
  return ids;
}

ParallelCorpus read_parallel_corpus(const std::string& source_path, const std::string& target_path,
                                    const Vocabulary& source_vocabulary, const Vocabulary& target_vocabulary,
                                    const CorpusOptions& options) {
  util::LineReader source_reader(source_path), target_reader(target_path);
  ParallelCorpus corpus;
  std::string source_line, target_line;
  std::vector<std::string_view> words;
  auto skip = [&](std::size_t& counter) {
    ++counter;
    if (corpus.first_skipped_line == 0) corpus.first_skipped_line = source_reader.line_number();
  };
  for (;;) {
    const bool has_source = source_reader.next(source_line);
    const bool has_target = target_reader.next(target_line);
    if (!has_source && !has_target) break;
    if (has_source != has_target) {
      const util::LineReader& shorter = has_source ? target_reader : source_reader;
      const util::LineReader& longer = has_source ? source_reader : target_reader;
      if (corpus.lines == 0) throw util::Error(shorter.name(), "is empty, but " + longer.name() + " is not");
      throw util::Error(shorter.name(), "has " + std::to_string(corpus.lines) +
                                            (corpus.lines == 1 ? " line, but " : " lines, but ") + longer.name() +
                                            " has more (line " + std::to_string(corpus.lines + 1) +
                                            "); source and target must be line-aligned");
    }
    ++corpus.lines;
    auto source_ids =
        map_line(source_line, source_vocabulary, options, source_reader, "source", corpus.unknown_tokens, words);
    auto target_ids =
        map_line(target_line, target_vocabulary, options, target_reader, "target", corpus.unknown_tokens, words);
    if (source_ids.empty() || target_ids.empty()) {
      if (!options.skip_empty) {
        const util::LineReader& empty = source_ids.empty() ? source_reader : target_reader;
        throw util::Error(empty.name(), empty.line_number(), "empty line");
      }
      skip(corpus.skipped_empty);
      continue;
    }
    const std::size_t limit = options.max_length;
    if (limit > 0 && (source_ids.size() > limit || target_ids.size() > limit)) {
      const util::LineReader& long_side = source_ids.size() > limit ? source_reader : target_reader;
      const std::size_t length = std::max(source_ids.size(), target_ids.size());
      switch (options.long_pairs) {
        case LongPairs::kError:
          throw util::Error(long_side.name(), long_side.line_number(),
                            std::to_string(length) + " tokens, more than the length limit " + std::to_string(limit));
        case LongPairs::kSkip:
          skip(corpus.skipped_long);
          continue;
        case LongPairs::kTruncate:
          if (source_ids.size() > limit) source_ids.resize(limit);
          if (target_ids.size() > limit) target_ids.resize(limit);
          break;
      }
    }
    corpus.source.push_back(std::move(source_ids));
    corpus.target.push_back(std::move(target_ids));
    corpus.line_numbers.push_back(corpus.lines);
  }
  if (corpus.lines == 0) throw util::Error(source_path, "is empty (and so is " + target_path + ")");
  if (corpus.size() == 0) {
    throw util::Error(source_path, "no sentence pair is left after filtering " + std::to_string(corpus.lines) +
                                       " lines (" + std::to_string(corpus.skipped_long) + " too long, " +
                                       std::to_string(corpus.skipped_empty) + " with an empty side)");
  }
  return corpus;
}

}  // namespace rnnsearch::data
