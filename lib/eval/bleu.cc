#include "eval/bleu.h"

#include <algorithm>
#include <cmath>

#include "eval/ngram_keys.h"
#include "eval/reference_lines.h"
#include "text/unicode.h"
#include "text/whitespace.h"
#include "util/error.h"
#include "util/number_format.h"
#include "util/python_format.h"

namespace rnnsearch::eval {
namespace {

// sacreBLEU's my_log: log with log(0) floored to -9999999999.
double floored_log(double x) { return x == 0.0 ? -9999999999.0 : std::log(x); }

double default_smooth_value(BleuSmoothing method) {
  switch (method) {
    case BleuSmoothing::kFloor: return 0.1;
    case BleuSmoothing::kAddK: return 1.0;
    default: return 0.0;
  }
}

const char* smoothing_name(BleuSmoothing method) {
  switch (method) {
    case BleuSmoothing::kNone: return "none";
    case BleuSmoothing::kFloor: return "floor";
    case BleuSmoothing::kAddK: return "add-k";
    case BleuSmoothing::kExp: return "exp";
  }
  return "exp";
}

// sacreBLEU's _get_closest_ref_len: the closest length, the shorter one on ties.
long closest_reference_length(long hyp_len, const std::vector<long>& ref_lens) {
  long closest_diff = -1, closest_len = -1;
  for (long len : ref_lens) {
    const long diff = std::labs(hyp_len - len);
    if (closest_diff == -1 || diff < closest_diff) {
      closest_diff = diff;
      closest_len = len;
    } else if (diff == closest_diff && len < closest_len) {
      closest_len = len;
    }
  }
  return closest_len;
}

}  // namespace

BleuSmoothing parse_bleu_smoothing(const std::string& name) {
  if (name == "none") return BleuSmoothing::kNone;
  if (name == "floor") return BleuSmoothing::kFloor;
  if (name == "add-k") return BleuSmoothing::kAddK;
  if (name == "exp") return BleuSmoothing::kExp;
  throw util::UsageError("--smooth-method: unknown method '" + name + "' (choose from exp, floor, add-k, none)");
}

Bleu::Bleu(const ReferenceSet& references, BleuOptions options)
    : options_(std::move(options)), tokenizer_(make_sacre_tokenizer(options_.tokenize)) {
  if (options_.max_ngram_order < 1) {
    throw util::UsageError("BLEU n-gram order must be at least 1, got " +
                           std::to_string(options_.max_ngram_order));
  }
  const SegmentReferences collected = collect_segment_references(references);
  num_refs_ = collected.num_refs;
  references_.resize(collected.per_segment.size());
  for (std::size_t i = 0; i < collected.per_segment.size(); ++i) {
    for (const std::string* ref : collected.per_segment[i]) references_[i].push_back(preprocess(*ref));
  }
}

std::string Bleu::preprocess(const std::string& segment) const {
  if (options_.lowercase) {
    const std::string lowered = text::lowercase(segment);
    return tokenizer_->tokenize(text::rstrip(lowered));
  }
  return tokenizer_->tokenize(text::rstrip(segment));
}

void Bleu::compute_rows(const std::vector<std::string>& hypotheses, std::size_t begin, std::size_t end,
                        StatsMatrix& stats) const {
  const int order = options_.max_ngram_order;
  NgramCounter counter(order);
  std::vector<std::string_view> tokens;
  std::vector<std::string_view> hyp_tokens;
  std::string hyp_buffer, lowered;
  std::vector<long> ref_lens;
  for (std::size_t i = begin; i < end; ++i) {
    std::string_view hyp = hypotheses[i];
    if (options_.lowercase) {
      lowered = text::lowercase(hyp);
      hyp = lowered;
    }
    tokenizer_->tokenize_into(text::rstrip(hyp), hyp_tokens, hyp_buffer);
    counter.begin_segment();
    ref_lens.clear();
    for (const std::string& ref : references_[i]) {
      text::split_white_space(ref, tokens);
      ref_lens.push_back(static_cast<long>(tokens.size()));
      counter.add_reference(tokens);
    }
    const long hyp_len = static_cast<long>(hyp_tokens.size());
    double* row = stats.row(i);
    row[0] = static_cast<double>(hyp_len);
    row[1] = static_cast<double>(closest_reference_length(hyp_len, ref_lens));
    counter.match_hypothesis(hyp_tokens, row + 2, row + 2 + order);
  }
}

Score Bleu::score_from_stats(const double* stats) const {
  const int order = options_.max_ngram_order;
  const long sys_len = static_cast<long>(stats[0]);
  const long ref_len = static_cast<long>(stats[1]);
  std::vector<double> correct(stats + 2, stats + 2 + order);
  std::vector<double> total(stats + 2 + order, stats + 2 + 2 * order);
  const double smooth_value = options_.smooth_value.value_or(default_smooth_value(options_.smooth_method));

  double bp = 1.0;
  if (sys_len < ref_len) {
    bp = sys_len > 0 ? std::exp(1.0 - static_cast<double>(ref_len) / static_cast<double>(sys_len)) : 0.0;
  }

  std::vector<double> precisions(order, 0.0);
  double score = 0.0;
  const bool any_match = std::any_of(correct.begin(), correct.end(), [](double c) { return c != 0.0; });
  if (any_match) {
    double smooth_mteval = 1.0;
    int eff_order = order;
    for (int n = 1; n <= order; ++n) {
      if (options_.smooth_method == BleuSmoothing::kAddK && n > 1) {
        correct[n - 1] += smooth_value;
        total[n - 1] += smooth_value;
      }
      if (total[n - 1] == 0.0) break;
      if (options_.effective_order) eff_order = n;
      if (correct[n - 1] == 0.0) {
        if (options_.smooth_method == BleuSmoothing::kExp) {
          smooth_mteval *= 2.0;
          precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1]);
        } else if (options_.smooth_method == BleuSmoothing::kFloor) {
          precisions[n - 1] = 100.0 * smooth_value / total[n - 1];
        }
      } else {
        precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1];
      }
    }
    double log_sum = 0.0;
    for (int n = 0; n < eff_order; ++n) log_sum += floored_log(precisions[n]);
    score = bp * std::exp(log_sum / eff_order);
  }

  Score result;
  result.name = "BLEU";
  result.score = score;
  std::string prec;
  for (int n = 0; n < order; ++n) {
    if (n) prec += '/';
    prec += util::fixed(precisions[n], 1);
  }
  const double ratio = ref_len ? static_cast<double>(sys_len) / static_cast<double>(ref_len) : 0.0;
  result.verbose = prec + " (BP = " + util::fixed(bp, 3) + " ratio = " + util::fixed(ratio, 3) +
                   " hyp_len = " + std::to_string(sys_len) + " ref_len = " + std::to_string(ref_len) + ")";
  return result;
}

SignatureFields Bleu::signature_fields() const {
  std::string smooth = smoothing_name(options_.smooth_method);
  if (options_.smooth_method == BleuSmoothing::kFloor || options_.smooth_method == BleuSmoothing::kAddK) {
    smooth += "[" + util::fixed(options_.smooth_value.value_or(default_smooth_value(options_.smooth_method)), 2) + "]";
  }
  return {{"case", options_.lowercase ? "lc" : "mixed"},
          {"eff", options_.effective_order ? "yes" : "no"},
          {"tok", tokenizer_->name()},
          {"smooth", smooth}};
}

std::vector<std::pair<std::string, std::string>> Bleu::short_names() const {
  return {{"case", "c"}, {"eff", "e"}, {"tok", "tok"}, {"smooth", "s"}};
}

}  // namespace rnnsearch::eval
