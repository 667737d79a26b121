#include "text/bpe_apply.h"

#include "util/error.h"
#include "util/option_range.h"
#include "util/parallel.h"
#include "util/utf8.h"

namespace rnnsearch::text {

namespace {

std::uint64_t pair_key(std::int32_t a, std::int32_t b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

constexpr std::uint64_t kNoPair = ~std::uint64_t{0};

std::size_t slot_of(std::uint64_t pair, std::size_t mask) {
  return static_cast<std::size_t>((pair * 0x9E3779B97F4A7C15ull) >> 20) & mask;
}

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// Python's s[:-4] on code points.
std::string drop_last_code_points(const std::string& s, std::size_t count) {
  std::size_t end = s.size();
  while (count > 0 && end > 0) {
    --end;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
    --count;
  }
  return s.substr(0, end);
}

// subword-nmt's isolate_glossary for a literal glossary: the word cut at every occurrence.
void isolate_glossary(const std::string& word, const std::string& glossary, std::vector<std::string>& out) {
  std::size_t found = word.find(glossary);
  if (word == glossary || found == std::string::npos) {
    out.push_back(word);
    return;
  }
  std::size_t start = 0;
  while (found != std::string::npos) {
    if (found > start) out.push_back(word.substr(start, found - start));
    out.push_back(glossary);
    start = found + glossary.size();
    found = word.find(glossary, start);
  }
  if (start < word.size()) out.push_back(word.substr(start));
}

}  // namespace

BpeApplier::BpeApplier(BpeCodes codes, BpeApplyOptions options)
    : version_minor_(codes.version_minor),
      separator_(std::move(options.separator)),
      glossaries_(std::move(options.glossaries)) {
  for (std::size_t i = 0; i < glossaries_.size(); ++i) {
    const std::string& g = glossaries_[i];
    if (g.empty()) throw util::Error("a glossary must not be empty");
    // Cut out of a word by bytes, an invalid sequence would split a character (fuzzing).
    if (util::find_invalid_utf8(g) != std::string_view::npos) {
      throw util::Error("a glossary must be valid UTF-8, glossary " + std::to_string(i + 1) + " is not");
    }
  }
  if (version_minor_ == 1) end_of_word_id_ = intern(std::string(kEndOfWord));
  std::size_t slots = 16;
  while (slots < 2 * codes.merges.size()) slots *= 2;
  merges_.assign(slots, Merge{kNoPair, 0, 0});
  for (std::size_t rank = 0; rank < codes.merges.size(); ++rank) {
    const auto& [left, right] = codes.merges[rank];
    const std::int32_t a = intern(left), b = intern(right);
    const std::int32_t result = intern(left + right);
    add_merge(pair_key(a, b), static_cast<int>(rank), result);
    reverse_.try_emplace(left + right, left, right);
  }
  for (unsigned c = 0; c < 0x80; ++c) {
    ascii_ids_[c] = lookup(std::string(1, static_cast<char>(c)));
    ascii_final_ids_[c] = lookup(std::string(1, static_cast<char>(c)) + std::string(kEndOfWord));
  }
  for (const auto& [token, count] : options.vocabulary) {
    if (count >= options.vocabulary_threshold) vocabulary_.insert(token);
  }
}

BpeApplier::~BpeApplier() = default;

std::int32_t BpeApplier::intern(const std::string& s) {
  return ids_.try_emplace(s, static_cast<std::int32_t>(ids_.size())).first->second;
}

// The first (lowest-ranked) merge of a pair wins, as in apply_bpe.
void BpeApplier::add_merge(std::uint64_t pair, int rank, std::int32_t result) {
  const std::size_t mask = merges_.size() - 1;
  for (std::size_t i = slot_of(pair, mask);; i = (i + 1) & mask) {
    if (merges_[i].pair == pair) return;
    if (merges_[i].pair == kNoPair) {
      merges_[i] = Merge{pair, rank, result};
      return;
    }
  }
}

const BpeApplier::Merge* BpeApplier::find_merge(std::int32_t a, std::int32_t b) const {
  if (a < 0 || b < 0) return kNoMerge;
  const std::uint64_t pair = pair_key(a, b);
  const std::size_t mask = merges_.size() - 1;
  for (std::size_t i = slot_of(pair, mask);; i = (i + 1) & mask) {
    if (merges_[i].pair == pair) return &merges_[i];
    if (merges_[i].pair == kNoPair) return kNoMerge;
  }
}

std::int32_t BpeApplier::lookup(std::string_view s) const {
  const auto it = ids_.find(std::string(s));
  return it == ids_.end() ? -1 : it->second;
}

std::string BpeApplier::apply(std::string_view line) const {
  std::string out;
  out.reserve(line.size() * 5 / 4 + 16);
  apply(line, out);
  return out;
}

void BpeApplier::apply(std::string_view line, std::string& out) const {
  for (std::size_t begin = 0;;) {
    const std::size_t tab = line.find('\t', begin);
    apply_field(line.substr(begin, tab == std::string_view::npos ? std::string_view::npos : tab - begin), out);
    if (tab == std::string_view::npos) return;
    out += '\t';
    begin = tab + 1;
  }
}

// apply_bpe's process_line on one line (or field) without its line break; a "\r" in it is
// no line break here (see bpe_apply.h): one line in, one line out.
void BpeApplier::apply_field(std::string_view line, std::string& out) const {
  const std::size_t first = line.find_first_not_of(' ');
  if (first == std::string_view::npos) {
    out += line;
    return;
  }
  const std::size_t last = line.find_last_not_of(' ');
  out += line.substr(0, first);
  bool any = false;
  std::size_t i = first;
  while (i <= last) {
    std::size_t j = line.find(' ', i);
    if (j == std::string_view::npos || j > last) j = last + 1;
    if (j > i) {
      if (any) out += ' ';
      append_word(line.substr(i, j - i), out);
      any = true;
    }
    i = j + 1;
  }
  out += line.substr(last + 1);
}

void BpeApplier::append_word(std::string_view word, std::string& out) const {
  const std::size_t hash = BpeWordCache::hash(word);
  if (cache_.find(word, hash, out)) return;
  const std::size_t before = out.size();
  const std::vector<std::string> pieces = segment_word(word);
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    out += pieces[i];
    if (i + 1 < pieces.size()) {
      out += separator_;
      out += ' ';
    }
  }
  cache_.insert(word, hash, std::string_view(out).substr(before));
}

std::vector<std::string> BpeApplier::segment_word(std::string_view word) const {
  std::vector<std::string> segments{std::string(word)}, next;
  for (const std::string& glossary : glossaries_) {
    next.clear();
    for (const std::string& s : segments) isolate_glossary(s, glossary, next);
    segments.swap(next);
  }
  std::vector<std::string> pieces;
  for (const std::string& s : segments) encode(s, pieces);
  return pieces;
}

// apply_bpe's encode(): appends the pieces of one segment.
void BpeApplier::encode(std::string_view segment, std::vector<std::string>& pieces) const {
  for (const std::string& g : glossaries_) {
    if (segment == g) {
      pieces.emplace_back(segment);
      return;
    }
  }
  if (code_points(segment) <= 1) {
    pieces.emplace_back(segment);
    return;
  }
  std::vector<Symbol> word;
  std::string key;
  for (std::size_t i = 0; i < segment.size();) {
    const std::size_t start = i;
    const unsigned char c = static_cast<unsigned char>(segment[i]);
    util::next_code_point(segment, i);
    const bool last = i == segment.size() && version_minor_ == 2;
    std::int32_t id;
    if (c < 0x80) {
      id = last ? ascii_final_ids_[c] : ascii_ids_[c];
    } else {
      key.assign(segment.substr(start, i - start));
      if (last) key += kEndOfWord;
      id = lookup(key);
    }
    word.push_back({id, static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(i), kNoMerge});
  }
  if (version_minor_ == 1) {
    const auto end = static_cast<std::uint32_t>(segment.size());
    word.push_back({end_of_word_id_, end, end, kNoMerge});
  }
  for (std::size_t i = 0; i + 1 < word.size(); ++i) word[i].next = find_merge(word[i].id, word[i + 1].id);
  std::vector<char> fresh;
  while (word.size() > 1) {
    // The lowest rank present; every occurrence of that pair merges, left to right.
    const Merge* best = nullptr;
    for (std::size_t i = 0; i + 1 < word.size(); ++i) {
      if (word[i].next && (!best || word[i].next->rank < best->rank)) best = word[i].next;
    }
    if (!best) break;
    fresh.assign(word.size(), 0);
    std::size_t out = 0;
    for (std::size_t i = 0; i < word.size();) {
      if (word[i].next == best) {
        word[out] = {best->result, word[i].begin, word[i + 1].end, kNoMerge};
        fresh[out++] = 1;
        i += 2;
      } else {
        word[out++] = word[i++];
      }
    }
    word.resize(out);
    // Pairs touching a new symbol are looked up again; the others keep their merge.
    for (std::size_t i = 0; i + 1 < word.size(); ++i) {
      if (fresh[i] || fresh[i + 1]) word[i].next = find_merge(word[i].id, word[i + 1].id);
    }
    if (!word.empty()) word.back().next = kNoMerge;
  }
  const std::size_t first = pieces.size();
  for (const Symbol& s : word) {
    // The end-of-word marker is dropped: its own symbol (0.1) covers no bytes.
    if (s.end > s.begin) pieces.emplace_back(segment.substr(s.begin, s.end - s.begin));
  }
  if (!vocabulary_.empty()) {
    std::vector<std::string> mine(pieces.begin() + first, pieces.end());
    pieces.resize(first);
    check_vocabulary(mine);
    pieces.insert(pieces.end(), mine.begin(), mine.end());
  }
}

// apply_bpe's check_vocab_and_split.
void BpeApplier::check_vocabulary(std::vector<std::string>& pieces) const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const bool final = i + 1 == pieces.size();
    if (in_vocabulary(final ? pieces[i] : pieces[i] + separator_)) {
      out.push_back(pieces[i]);
    } else {
      recursive_split(pieces[i], final, out);
    }
  }
  pieces.swap(out);
}

// apply_bpe's recursive_split: undoes the merge that built `segment`.
void BpeApplier::recursive_split(const std::string& segment, bool final, std::vector<std::string>& out) const {
  const auto it = reverse_.find(final ? segment + std::string(kEndOfWord) : segment);
  if (it == reverse_.end()) {
    out.push_back(segment);
    return;
  }
  const std::string left = it->second.first;
  const std::string right = final ? drop_last_code_points(it->second.second, 4) : it->second.second;
  if (in_vocabulary(left + separator_)) {
    out.push_back(left);
  } else {
    recursive_split(left, false, out);
  }
  if (final ? in_vocabulary(right) : in_vocabulary(right + separator_)) {
    out.push_back(right);
  } else {
    recursive_split(right, final, out);
  }
}

void BpeApplyOptions::validate() const {
  if (codes.empty()) throw util::UsageError("nmt-bpe apply needs --codes FILE");
  util::check_range("merges", merges, -1, 1000000000);
  util::check_range<std::int64_t>("vocabulary-threshold", vocabulary_threshold, 0, 1000000000000000000);
  util::check_range("num-workers", num_workers, -1, util::kMaxThreads);
  if (separator.empty()) throw util::UsageError("--separator must not be empty");
}

}  // namespace rnnsearch::text
