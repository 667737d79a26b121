#pragma once
// sacreBLEU's TokenizerRegexp (tokenizer_re.py): the mteval-v13a rules that 13a and
// zh finish with, applied in this order, each to every non-overlapping match:
//   1. an ASCII symbol or punctuation mark other than ' , - . becomes a token
//   2. ([^0-9])([.,])  ->  '\1 \2 '    (. or , after a non-digit)
//   3. ([.,])([^0-9])  ->  ' \1 \2'    (. or , before a non-digit)
//   4. ([0-9])(-)      ->  '\1 \2 '    (- after a digit)
// then ' '.join(line.split()). Digits are ASCII 0-9 only.
#include <string_view>

#include "eval/sacre_token_writer.h"

namespace rnnsearch::eval {

// Tokenizes `text` into `out` in one pass. `padded`: 13a wraps the line in spaces
// first, so a '.' or ',' at either end has a non-digit neighbour; zh does not.
// `alone` (may be null) marks non-ASCII code points that become tokens of their own
// (zh's Chinese characters).
void apply_mteval_rules(std::string_view text, bool padded, bool (*alone)(char32_t),
                        TokenWriter& out);

}  // namespace rnnsearch::eval
