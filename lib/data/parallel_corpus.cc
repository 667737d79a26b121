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

const char* long_pairs_name(LongPairs policy) {
  switch (policy) {
    case LongPairs::kSkip: return "skip";
    case LongPairs::kError: return "error";
    case LongPairs::kTruncate: return "truncate";
  }
  return "unknown";
}

LongPairs parse_long_pairs(const std::string& name) {
  for (const auto policy : {LongPairs::kSkip, LongPairs::kError, LongPairs::kTruncate}) {
    if (name == long_pairs_name(policy)) return policy;
  }
  throw util::UsageError("--long-pairs must be one of skip, error, truncate, got '" + name + "'");
}

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

namespace {

// read_parallel_corpus, one pair at a time: the readers, the pair being read, and the
// corpus so far.
class CorpusReader {
 public:
  CorpusReader(const std::string& source_path, const std::string& target_path, const Vocabulary& source_vocabulary,
               const Vocabulary& target_vocabulary, const CorpusOptions& options)
      : source_path_(source_path),
        target_path_(target_path),
        source_reader_(source_path),
        target_reader_(target_path),
        source_vocabulary_(source_vocabulary),
        target_vocabulary_(target_vocabulary),
        options_(options) {
    if (!options.alignment_path.empty()) alignment_reader_ = std::make_unique<util::LineReader>(options.alignment_path);
  }

  ParallelCorpus read() {
    while (next_lines()) read_pair();
    check_end();
    return std::move(corpus_);
  }

 private:
  // Reads the next line of each file (and of the alignment file); false after the last.
  bool next_lines();
  void read_pair();
  // Whether the pair is kept: a pair with an empty side, or (as the options say) a long
  // one, is counted and left out, or an error; a long kept pair is truncated.
  bool keep(std::vector<std::int32_t>& source_ids, std::vector<std::int32_t>& target_ids);
  void skip(std::size_t& counter) {
    ++counter;
    if (corpus_.first_skipped_line == 0) corpus_.first_skipped_line = source_reader_.line_number();
  }
  void check_end();

