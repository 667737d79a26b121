#pragma once
// Word -> its BPE output ("piece@@ piece"), shared by the threads of one BpeApplier:
// one shard per hash range, each behind its own lock. A shard is an open-addressing
// table over one byte arena, so a lookup allocates nothing; a shard that fills up starts
// over (memory stays bounded on endless input).
#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace rnnsearch::text {

class BpeWordCache {
 public:
  // util::hash_bytes (8 bytes at a time, multiply-xorshift mixed); pass the same value to
  // find() and insert(). The low bits pick the shard, the rest the slot.
  static std::size_t hash(std::string_view word);

  // Appends the cached value of `word` to `out`; false when absent.
  bool find(std::string_view word, std::size_t hash, std::string& out);
  void insert(std::string_view word, std::size_t hash, std::string_view value);

 private:
  static constexpr std::size_t kShards = 64;
  static constexpr std::size_t kSlotsLimit = 1 << 14;  // words per shard (about 1M in all)
  static constexpr std::size_t kArenaLimit = 1 << 21;  // bytes per shard (128 MiB in all)
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  struct Slot {
    std::size_t hash = 0;
    std::uint32_t offset = 0, key_length = kEmpty, value_length = 0;
  };
  struct Shard {
    std::mutex mutex;
    std::vector<Slot> slots;  // power-of-two size, at most half full
    std::string arena;        // key then value, for every slot
    std::size_t used = 0;
  };

  static void place(Shard& shard, const Slot& slot);
  static void rehash(Shard& shard, std::size_t size);

  std::array<Shard, kShards> shards_;
};

}  // namespace rnnsearch::text
