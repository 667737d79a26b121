#include "eval/sacre_tokenizers.h"

#include "eval/sacre_token_writer.h"
#include "eval/tokenizer_13a.h"
#include "eval/tokenizer_intl.h"
#include "eval/tokenizer_zh.h"
#include "text/whitespace.h"
#include "util/error.h"
#include "util/utf8.h"

namespace rnnsearch::eval {
namespace {

// "none" (tokenizer_none.py): the line unchanged.
class TokenizerNone final : public SacreTokenizer {
 public:
  std::string tokenize(std::string_view line) const override { return std::string(line); }
  void tokenize_into(std::string_view line, std::vector<std::string_view>& tokens,
                     std::string& buffer) const override {
    TokenWriter writer(buffer, 2 * line.size());
    put_python_words(line, writer);
    writer.finish();
    tokens.clear();
    split_joined(buffer, tokens);
  }
  std::string name() const override { return "none"; }
};

// "char" (tokenizer_char.py): " ".join(line), every code point (spaces included)
// separated by one space.
class TokenizerChar final : public SacreTokenizer {
 public:
  std::string tokenize(std::string_view line) const override {
    std::string out(2 * line.size(), ' ');
    char* o = out.data();
    for (std::size_t i = 0; i < line.size(); ++i) {
      // Branch-free: a space (already there) before every code point but the first.
      const auto c = static_cast<unsigned char>(line[i]);
      o += (c & 0xC0) != 0x80 && i > 0;
      *o++ = static_cast<char>(c);
    }
    out.resize(static_cast<std::size_t>(o - out.data()));
    return out;
  }
  // The split drops the whitespace characters and keeps every other one as a token.
  void tokenize_into(std::string_view line, std::vector<std::string_view>& tokens,
                     std::string& buffer) const override {
    TokenWriter writer(buffer, 2 * line.size());
    for (std::size_t i = 0; i < line.size();) {
      const auto c = static_cast<unsigned char>(line[i]);
      if (c < 0x80) {
        if (!text::is_ascii_space(c)) writer.put_alone(line.substr(i, 1));
        ++i;
        continue;
      }
      const std::size_t space = text::white_space_length(line, i);
      const std::size_t len = space > 0 ? space : util::sequence_length(c);
      if (space == 0) writer.put_alone(line.substr(i, len));
      i += len;
    }
    writer.finish();
    tokens.clear();
    split_joined(buffer, tokens);
  }
  std::string name() const override { return "char"; }
};

// sacreBLEU tokenizers this project does not implement (they need MeCab or a
// SentencePiece model).
bool is_unsupported_sacrebleu_name(std::string_view name) {
  return name == "ja-mecab" || name == "ko-mecab" || name == "spm" || name == "flores101" ||
         name == "flores200";
}

}  // namespace

const std::vector<std::string>& sacre_tokenizer_names() {
  static const std::vector<std::string> names{"none", "zh", "13a", "char", "intl"};
  return names;
}

std::unique_ptr<SacreTokenizer> make_sacre_tokenizer(std::string_view name) {
  if (name == "13a") return std::make_unique<Tokenizer13a>();
  if (name == "intl") return std::make_unique<TokenizerIntl>();
  if (name == "zh") return std::make_unique<TokenizerZh>();
  if (name == "char") return std::make_unique<TokenizerChar>();
  if (name == "none") return std::make_unique<TokenizerNone>();
  std::string valid;
  for (const std::string& n : sacre_tokenizer_names()) valid += (valid.empty() ? "" : ", ") + n;
  std::string message = "unknown BLEU tokenizer '" + std::string(name) + "'; valid: " + valid;
  if (is_unsupported_sacrebleu_name(name)) {
    message += " (sacreBLEU's " + std::string(name) + " is not supported)";
  }
  throw util::UsageError(message);
}

}  // namespace rnnsearch::eval
