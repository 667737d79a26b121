#include "align/shortlist_files.h"

#include <algorithm>
#include <map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "align/ibm2_table.h"
#include "data/shortlist_file.h"
#include "data/vocabulary.h"
#include "util/error.h"
#include "util/option_range.h"

namespace rnnsearch::align {

namespace {

using Entry = std::pair<double, std::string>;  // t(f | e), f

// Most probable first, ties to the piece first in byte order.
bool before(const Entry& a, const Entry& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; }

// Keeps the `best` first entries of `entries` (in any order).
void keep_best(std::vector<Entry>& entries, std::size_t best) {
  if (entries.size() <= best) return;
  std::nth_element(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(best), entries.end(), before);
  entries.resize(best);
}

}  // namespace

void ShortlistOptions::validate() const {
  if (table.empty() || target_vocab.empty()) throw util::UsageError("--table and --target-vocab are required");
  util::check_range("first", first, 0, 10000000);
  util::check_range("best", best, 0, 1000000);
  util::check_range("threshold", threshold, 0.0, 1.0);
}

void shortlist_files(const ShortlistOptions& options) {
  options.validate();
  const auto vocabulary = data::Vocabulary::from_vocab_file(options.target_vocab);
  const auto& tokens = vocabulary.tokens();
  const std::unordered_set<std::string> known(tokens.begin() + data::Vocabulary::kSpecials, tokens.end());
  data::ShortlistFile out;
  out.first = options.first;
  out.best = options.best;
  out.threshold = options.threshold;
  const std::size_t first = std::min<std::size_t>(static_cast<std::size_t>(options.first), known.size());
  const auto pieces = tokens.begin() + data::Vocabulary::kSpecials;
  out.always.assign(pieces, pieces + static_cast<std::ptrdiff_t>(first));
  const auto best = static_cast<std::size_t>(options.best);
  std::map<std::string, std::vector<Entry>, std::less<>> lists;
  const auto on_header = [&](const Ibm2TableHeader& header) {
    if (header.reverse) {
      throw util::Error(options.table, 1, "is a table of nmt-align ibm2 --reverse: a shortlist needs t(target | source), "
                                          "the table of nmt-align ibm2 -s SOURCE -t TARGET without --reverse");
    }
  };
  read_ibm2_table(options.table, on_header, [&](std::string_view e, std::string_view f, double p) {
    if (e.empty() || best == 0 || p < options.threshold) return;
    std::string piece(f);
    if (known.count(piece) == 0) return;
    auto row = lists.find(e);
    if (row == lists.end()) row = lists.emplace(std::string(e), std::vector<Entry>()).first;
    row->second.emplace_back(p, std::move(piece));
    if (row->second.size() >= 2 * best + 64) keep_best(row->second, best);
  });
  for (auto& [source, entries] : lists) {
    keep_best(entries, best);
    std::sort(entries.begin(), entries.end(), before);
    std::vector<std::string> targets;
    for (auto& entry : entries) targets.push_back(std::move(entry.second));
    out.lists.emplace_back(source, std::move(targets));
  }
  data::write_shortlist(options.output, out);
}

}  // namespace rnnsearch::align