  const std::string& source_path_;
  const std::string& target_path_;
  util::LineReader source_reader_, target_reader_;
  std::unique_ptr<util::LineReader> alignment_reader_;
  const Vocabulary& source_vocabulary_;
  const Vocabulary& target_vocabulary_;
  const CorpusOptions& options_;
  ParallelCorpus corpus_;
  std::string source_line_, target_line_, alignment_line_;
  std::vector<std::string_view> source_pieces_, target_pieces_;
};

bool CorpusReader::next_lines() {
  const bool has_source = source_reader_.next(source_line_);
  const bool has_target = target_reader_.next(target_line_);
  if (!has_source && !has_target) return false;
  if (has_source != has_target) {
    const util::LineReader& shorter = has_source ? target_reader_ : source_reader_;
    const util::LineReader& longer = has_source ? source_reader_ : target_reader_;
    if (corpus_.lines == 0) throw util::Error(shorter.name(), "is empty, but " + longer.name() + " is not");
    throw util::Error(shorter.name(), "has " + std::to_string(corpus_.lines) +
                                          (corpus_.lines == 1 ? " line, but " : " lines, but ") + longer.name() +
                                          " has more (line " + std::to_string(corpus_.lines + 1) +
                                          "); source and target must be line-aligned");
  }
  ++corpus_.lines;
  if (alignment_reader_ && !alignment_reader_->next(alignment_line_)) {
    throw util::Error(alignment_reader_->name(), corpus_.lines,
                      "missing: the alignment file has " + plural(corpus_.lines - 1, "line") + ", but " +
                          source_path_ + " has more; the alignments must be line-aligned with the training text");
  }
  return true;
}

void CorpusReader::read_pair() {
  auto source_ids = map_line(source_line_, source_vocabulary_, options_, source_reader_, "source",
                             corpus_.unknown_tokens, source_pieces_);
  auto target_ids = map_line(target_line_, target_vocabulary_, options_, target_reader_, "target",
                             corpus_.unknown_tokens, target_pieces_);
  // Every alignment line is checked, those of pairs left out below included.
  std::vector<int> source_words, target_words;
  Alignment word_links;
  if (alignment_reader_) {
    source_words = word_of_piece(source_pieces_);
    target_words = word_of_piece(target_pieces_);
    word_links =
        read_word_links(alignment_line_, *alignment_reader_, word_count(source_words), word_count(target_words));
  }
  if (!keep(source_ids, target_ids)) return;
  if (alignment_reader_) {
    Alignment links = piece_links(word_links, source_words, target_words);
    const auto source_kept = static_cast<int>(source_ids.size()), target_kept = static_cast<int>(target_ids.size());
    links.erase(std::remove_if(links.begin(), links.end(),
                               [&](const Link& link) {
                                 return link.source >= source_kept || link.target >= target_kept;
                               }),
                links.end());
    corpus_.alignments.push_back(std::move(links));
    corpus_.alignment_word_links += word_links.size();
  }
  corpus_.source.push_back(std::move(source_ids));
  corpus_.target.push_back(std::move(target_ids));
  corpus_.line_numbers.push_back(corpus_.lines);
}

bool CorpusReader::keep(std::vector<std::int32_t>& source_ids, std::vector<std::int32_t>& target_ids) {
  if (source_ids.empty() || target_ids.empty()) {
    if (!options_.skip_empty) {
      const util::LineReader& empty = source_ids.empty() ? source_reader_ : target_reader_;
      throw util::Error(empty.name(), empty.line_number(), "empty line");
    }
    skip(corpus_.skipped_empty);
    return false;
  }
  const std::size_t limit =
      options_.max_length > 0 ? std::min(options_.max_length, kMaxSentenceTokens) : kMaxSentenceTokens;
  if (source_ids.size() <= limit && target_ids.size() <= limit) return true;
  const util::LineReader& long_side = source_ids.size() > limit ? source_reader_ : target_reader_;
  const std::size_t length = std::max(source_ids.size(), target_ids.size());
  switch (options_.long_pairs) {
    case LongPairs::kError:
      throw util::Error(long_side.name(), long_side.line_number(),
                        std::to_string(length) + " tokens, more than the length limit " + std::to_string(limit));
    case LongPairs::kSkip:
      skip(corpus_.skipped_long);
      return false;
    case LongPairs::kTruncate:
      if (source_ids.size() > limit) source_ids.resize(limit);
      if (target_ids.size() > limit) target_ids.resize(limit);
      break;
  }
  return true;
}

void CorpusReader::check_end() {
  const std::string& source_path = source_path_;
  if (corpus_.lines == 0) throw util::Error(source_path, "is empty (and so is " + target_path_ + ")");
  if (alignment_reader_ && alignment_reader_->next(alignment_line_)) {
    throw util::Error(alignment_reader_->name(), alignment_reader_->line_number(),
                      "more lines than " + source_path + " (" + plural(corpus_.lines, "line") +
                          "); the alignments must be line-aligned with the training text");
  }
  if (corpus_.size() == 0) {
    throw util::Error(source_path, "no sentence pair is left after filtering " + std::to_string(corpus_.lines) +
                                       " lines (" + std::to_string(corpus_.skipped_long) + " too long, " +
                                       std::to_string(corpus_.skipped_empty) + " with an empty side)");
  }
}

}  // namespace

ParallelCorpus read_parallel_corpus(const std::string& source_path, const std::string& target_path,
                                    const Vocabulary& source_vocabulary, const Vocabulary& target_vocabulary,
                                    const CorpusOptions& options) {
  return CorpusReader(source_path, target_path, source_vocabulary, target_vocabulary, options).read();
}

}  // namespace rnnsearch::data
