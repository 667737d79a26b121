#include "eval/segment_vocabulary.h"

#include "util/hash.h"

namespace rnnsearch::eval {

SegmentVocabulary::SegmentVocabulary() : slots_(256) {}

void SegmentVocabulary::clear() {
  size_ = 0;
  if (++generation_ == 0) {  // wrapped: reset every stamp once
    for (auto& slot : slots_) slot.generation = 0;
    generation_ = 1;
  }
}

std::uint64_t SegmentVocabulary::hash(std::string_view token) { return util::hash_bytes(token); }

std::uint32_t SegmentVocabulary::id(std::string_view token) { return id(token, hash(token)); }

std::uint32_t SegmentVocabulary::id(std::string_view token, std::uint64_t h) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.generation != generation_) {
      slot = {token, h, static_cast<std::uint32_t>(++size_), generation_};
      return slot.id;
    }
    if (slot.hash == h && slot.token == token) return slot.id;
  }
}

void SegmentVocabulary::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.generation != generation_) continue;
    std::size_t i = slot.hash & mask;
    while (slots_[i].generation == generation_) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

}  // namespace rnnsearch::eval
