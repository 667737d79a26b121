#include "data/source_profile.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "text/unicode.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/number_format.h"
#include "util/utf8.h"

namespace rnnsearch::data {

namespace {

constexpr int kBits = 21;  // per character in a key
constexpr std::uint64_t kMask = (std::uint64_t{1} << kBits) - 1;

std::uint64_t key2(char32_t a, char32_t b) { return (std::uint64_t{a} << kBits) | b; }
std::uint64_t key3(char32_t a, char32_t b, char32_t c) { return (key2(a, b) << kBits) | c; }

// The count of `key` in `table`, 0 when it is not there.
std::uint32_t count_of(const NgramTable& table, std::uint64_t key) {
  const auto at = std::lower_bound(table.keys.begin(), table.keys.end(), key);
  if (at == table.keys.end() || *at != key) return 0;
  return table.counts[static_cast<std::size_t>(at - table.keys.begin())];
}

// The `limit` most frequent of `counts` (ties by key), as a table.
NgramTable most_frequent(const std::unordered_map<std::uint64_t, std::uint64_t>& counts, std::size_t limit) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> entries(counts.begin(), counts.end());
  const auto first = [](const auto& x, const auto& y) { return x.second != y.second ? x.second > y.second : x.first < y.first; };
  std::sort(entries.begin(), entries.end(), first);
  if (entries.size() > limit) entries.resize(limit);
  std::sort(entries.begin(), entries.end());
  NgramTable table;
  for (const auto& [key, count] : entries) {
    table.keys.push_back(key);
    table.counts.push_back(static_cast<std::uint32_t>(std::min<std::uint64_t>(count, 0xFFFFFFFFu)));
  }
  return table;
}

// Refuses a stored table that SourceProfile could not have written.
void check_table(const NgramTable& table, int order, std::size_t limit, const std::string& path) {
  const std::string what = "damaged: the source profile's " + std::to_string(order) + "-gram table ";
  if (table.keys.size() != table.counts.size()) {
    throw util::Error(path, what + "has " + std::to_string(table.keys.size()) + " keys and " +
                                std::to_string(table.counts.size()) + " counts");
  }
  if (table.keys.size() > limit) {
    throw util::Error(path, what + "has " + std::to_string(table.keys.size()) + " entries, more than " +
                                std::to_string(limit));
  }
  for (std::size_t i = 0; i < table.keys.size(); ++i) {
    if ((i > 0 && table.keys[i] <= table.keys[i - 1]) || (table.keys[i] >> (kBits * order)) != 0) {
      throw util::Error(path, what + "has its keys out of order or out of range at entry " + std::to_string(i));
    }
    if (table.counts[i] == 0) throw util::Error(path, what + "has a count of 0 at entry " + std::to_string(i));
  }
}

}  // namespace

WordSplits word_splits(std::string_view line) {
  WordSplits splits;
  bool inside = false;  // the previous piece ended with the join
  for (std::size_t start = 0; start < line.size();) {
    const std::size_t end = std::min(line.find(' ', start), line.size());
    const std::string_view piece = line.substr(start, end - start);
    start = end + 1;
    if (piece.empty()) continue;
    const bool joined = piece.size() > 2 && piece.substr(piece.size() - 2) == "@@";
    if (joined && !inside) ++splits.split;
    if (!joined) ++splits.words;
    inside = joined;
  }
  if (inside) ++splits.words;  // a line that ends with a join
  return splits;
}

std::u32string profile_text(std::string_view line) {
  const std::string valid = text::lowercase(util::find_invalid_utf8(line) == std::string_view::npos
                                                ? line
                                                : std::string_view(util::replace_invalid_utf8(line)));
  std::u32string out = {SourceProfile::kStart, SourceProfile::kStart};
  std::size_t i = 0;
  bool pending_space = false;
  while (i < valid.size()) {
    const char32_t c = util::next_code_point(valid, i);
    if (c == U' ' || c == U'\t') {
      pending_space = out.size() > 2;
      continue;
    }
    if (c == U'@' && i < valid.size() && valid[i] == '@' && (i + 1 == valid.size() || valid[i + 1] == ' ')) {
      ++i;  // a join: the next piece follows without a space
      while (i < valid.size() && valid[i] == ' ') ++i;
      pending_space = false;
      continue;
    }
    if (pending_space) out.push_back(U' ');
    pending_space = false;
    out.push_back(c);
  }
  out.push_back(SourceProfile::kEnd);
  return out;
}

