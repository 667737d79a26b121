#pragma once
// The text file of an IBM Model 2 table (nmt-align ibm2 --save-table, --load-table; read
// by nmt-shortlist). Line 1, the header, holds what aligning needs besides t:
//   nmt-ibm2-table 1 direction=forward p-null=0.08 tension=5.21875
// then one line per entry, "e<TAB>f<TAB>t(f | e)": f a word of the generated side, e one
// of the conditioning side (forward: e from -s, f from -t; reverse: e from -t, f from -s),
// e empty for NULL. Entries come by e (byte order, NULL first), then by descending
// probability, then by f. Numbers are the shortest text that reads back as the same double
// (util::shortest_scientific), so a loaded table aligns exactly as the saved one did.
#include <functional>
#include <string>
#include <string_view>

#include "align/ibm2.h"

namespace rnnsearch::align {

struct Ibm2TableHeader {
  bool reverse = false;  // direction=reverse: the table of nmt-align ibm2 --reverse
  double p_null = 0.08;
  double tension = 4.0;
};

// Writes `table` (of `corpus`'s ids) atomically, leaving out entries below `threshold`
// (0: none; the NULL row is always written whole, since aligning reads it).
void write_ibm2_table(const std::string& path, const Ibm2Corpus& corpus, const Ibm2Table& table, bool reverse,
                      double threshold = 0.0);

// Reads the table file: the header, then every entry in file order. util::Error naming the
// file and line for a bad header or entry (not three tab-separated fields, an empty f, a
// probability not in (0, 1]).
void read_ibm2_table(const std::string& path, const std::function<void(const Ibm2TableHeader&)>& on_header,
                     const std::function<void(std::string_view e, std::string_view f, double p)>& on_entry);

// ibm2_force_align's fill from a table file: sets the entries of `table` (of `corpus`'s ids)
// that the file has, the tension and p_null from the header. util::Error when the file's
// direction is not `reverse`'s.
void fill_ibm2_table(const std::string& path, const Ibm2Corpus& corpus, bool reverse, Ibm2Table& table);

}  // namespace rnnsearch::align
