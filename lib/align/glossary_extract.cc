#include "align/glossary_extract.h"

#include <algorithm>
#include <climits>
#include <unordered_map>

#include "text/unicode.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/option_range.h"
#include "util/utf8.h"

namespace rnnsearch::align {
namespace {

using Words = std::vector<std::string_view>;

bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// The runs between ASCII whitespace, as `istream >> word` reads them.
Words words_of(std::string_view line) {
  Words words;
  for (std::size_t i = 0; i < line.size();) {
    while (i < line.size() && is_ascii_space(line[i])) ++i;
    const std::size_t begin = i;
    while (i < line.size() && !is_ascii_space(line[i])) ++i;
    if (i > begin) words.push_back(line.substr(begin, i - begin));
  }
  return words;
}

std::string phrase(const Words& words, std::size_t begin, std::size_t end) {
  std::string out(words[begin]);
  for (std::size_t i = begin + 1; i < end; ++i) {
    out += ' ';
    out += words[i];
  }
  return out;
}

// True when a token of `phrase` (single spaces between tokens) has `min_letters` letters.
bool has_long_token(std::string_view phrase, int min_letters) {
  if (min_letters <= 0) return true;
  int letters = 0;
  for (std::size_t i = 0; i < phrase.size();) {
    if (phrase[i] == ' ') {
      letters = 0;
      ++i;
      continue;
    }
    if (text::is_letter(util::next_code_point(phrase, i)) && ++letters >= min_letters) return true;
  }
  return false;
}

void check_links(const data::Alignment& links, std::size_t source_words, std::size_t target_words,
                 const std::string& file, std::size_t line) {
  for (const data::Link& l : links) {
    if (static_cast<std::size_t>(l.source) < source_words && static_cast<std::size_t>(l.target) < target_words) continue;
    throw util::Error(file, line, "link " + std::to_string(l.source) + "-" + std::to_string(l.target) +
                                      " is outside the pair of " + std::to_string(source_words) + " source and " +
                                      std::to_string(target_words) + " target words");
  }
}

// The next line of each of three line-aligned files; false when all have ended.
bool next_in_step(util::LineReader& a, std::string& a_line, util::LineReader& b, std::string& b_line,
                  util::LineReader& c, std::string& c_line) {
  const bool more_a = a.next(a_line), more_b = b.next(b_line), more_c = c.next(c_line);
  if (more_a != more_b) util::throw_unaligned(a, b);
  if (more_a != more_c) util::throw_unaligned(a, c);
  return more_a;
}

// Source phrase -> target phrase -> pairs extracted.
using PairCounts = std::unordered_map<std::string, std::unordered_map<std::string, std::size_t>>;

PairCounts count_phrase_pairs(const GlossaryExtractOptions& options) {
  util::LineReader source(options.source), target(options.target), alignment(options.alignment);
  PairCounts counts;
  std::string s, t, a;
  while (next_in_step(source, s, target, t, alignment, a)) {
    const Words sw = words_of(s), tw = words_of(t);
    const data::Alignment links = data::parse_pharaoh(a, alignment.name(), alignment.line_number());
    check_links(links, sw.size(), tw.size(), alignment.name(), alignment.line_number());
    for (const PhrasePairSpan& p : tight_phrase_pairs(sw.size(), tw.size(), links, options.max_length)) {
      ++counts[phrase(sw, p.source_begin, p.source_end)][phrase(tw, p.target_begin, p.target_end)];
    }
  }
  return counts;
}

struct Term {
  std::string target;
  std::size_t count = 0;        // pairs with the dominant target phrase
  std::size_t occurrences = 0;  // of the source phrase, counted in the second pass
};

// Each source phrase's most frequent target phrase (ties: the first in byte order), kept
// when it could still pass: its count alone reaches min_share * min_count.
std::unordered_map<std::string, Term> candidates(const PairCounts& counts, const GlossaryExtractOptions& options) {
  std::unordered_map<std::string, Term> out;
  for (const auto& [source, targets] : counts) {
    Term best;
    for (const auto& [target, count] : targets) {
      if (count > best.count || (count == best.count && target < best.target)) best = {target, count, 0};
    }
    if (static_cast<double>(best.count) < options.min_share * options.min_count) continue;
    if (!has_long_token(source, options.min_letters) || !has_long_token(best.target, options.min_letters)) continue;
    out.emplace(source, std::move(best));
  }
  return out;
}

void count_occurrences(const std::string& path, std::size_t max_length, std::unordered_map<std::string, Term>& terms) {
  util::LineReader source(path);
  std::string line, candidate;
  while (source.next(line)) {
    const Words words = words_of(line);
    for (std::size_t begin = 0; begin < words.size(); ++begin) {
      candidate.clear();
      for (std::size_t end = begin + 1; end <= std::min(words.size(), begin + max_length); ++end) {
        if (end > begin + 1) candidate += ' ';
        candidate += words[end - 1];
        const auto found = terms.find(candidate);
        if (found != terms.end()) ++found->second.occurrences;
      }
    }
  }
}

}  // namespace

std::vector<PhrasePairSpan> tight_phrase_pairs(std::size_t source_words, std::size_t target_words,
                                               const data::Alignment& links, std::size_t max_length) {
  // The target words each source word reaches, and the source words each target word does.
  std::vector<int> reach_min(source_words, INT_MAX), reach_max(source_words, -1);
  std::vector<int> back_min(target_words, INT_MAX), back_max(target_words, -1);
  for (const data::Link& l : links) {
    reach_min[l.source] = std::min(reach_min[l.source], l.target);
    reach_max[l.source] = std::max(reach_max[l.source], l.target);
    back_min[l.target] = std::min(back_min[l.target], l.source);
    back_max[l.target] = std::max(back_max[l.target], l.source);
  }
  std::vector<PhrasePairSpan> pairs;
  for (std::size_t s1 = 0; s1 < source_words; ++s1) {
    if (reach_max[s1] < 0) continue;
    int t1 = INT_MAX, t2 = -1;
    for (std::size_t s2 = s1; s2 < std::min(source_words, s1 + max_length); ++s2) {
      if (reach_max[s2] < 0) continue;  // a span ends on a linked word
      t1 = std::min(t1, reach_min[s2]);
      t2 = std::max(t2, reach_max[s2]);
      if (static_cast<std::size_t>(t2 - t1 + 1) > max_length) break;  // wider spans reach further still
      bool consistent = true;
      for (int t = t1; t <= t2 && consistent; ++t) {
        consistent = back_max[t] < 0 || (back_min[t] >= static_cast<int>(s1) && back_max[t] <= static_cast<int>(s2));
      }
      if (consistent) {
        pairs.push_back({s1, s2 + 1, static_cast<std::size_t>(t1), static_cast<std::size_t>(t2) + 1});
      }
    }
  }
  return pairs;
}

void GlossaryExtractOptions::validate() const {
  if (source.empty() || target.empty() || alignment.empty()) {
    throw util::UsageError("-s SOURCE, -t TARGET and -a ALIGNMENT are required");
  }
  if (source == "-") throw util::UsageError("-s needs a file, not standard input (it is read twice)");
  util::check_range("min-count", min_count, 1, 1000000000);
  util::check_range("min-share", min_share, 0.0, 1.0);
  util::check_range("max-length", max_length, 1, 10);
  util::check_range("min-letters", min_letters, 0, 100);
}

void extract_glossary_file(const GlossaryExtractOptions& options) {
  options.validate();
  auto terms = candidates(count_phrase_pairs(options), options);
  count_occurrences(options.source, static_cast<std::size_t>(options.max_length), terms);
  std::vector<std::pair<std::string, Term>> kept;
  for (auto& [source, term] : terms) {
    const double occurrences = static_cast<double>(term.occurrences);
    if (term.occurrences < static_cast<std::size_t>(options.min_count)) continue;
    // The share compared with a little room, so that 20 of 25 passes 0.8 whatever the rounding.
    if (static_cast<double>(term.count) < options.min_share * occurrences - 1e-9 * occurrences) continue;
    kept.emplace_back(source, std::move(term));
  }
  std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
    if (a.second.count != b.second.count) return a.second.count > b.second.count;
    return a.first != b.first ? a.first < b.first : a.second.target < b.second.target;
  });
  util::AtomicFileWriter writer(options.output);
  for (const auto& [source, term] : kept) writer.write_line(source + "\t" + term.target);
  writer.commit();
}

}  // namespace rnnsearch::align