SourceProfile::SourceProfile(std::array<NgramTable, 3> tables, ProfileFigures figures, const std::string& path)
    : tables_(std::move(tables)), figures_(std::move(figures)) {
  for (int order = 1; order <= 3; ++order) {
    check_table(table(order), order, kMaxEntries[static_cast<std::size_t>(order - 1)], path);
  }
  const bool none = tables_[0].keys.empty();
  if (none != tables_[1].keys.empty() || none != tables_[2].keys.empty()) {
    throw util::Error(path, "damaged: the source profile has some of its tables empty, not all");
  }
  const double bits = figures_.bits_per_character, split = figures_.split_share;
  if (!(std::isfinite(bits) && bits >= 0.0 && bits <= 64.0) || (!none && bits <= 0.0)) {
    throw util::Error(path, "damaged: the source profile's own cross-entropy is " + util::general(bits) +
                                " bits per character");
  }
  if (!(split >= 0.0 && split <= 1.0)) {
    throw util::Error(path, "damaged: the source profile's share of split words is " + util::general(split));
  }
  index();
}

void SourceProfile::index() {
  characters_ = 0;
  for (const std::uint32_t count : tables_[0].counts) characters_ += count;
  for (int order = 2; order <= 3; ++order) {
    auto& contexts = contexts_[static_cast<std::size_t>(order - 2)];
    contexts.clear();
    const NgramTable& t = table(order);
    for (std::size_t i = 0; i < t.keys.size(); ++i) {
      Context& context = contexts[t.keys[i] >> kBits];
      context.total += t.counts[i];
      ++context.types;
    }
  }
}

double SourceProfile::p1(char32_t c) const {
  const double v = static_cast<double>(tables_[0].keys.size());
  return (count_of(tables_[0], c) + 1.0) / (static_cast<double>(characters_) + v + 1.0);
}

double SourceProfile::backed_off(int order, std::uint64_t context, std::uint64_t key, double lower) const {
  const auto& contexts = contexts_[static_cast<std::size_t>(order - 2)];
  const auto at = contexts.find(context);
  if (at == contexts.end()) return lower;
  const double types = at->second.types;
  return (count_of(table(order), key) + types * lower) / (static_cast<double>(at->second.total) + types);
}

double SourceProfile::bits(char32_t a, char32_t b, char32_t c) const {
  const double p2 = backed_off(2, b, key2(b, c), p1(c));
  return -std::log2(backed_off(3, key2(a, b), key3(a, b, c), p2));
}

void ProfileBuilder::add_line(std::string_view line) {
  const WordSplits splits = word_splits(line);
  splits_.words += splits.words;
  splits_.split += splits.split;
  const std::u32string text = profile_text(line);
  for (std::size_t i = 2; i < text.size(); ++i) ++trigrams_[key3(text[i - 2] & kMask, text[i - 1] & kMask, text[i] & kMask)];
}

SourceProfile ProfileBuilder::build(const std::string& training_source) const {
  if (trigrams_.empty()) return SourceProfile();
  std::array<std::unordered_map<std::uint64_t, std::uint64_t>, 3> counts;
  counts[2] = trigrams_;
  for (const auto& [key, count] : trigrams_) {
    counts[1][key & ((std::uint64_t{1} << (2 * kBits)) - 1)] += count;
    counts[0][key & kMask] += count;
  }
  std::array<NgramTable, 3> tables;
  for (std::size_t k = 0; k < 3; ++k) tables[k] = most_frequent(counts[k], SourceProfile::kMaxEntries[k]);
  ProfileFigures figures{training_source, 1.0, 0.0};
  if (splits_.words > 0) figures.split_share = static_cast<double>(splits_.split) / static_cast<double>(splits_.words);
  const SourceProfile profile(tables, figures, training_source);  // to measure the text with
  // The training text's cross-entropy, summed in key order (not the hash table's).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> all(trigrams_.begin(), trigrams_.end());
  std::sort(all.begin(), all.end());
  double bits = 0.0, characters = 0.0;
  for (const auto& [key, count] : all) {
    bits += static_cast<double>(count) * profile.bits((key >> (2 * kBits)) & kMask, (key >> kBits) & kMask, key & kMask);
    characters += static_cast<double>(count);
  }
  figures.bits_per_character = bits / characters;
  return SourceProfile(std::move(tables), figures, training_source);
}

SourceProfile profile_of_file(const std::string& path) {
  ProfileBuilder builder;
  util::LineReader reader(path);
  std::string line;
  while (reader.next(line)) builder.add_line(line);
  const std::size_t slash = path.find_last_of('/');
  return builder.build(slash == std::string::npos ? path : path.substr(slash + 1));
}

}  // namespace rnnsearch::data
