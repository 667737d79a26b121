#pragma once
// Word alignments in Pharaoh format: "i-j" pairs, source index first, 0-based, separated
// by spaces, one sentence pair per line. Gold alignments also have possible links "i?j";
// sure links count as possible too.
#include <cstddef>
#include <string>
#include <vector>

namespace rnnsearch::align {

struct Link {
  int source = 0, target = 0;
  bool operator<(const Link& other) const {
    return source != other.source ? source < other.source : target < other.target;
  }
  bool operator==(const Link& other) const { return source == other.source && target == other.target; }
};

// Links sorted by (source, target), without duplicates.
using Alignment = std::vector<Link>;

struct GoldAlignment {
  Alignment sure;
  Alignment possible;  // includes the sure links
};

// Parses one line of "i-j" pairs. Throws util::Error naming `file` and `line` (1-based)
// for a malformed pair or a negative or absurd index.
Alignment parse_pharaoh(const std::string& text, const std::string& file, std::size_t line);
// The same with "i?j" possible links allowed beside "i-j" sure ones.
GoldAlignment parse_gold(const std::string& text, const std::string& file, std::size_t line);

// "0-0 1-2 ...", links in (source, target) order.
std::string format_pharaoh(const Alignment& alignment);

}  // namespace rnnsearch::align
