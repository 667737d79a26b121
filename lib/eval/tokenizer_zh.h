#pragma once
// sacreBLEU's "zh" tokenizer (tokenizer_zh.py): strips the line, makes every
// character of its CJK table a token of its own, then applies the mteval rules
// (mteval_rules.h) without 13a's unescaping and padding.
#include <string>
#include <string_view>

#include "eval/sacre_token_writer.h"

namespace rnnsearch::eval {

// sacreBLEU's _is_chinese_char as Python actually evaluates its table: see the .cc
// for why it covers U+2001..U+2A6D (punctuation, currency, arrows, math symbols, ...)
// and nothing outside the BMP.
bool is_zh_split_char(char32_t cp);

class TokenizerZh final : public SpacedTokenizer {
 public:
  std::string name() const override { return "zh"; }

 protected:
  void write(std::string_view line, std::string& out) const override;
};

}  // namespace rnnsearch::eval
