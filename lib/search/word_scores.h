#pragma once
// Scores per word of a translation in BPE pieces (nmt-score --word-scores, nmt-decode
// --word-scores): the pieces of a word are joined by "@@ " (a piece ending in "@@" goes on
// into the next), and a word's score is the sum of its pieces' log-probabilities, in order,
// in double. After the words comes the log-probability of </s>, when the translation has
// one, so the values add up to the sentence's.
#include <string>
#include <string_view>
#include <vector>

namespace rnnsearch::search {

// The values above, space-separated (util::general): token_log_probs holds one value per
// piece and, last, one for </s> (or none, for a translation cut at the length limit).
std::string word_scores_text(const std::vector<std::string_view>& pieces, const std::vector<float>& token_log_probs);

}  // namespace rnnsearch::search
