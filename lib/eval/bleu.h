#pragma once
// Corpus BLEU (Papineni et al. 2002) exactly as sacreBLEU 2.x computes it:
//   BLEU = BP * exp( (1/N) * sum_n log p_n ),  BP = exp(1 - r/c) when c < r, else 1,
// p_n the clipped n-gram precision (counts clipped by the maximum count over the
// references), r the sum of the closest reference lengths, c the hypothesis length.
// Smoothing (Chen & Cherry 2014): exp (default, mteval's), floor, add-k, none.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "eval/metric.h"
#include "eval/sacre_tokenizers.h"

namespace rnnsearch::eval {

enum class BleuSmoothing { kNone, kFloor, kAddK, kExp };

struct BleuOptions {
  std::string tokenize = "13a";  // 13a, intl, zh, char, none
  bool lowercase = false;
  BleuSmoothing smooth_method = BleuSmoothing::kExp;
  std::optional<double> smooth_value;  // default: floor 0.1, add-k 1
  int max_ngram_order = 4;
  bool effective_order = false;  // drop orders with no hypothesis n-grams (sentence BLEU)
};

// Parses sacreBLEU's smoothing names "none", "floor", "add-k", "exp".
BleuSmoothing parse_bleu_smoothing(const std::string& name);

class Bleu : public Metric {
 public:
  Bleu(const ReferenceSet& references, BleuOptions options);

  // Row: [hyp_len, ref_len, correct_1..N, total_1..N].
  std::size_t width() const override { return 2 + 2 * static_cast<std::size_t>(options_.max_ngram_order); }
  std::size_t num_segments() const override { return references_.size(); }
  Score score_from_stats(const double* stats) const override;
  SignatureFields signature_fields() const override;
  std::vector<std::pair<std::string, std::string>> short_names() const override;
  int num_refs() const override { return num_refs_; }

 protected:
  void compute_rows(const std::vector<std::string>& hypotheses, std::size_t begin, std::size_t end,
                    StatsMatrix& stats) const override;

 private:
  std::string preprocess(const std::string& segment) const;

  BleuOptions options_;
  std::unique_ptr<SacreTokenizer> tokenizer_;
  // Tokenized references of each segment, empty ones included: an empty reference has
  // length 0 (a candidate closest length) and no n-grams.
  std::vector<std::vector<std::string>> references_;
  int num_refs_ = 0;
};

}  // namespace rnnsearch::eval
