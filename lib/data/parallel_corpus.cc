#include "data/parallel_corpus.h"

#include <algorithm>
#include <memory>
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

std::string plural(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

// The word links of the alignment file's current line, checked against the pair's words.
Alignment read_word_links(const std::string& line, const util::LineReader& reader, int source_words,
                          int target_words) {
  Alignment links = parse_pharaoh(line, reader.name(), reader.line_number());
  for (const Link& link : links) {
    if (link.source >= source_words || link.target >= target_words) {
      throw util::Error(reader.name(), reader.line_number(),
                        "link " + std::to_string(link.source) + "-" + std::to_string(link.target) +
                            " is outside the pair: " + plural(static_cast<std::size_t>(source_words), "source word") +
                            ", " + plural(static_cast<std::size_t>(target_words), "target word") +
                            " (links are source-target word indices from 0, over the text before BPE)");
    }
  }
  return links;
}

int word_count(const std::vector<int>& words) { return words.empty() ? 0 : words.back() + 1; }

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
  std::unique_ptr<util::LineReader> alignment_reader;
  if (!options.alignment_path.empty()) alignment_reader = std::make_unique<util::LineReader>(options.alignment_path);
  ParallelCorpus corpus;
  std::string source_line, target_line, alignment_line;
  std::vector<std::string_view> source_pieces, target_pieces;
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
    if (alignment_reader && !alignment_reader->next(alignment_line)) {
      throw util::Error(alignment_reader->name(), corpus.lines,
                        "missing: the alignment file has " + plural(corpus.lines - 1, "line") + ", but " +
                            source_path + " has more; the alignments must be line-aligned with the training text");
    }
    auto source_ids = map_line(source_line, source_vocabulary, options, source_reader, "source",
                               corpus.unknown_tokens, source_pieces);
    auto target_ids = map_line(target_line, target_vocabulary, options, target_reader, "target",
                               corpus.unknown_tokens, target_pieces);
    // Every alignment line is checked, those of pairs left out below included.
    std::vector<int> source_words, target_words;
    Alignment word_links;
    if (alignment_reader) {
      source_words = word_of_piece(source_pieces);
      target_words = word_of_piece(target_pieces);
      word_links = read_word_links(alignment_line, *alignment_reader, word_count(source_words), word_count(target_words));
    }
    if (source_ids.empty() || target_ids.empty()) {
      if (!options.skip_empty) {
        const util::LineReader& empty = source_ids.empty() ? source_reader : target_reader;
        throw util::Error(empty.name(), empty.line_number(), "empty line");
      }
      skip(corpus.skipped_empty);
      continue;
    }
    const std::size_t limit = options.max_length > 0 ? std::min(options.max_length, kMaxSentenceTokens) : kMaxSentenceTokens;
    if (source_ids.size() > limit || target_ids.size() > limit) {
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
    if (alignment_reader) {
      Alignment links = piece_links(word_links, source_words, target_words);
      const auto source_kept = static_cast<int>(source_ids.size()), target_kept = static_cast<int>(target_ids.size());
      links.erase(std::remove_if(links.begin(), links.end(),
                                 [&](const Link& link) {
                                   return link.source >= source_kept || link.target >= target_kept;
                                 }),
                  links.end());
      corpus.alignments.push_back(std::move(links));
      corpus.alignment_word_links += word_links.size();
    }
    corpus.source.push_back(std::move(source_ids));
    corpus.target.push_back(std::move(target_ids));
    corpus.line_numbers.push_back(corpus.lines);
  }
  if (corpus.lines == 0) throw util::Error(source_path, "is empty (and so is " + target_path + ")");
  if (alignment_reader && alignment_reader->next(alignment_line)) {
    throw util::Error(alignment_reader->name(), alignment_reader->line_number(),
                      "more lines than " + source_path + " (" + plural(corpus.lines, "line") +
                          "); the alignments must be line-aligned with the training text");
  }
  if (corpus.size() == 0) {
    throw util::Error(source_path, "no sentence pair is left after filtering " + std::to_string(corpus.lines) +
                                       " lines (" + std::to_string(corpus.skipped_long) + " too long, " +
                                       std::to_string(corpus.skipped_empty) + " with an empty side)");
  }
  return corpus;
}

}  // namespace rnnsearch::data
