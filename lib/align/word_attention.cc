#include "align/word_attention.h"

#include <numeric>

#include "util/error.h"

namespace rnnsearch::align {

AttentionStep parse_attention_step(const std::string& name) {
  if (name == "emit") return AttentionStep::kEmit;
  if (name == "next") return AttentionStep::kNext;
  throw util::UsageError("--step must be emit or next, got '" + name + "'");
}

EosRule parse_eos_rule(const std::string& name) {
  if (name == "ignore") return EosRule::kIgnore;
  if (name == "renormalize") return EosRule::kRenormalize;
  if (name == "null") return EosRule::kNull;
  throw util::UsageError("--eos must be ignore, renormalize or null, got '" + name + "'");
}

MergeTo parse_merge_to(const std::string& name) {
  if (name == "words") return MergeTo::kWords;
  if (name == "pieces") return MergeTo::kPieces;
  throw util::UsageError("--merge must be pieces or words, got '" + name + "'");
}

math::Matrix unit_attention(const math::Matrix& weights, const std::vector<int>& source_unit,
                            const std::vector<int>& target_unit, AttentionStep step) {
  const Eigen::Index source_pieces = static_cast<Eigen::Index>(source_unit.size());
  const Eigen::Index target_pieces = static_cast<Eigen::Index>(target_unit.size());
  const Eigen::Index shift = step == AttentionStep::kNext ? 1 : 0;
  if (weights.rows() < target_pieces + shift || weights.cols() != source_pieces + 1) {
    throw util::Error("unit_attention: a " + std::to_string(weights.rows()) + " x " + std::to_string(weights.cols()) +
                      " attention matrix for " + std::to_string(target_pieces) + " target and " +
                      std::to_string(source_pieces) + " source pieces");
  }
  const int S = source_unit.empty() ? 0 : source_unit.back() + 1;
  const int T = target_unit.empty() ? 0 : target_unit.back() + 1;
  math::Matrix units = math::Matrix::Zero(T, S + 1);
  std::vector<int> pieces(static_cast<std::size_t>(T), 0);
  for (Eigen::Index j = 0; j < target_pieces; ++j) {
    const int t = target_unit[static_cast<std::size_t>(j)];
    ++pieces[static_cast<std::size_t>(t)];
    const auto row = weights.row(j + shift);
    for (Eigen::Index i = 0; i < source_pieces; ++i) units(t, source_unit[static_cast<std::size_t>(i)]) += row(i);
    units(t, S) += row(source_pieces);
  }
  for (int t = 0; t < T; ++t) units.row(t) /= static_cast<float>(pieces[static_cast<std::size_t>(t)]);
  return units;
}

math::Matrix words_only(const math::Matrix& unit_weights, EosRule eos) {
  math::Matrix words = unit_weights.leftCols(unit_weights.cols() - 1);
  if (eos == EosRule::kRenormalize) {
    for (Eigen::Index t = 0; t < words.rows(); ++t) {
      const float sum = words.row(t).sum();
      if (sum > 0.0f) words.row(t) /= sum;
    }
  }
  return words;
}

data::Alignment attention_links(const math::Matrix& weights, const std::vector<int>& source_words,
                                const std::vector<int>& target_words, const WordAlignmentRules& rules) {
  std::vector<int> source_pieces(source_words.size()), target_pieces(target_words.size());
  std::iota(source_pieces.begin(), source_pieces.end(), 0);
  std::iota(target_pieces.begin(), target_pieces.end(), 0);
  const bool merge_words = rules.merge_to == MergeTo::kWords;
  const auto& source_unit = merge_words ? source_words : source_pieces;
  const auto& target_unit = merge_words ? target_words : target_pieces;
  const math::Matrix units = unit_attention(weights, source_unit, target_unit, rules.step);
  const math::Matrix words = words_only(units, rules.eos);
  const Eigen::Index S = words.cols();
  // The word of each unit: itself for words, word_of_piece for pieces.
  auto word_of = [&](const std::vector<int>& words_of_pieces, Eigen::Index unit) {
    return merge_words ? static_cast<int>(unit) : words_of_pieces[static_cast<std::size_t>(unit)];
  };
  data::Alignment links;
  if (S == 0) return links;
  for (Eigen::Index t = 0; t < words.rows(); ++t) {
    const int target = word_of(target_words, t);
    Eigen::Index best = 0;
    const float strongest = words.row(t).maxCoeff(&best);
    if (rules.eos == EosRule::kNull && units(t, S) > strongest) continue;
    if (rules.hard) {
      links.push_back({word_of(source_words, best), target});
    } else {
      for (Eigen::Index s = 0; s < S; ++s) {
        if (words(t, s) >= rules.threshold) links.push_back({word_of(source_words, s), target});
      }
    }
  }
  data::sort_unique(links);
  return links;
}

}  // namespace rnnsearch::align
