#include "align/eval_files.h"

#include <string>
#include <vector>

#include "align/gold_file.h"
#include "data/alignment.h"
#include "util/error.h"
#include "util/line_reader.h"

namespace rnnsearch::align {

namespace {

void check_range_fits(const EvalFilesOptions& options, std::size_t sentences) {
  if (options.last_sentence > sentences) {
    throw util::Error("--sentences " + std::to_string(options.first_sentence) + "-" +
                      std::to_string(options.last_sentence) + ": " + options.gold + " and " + options.alignment +
                      " have " + std::to_string(sentences) + (sentences == 1 ? " sentence" : " sentences"));
  }
}

// Reads `gold` up to its first non-blank line into `head`; true when that line starts a
// shared-task file (the format is told by it).
bool read_gold_head(util::LineReader& gold, std::vector<std::string>& head) {
  for (std::string line; gold.next(line);) {
    head.push_back(line);
    if (const auto is_shared_task = is_shared_task_line(line)) return *is_shared_task;
  }
  return false;
}

// Pharaoh gold, the lines of `head` first, then the rest of `gold`, in step with the alignments.
AlignmentScores score_pharaoh(util::LineReader& gold, const std::vector<std::string>& head,
                              const EvalFilesOptions& options) {
  AlignmentScores scores;
  std::size_t sentences = 0;
  util::LineReader hypothesis_reader(options.alignment);
  std::string g, h;
  std::size_t next_of_head = 0;
  for (std::size_t line = 1;; ++line) {
    const bool more_g = next_of_head < head.size() ? (g = head[next_of_head++], true) : gold.next(g);
    const bool more_h = hypothesis_reader.next(h);
    if (more_g != more_h) util::throw_unaligned(gold, hypothesis_reader);
    if (!more_g) break;
    const auto gold_links = data::parse_gold(g, options.gold, line);
    const auto links = data::parse_pharaoh(h, options.alignment, line);
    if (options.scores_sentence(line)) scores.add(links, gold_links);
    sentences = line;
  }
  check_range_fits(options, sentences);
  return scores;
}

// Shared-task gold: `lines` and the rest of `gold`, read whole.
AlignmentScores score_shared_task(util::LineReader& gold, std::vector<std::string> lines,
                                  const EvalFilesOptions& options, const Notes& notes) {
  for (std::string line; gold.next(line);) lines.push_back(line);
  auto gold_file = parse_gold_file(lines, options.gold);
  const auto h = util::read_lines(options.alignment);
  auto& g = gold_file.sentences;
  if (gold_file.null_links > 0 && notes) {
    notes("note: " + options.gold + ": " + std::to_string(gold_file.null_links) +
         (gold_file.null_links == 1 ? " link" : " links") +
         " to position 0 (NULL) left out, as in the no-null evaluation");
  }
  if (gold_file.shared_task_format && h.size() > g.size()) {
    // Sentences after the last numbered one have no gold links, or the files do not match.
    if (notes) {
      notes("warning: " + options.gold + " numbers " + std::to_string(g.size()) + " sentences, " + options.alignment +
           " has " + std::to_string(h.size()) + " lines: the last " + std::to_string(h.size() - g.size()) +
           " have no gold links");
    }
    g.resize(h.size());
  } else if (g.size() != h.size()) {
    util::throw_line_count_mismatch(options.gold, g.size(), options.alignment, h.size(),
                                    gold_file.shared_task_format ? "sentence" : "line");
  }
  AlignmentScores scores;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const auto links = data::parse_pharaoh(h[i], options.alignment, i + 1);
    if (options.scores_sentence(i + 1)) scores.add(links, g[i]);
  }
  check_range_fits(options, g.size());
  return scores;
}

}  // namespace

void EvalFilesOptions::validate() const {
  if (gold.empty() || alignment.empty()) throw util::UsageError("-g GOLD and -a ALIGNMENT are required");
  if ((first_sentence == 0) != (last_sentence == 0) || first_sentence > last_sentence) {
    throw util::UsageError("--sentences must be FIRST-LAST with 1 <= FIRST <= LAST, got " +
                           std::to_string(first_sentence) + "-" + std::to_string(last_sentence));
  }
}

void parse_sentence_range(const std::string& text, EvalFilesOptions& options) {
  const auto bad = [&] {
    return util::UsageError("--sentences must be FIRST-LAST with 1 <= FIRST <= LAST, got '" + text + "'");
  };
  const std::size_t dash = text.find('-');
  const auto number = [&](const std::string& digits) {
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) throw bad();
    return static_cast<std::size_t>(std::stoul(digits));
  };
  if (dash == std::string::npos) throw bad();
  options.first_sentence = number(text.substr(0, dash));
  options.last_sentence = number(text.substr(dash + 1));
  if (options.first_sentence == 0 || options.first_sentence > options.last_sentence) throw bad();
}

AlignmentScores eval_files(const EvalFilesOptions& options, const Notes& notes) {
  options.validate();
  util::LineReader gold(options.gold);
  std::vector<std::string> head;  // up to the first non-blank line
  if (!read_gold_head(gold, head)) return score_pharaoh(gold, head, options);
  return score_shared_task(gold, std::move(head), options, notes);
}

}  // namespace rnnsearch::align
