#include "search/shortlist.h"

#include <algorithm>
#include <iterator>

namespace rnnsearch::search {

namespace {

void sort_unique(std::vector<std::int32_t>& ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

// The ids of the pieces the vocabulary has, ascending, without repeats.
std::vector<std::int32_t> ids_of(const std::vector<std::string>& pieces, const data::Vocabulary& vocabulary) {
  std::vector<std::int32_t> ids;
  for (const auto& piece : pieces) {
    if (const auto id = vocabulary.find(piece)) ids.push_back(*id);
  }
  sort_unique(ids);
  return ids;
}

}  // namespace

Shortlist::Shortlist(const data::ShortlistFile& file, const data::Vocabulary& target)
    : always_(ids_of(file.always, target)) {
  for (std::int32_t id = 0; id < data::Vocabulary::kSpecials; ++id) always_.push_back(id);
  sort_unique(always_);
  for (const auto& [source, targets] : file.lists) lists_.emplace(source, ids_of(targets, target));
}

std::vector<std::int32_t> Shortlist::allowed(const std::vector<std::string>& source_pieces) const {
  std::vector<std::int32_t> ids = always_;
  for (const auto& piece : source_pieces) {
    const auto list = lists_.find(piece);
    if (list != lists_.end()) ids.insert(ids.end(), list->second.begin(), list->second.end());
  }
  sort_unique(ids);
  return ids;
}

BatchShortlist batch_shortlist(const std::vector<const std::vector<std::int32_t>*>& allowed) {
  // Each set is ascending: mark the ids, read the marks in order, then every id's column.
  std::int32_t top = -1;
  for (const auto* ids : allowed) {
    if (!ids->empty()) top = std::max(top, ids->back());
  }
  std::vector<int> column(static_cast<std::size_t>(top + 1), -1);
  for (const auto* ids : allowed) {
    for (const std::int32_t id : *ids) column[static_cast<std::size_t>(id)] = 0;
  }
  BatchShortlist batch;
  for (std::int32_t id = 0; id <= top; ++id) {
    if (column[static_cast<std::size_t>(id)] < 0) continue;
    column[static_cast<std::size_t>(id)] = static_cast<int>(batch.ids.size());
    batch.ids.push_back(id);
  }
  for (const auto* ids : allowed) {
    batch.allowed.emplace_back();
    batch.allowed.back().reserve(ids->size());
    for (const std::int32_t id : *ids) batch.allowed.back().push_back(column[static_cast<std::size_t>(id)]);
  }
  return batch;
}

}  // namespace rnnsearch::search
