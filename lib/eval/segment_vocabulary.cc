#include "eval/segment_vocabulary.h"

#include <cstring>

namespace rnnsearch::eval {
namespace {

// A fast 64-bit string hash (8 bytes at a time, multiply-xorshift mixing).
std::uint64_t hash_bytes(std::string_view s) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ s.size();
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t chunk;
    std::memcpy(&chunk, s.data() + i, 8);
    h = (h ^ chunk) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, s.data() + i, s.size() - i);
  h = (h ^ tail) * 0x94D049BB133111EBull;
  return h ^ (h >> 29);
}

}  // namespace

SegmentVocabulary::SegmentVocabulary() : slots_(256) {}

void SegmentVocabulary::clear() {
  size_ = 0;
  if (++generation_ == 0) {  // wrapped: reset every stamp once
    for (auto& slot : slots_) slot.generation = 0;
    generation_ = 1;
  }
}

std::uint32_t SegmentVocabulary::id(std::string_view token) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  const std::uint64_t h = hash_bytes(token);
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
