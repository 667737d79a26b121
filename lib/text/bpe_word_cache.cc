#include "text/bpe_word_cache.h"

#include "util/hash.h"

namespace rnnsearch::text {
namespace {

// Words are short: a plain loop beats a call to memcmp.
bool same_bytes(const char* stored, std::string_view word) {
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (stored[i] != word[i]) return false;
  }
  return true;
}

}  // namespace

std::size_t BpeWordCache::hash(std::string_view word) { return static_cast<std::size_t>(util::hash_bytes(word)); }

bool BpeWordCache::find(std::string_view word, std::size_t hash, std::string& out) {
  Shard& shard = shards_[hash % kShards];
  std::lock_guard<std::mutex> lock(shard.mutex);
  if (shard.slots.empty()) return false;
  const std::size_t mask = shard.slots.size() - 1;
  for (std::size_t i = (hash / kShards) & mask;; i = (i + 1) & mask) {
    const Slot& slot = shard.slots[i];
    if (slot.key_length == kEmpty) return false;
    if (slot.hash == hash && slot.key_length == word.size() && same_bytes(shard.arena.data() + slot.offset, word)) {
      out.append(shard.arena, slot.offset + slot.key_length, slot.value_length);
      return true;
    }
  }
}

void BpeWordCache::insert(std::string_view word, std::size_t hash, std::string_view value) {
  Shard& shard = shards_[hash % kShards];
  std::lock_guard<std::mutex> lock(shard.mutex);
  if (shard.used >= kSlotsLimit || shard.arena.size() > kArenaLimit) {
    shard.arena.clear();
    shard.slots.assign(shard.slots.size(), Slot{});
    shard.used = 0;
  } else if (shard.slots.empty() || 2 * (shard.used + 1) > shard.slots.size()) {
    rehash(shard, shard.slots.empty() ? 1024 : 2 * shard.slots.size());
  }
  place(shard, Slot{hash, static_cast<std::uint32_t>(shard.arena.size()), static_cast<std::uint32_t>(word.size()),
                    static_cast<std::uint32_t>(value.size())});
  shard.arena += word;
  shard.arena += value;
}

void BpeWordCache::place(Shard& shard, const Slot& slot) {
  const std::size_t mask = shard.slots.size() - 1;
  std::size_t i = (slot.hash / kShards) & mask;
  while (shard.slots[i].key_length != kEmpty) i = (i + 1) & mask;
  shard.slots[i] = slot;
  ++shard.used;
}

void BpeWordCache::rehash(Shard& shard, std::size_t size) {
  std::vector<Slot> old(size);
  old.swap(shard.slots);
  shard.used = 0;
  for (const Slot& slot : old) {
    if (slot.key_length != kEmpty) place(shard, slot);
  }
}

}  // namespace rnnsearch::text
