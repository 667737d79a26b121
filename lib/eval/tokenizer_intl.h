#pragma once
// sacreBLEU's "intl" tokenizer (TokenizerV14International, mteval-v14's
// international rules), applied in this order with the regex module's Unicode
// classes, each to every non-overlapping match:
//   1. (\P{N})(\p{P})  ->  '\1 \2 '    (punctuation after a non-number)
//   2. (\p{P})(\P{N})  ->  ' \1 \2'    (punctuation before a non-number)
//   3. (\p{S})         ->  ' \1 '      (every symbol is a token)
// then ' '.join(line.split()). No padding: "in 1990." keeps "1990." whole.
// Categories come from ICU (text/unicode.h).
#include <string>
#include <string_view>

#include "eval/sacre_token_writer.h"

namespace rnnsearch::eval {

class TokenizerIntl final : public SpacedTokenizer {
 public:
  TokenizerIntl();
  std::string name() const override { return "intl"; }

 protected:
  void write(std::string_view line, std::string& out) const override;
};

}  // namespace rnnsearch::eval
