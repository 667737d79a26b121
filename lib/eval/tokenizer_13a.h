#pragma once
// sacreBLEU's default BLEU tokenizer "13a" (tokenizer_13a.py), mteval-v13a's:
// removes "<skipped>", joins "-\n" and turns other '\n' into spaces, unescapes
// &quot; &amp; &lt; &gt; (in that order, each once), pads the line with a space on
// either side, then applies the mteval rules (mteval_rules.h).
#include <string>
#include <string_view>

#include "eval/sacre_token_writer.h"

namespace rnnsearch::eval {

class Tokenizer13a final : public SpacedTokenizer {
 public:
  std::string name() const override { return "13a"; }

 protected:
  void write(std::string_view line, std::string& out) const override;
};

}  // namespace rnnsearch::eval
