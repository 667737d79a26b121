#pragma once
// Gold alignment files in either of the two formats word-alignment gold standards come in:
//   Pharaoh, one line per sentence pair: "i-j" sure and "i?j" possible links, 0-based,
//     source index first (data::parse_gold);
//   the NAACL 2003 / WPT shared-task format, one link per line: "SENT SRC_POS TGT_POS [S|P]",
//     1-based, sentences numbered from 1, a missing label meaning S, position 0 meaning
//     NULL (the *.wa.nullalign files): such links are left out and counted, as the
//     no-null evaluation of Mihalcea and Pedersen (2003) scores.
// The format is told from the first non-blank line: three or four fields, the first three
// numbers, is the shared-task format.
#include <optional>
#include <string>
#include <vector>

#include "data/alignment.h"

namespace rnnsearch::align {

struct GoldFile {
  std::vector<data::GoldAlignment> sentences;  // index = sentence number - 1 (shared-task) or line - 1
  bool shared_task_format = false;
  std::size_t null_links = 0;  // shared-task links with a position 0, left out
};

// Throws util::Error naming the file and line for anything malformed: a bad field, a
// sentence number of 0, a label other than S or P.
GoldFile read_gold_file(const std::string& path);
// For a reader of a gold file line by line: whether `line` (the first non-blank one)
// starts a shared-task file; nullopt for a blank line, which decides nothing.
std::optional<bool> is_shared_task_line(const std::string& line);
// The same from the file's lines (`path` names it in errors).
GoldFile parse_gold_file(const std::vector<std::string>& lines, const std::string& path);

}  // namespace rnnsearch::align
