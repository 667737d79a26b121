#pragma once
// Word alignments in Pharaoh format: "i-j" pairs, source index first, 0-based, separated
// by spaces, one sentence pair per line. Gold alignments also have possible links "i?j";
// sure links count as possible too.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rnnsearch::data {

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

// Sorts the links by (source, target) and drops duplicates.
void sort_unique(Alignment& alignment);
// Every link i-j as j-i, sorted: a reverse direction's links in the forward order.
Alignment inverted(Alignment alignment);

// "0-0 1-2 ...", links in (source, target) order.
std::string format_pharaoh(const Alignment& alignment);

// The word index of every piece of a BPE'd line's tokens ("a@@ b c" -> 0 0 1): a word is a
// run of pieces joined by "@@ " (a piece ending in "@@" continues into the next one).
std::vector<int> word_of_piece(const std::vector<std::string>& pieces);
std::vector<int> word_of_piece(const std::vector<std::string_view>& pieces);

// Word links turned into piece links: every piece of a linked source word with every piece
// of its target word. source_words and target_words are word_of_piece of the two sides.
// Sorted, without duplicates. Throws util::Error for a link outside the words.
Alignment piece_links(const Alignment& word_links, const std::vector<int>& source_words,
                      const std::vector<int>& target_words);

}  // namespace rnnsearch::data
