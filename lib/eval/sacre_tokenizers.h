#pragma once
// sacreBLEU 2.6.0's BLEU tokenizers (13a, intl, zh, char, none), byte for byte.
// Each is a hand-written single-pass scanner; see the tokenizer_*.h files for the
// rules each one reproduces.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rnnsearch::eval {

class SacreTokenizer {
 public:
  virtual ~SacreTokenizer() = default;

  // What sacreBLEU's tokenizer returns for `line` (valid UTF-8, no '\n').
  virtual std::string tokenize(std::string_view line) const = 0;

  // The tokens of Python's tokenize(line).split(), the words BLEU counts. Each token
  // is a view into `buffer`, which is overwritten; `tokens` is cleared first. Reusing
  // both across lines avoids allocation.
  virtual void tokenize_into(std::string_view line, std::vector<std::string_view>& tokens,
                             std::string& buffer) const = 0;

  // sacreBLEU's signature name: "13a", "intl", "zh", "char" or "none".
  virtual std::string name() const = 0;
};

// The tokenizer sacreBLEU's `-tok NAME` selects. Throws util::UsageError for any
// other name, listing the valid ones.
std::unique_ptr<SacreTokenizer> make_sacre_tokenizer(std::string_view name);

// The names make_sacre_tokenizer accepts, in sacreBLEU's help order.
const std::vector<std::string>& sacre_tokenizer_names();

}  // namespace rnnsearch::eval
