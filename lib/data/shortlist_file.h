#pragma once
// A lexical shortlist (nmt-shortlist writes it, nmt-decode --shortlist reads it), in
// pieces, not ids, so it does not depend on a model's id assignment:
//   nmt-shortlist 1 first=100 best=100 threshold=0
//   <TAB>the , . de ...               the `first` most frequent target pieces, always allowed
//   source_piece<TAB>target target ...  a source piece's `best` target pieces, most probable first
// The source lines come in byte order of their piece, each piece once; a line's target
// pieces are separated by single spaces.
#include <string>
#include <utility>
#include <vector>

namespace rnnsearch::data {

struct ShortlistFile {
  int first = 0;            // the parameters it was made with (the header)
  int best = 0;
  double threshold = 0.0;
  std::vector<std::string> always;  // the first pieces
  std::vector<std::pair<std::string, std::vector<std::string>>> lists;  // by source piece, byte order
};

// Writes `shortlist` atomically.
void write_shortlist(const std::string& path, const ShortlistFile& shortlist);

// util::Error naming the file and line for a bad header, a line without its tab or target
// pieces, or source pieces out of order or repeated.
ShortlistFile read_shortlist(const std::string& path);

}  // namespace rnnsearch::data
