#pragma once
// Ids for the distinct tokens of one segment, 1, 2, 3, ... in order of first sight.
// An open-addressing table whose slots are stamped with a generation number, so
// starting a new segment costs nothing (no clearing, no allocation once warm).
#include <cstdint>
#include <string_view>
#include <vector>

namespace rnnsearch::eval {

class SegmentVocabulary {
 public:
  SegmentVocabulary();

  // Forgets every token: ids restart at 1.
  void clear();
  // The id of `token`, assigning the next one on first sight. The view must stay
  // valid until clear().
  std::uint32_t id(std::string_view token);
  // The same with the token's hash() computed beforehand (e.g. cached with the token).
  std::uint32_t id(std::string_view token, std::uint64_t hash);
  static std::uint64_t hash(std::string_view token);
  std::size_t size() const { return size_; }

 private:
  struct Slot {
    std::string_view token;
    std::uint64_t hash = 0;
    std::uint32_t id = 0;
    std::uint32_t generation = 0;
  };

  void grow();

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  std::uint32_t generation_ = 1;
};

}  // namespace rnnsearch::eval
