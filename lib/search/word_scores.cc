#include "search/word_scores.h"

#include "util/number_format.h"

namespace rnnsearch::search {

namespace {

bool continues(std::string_view piece) { return piece.size() >= 2 && piece.substr(piece.size() - 2) == "@@"; }

}  // namespace

std::string word_scores_text(const std::vector<std::string_view>& pieces, const std::vector<float>& token_log_probs) {
  std::string text;
  const auto append = [&text](double value) {
    if (!text.empty()) text += ' ';
    text += util::general(value);
  };
  double word = 0.0;
  for (std::size_t k = 0; k < pieces.size() && k < token_log_probs.size(); ++k) {
    word += static_cast<double>(token_log_probs[k]);
    if (continues(pieces[k]) && k + 1 < pieces.size()) continue;
    append(word);
    word = 0.0;
  }
  for (std::size_t k = pieces.size(); k < token_log_probs.size(); ++k) append(token_log_probs[k]);
  return text;
}

}  // namespace rnnsearch::search
