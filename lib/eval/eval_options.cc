#include "eval/eval_options.h"

#include <algorithm>

#include "util/error.h"
#include "util/option_range.h"
#include "util/parallel.h"

namespace rnnsearch::eval {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw util::UsageError(message);
}

bool one_of(const std::string& value, std::initializer_list<const char*> choices) {
  return std::any_of(choices.begin(), choices.end(), [&](const char* c) { return value == c; });
}

// The bounds of the counts, checked before the rest (as nmt-bleu always has).
void check_ranges(const EvalOptions& options) {
  if (options.bleu_smooth_value) util::check_range("smooth-value", *options.bleu_smooth_value, 0.0, 1000.0);
  util::check_range("num-refs", options.num_refs, 1, 1000);
  util::check_range("chrf-beta", options.chrf_beta, 0, 100);
  util::check_range("confidence-n", options.confidence_n, 1, 1000000);
  util::check_range("paired-bs-n", options.paired_bs_n, 1, 1000000);
  util::check_range("paired-ar-n", options.paired_ar_n, 1, 1000000);
  util::check_range("paired-jobs", options.paired_jobs, 0, util::kMaxThreads);
}

}  // namespace

void EvalOptions::validate() const {
  check_ranges(*this);
  require(!references.empty(), "no reference files given (nmt-bleu REF... -i HYP)");
  require(num_refs == 1 || references.size() == 1,
          "--num-refs splits one tab-separated reference file; give only one reference file with it");
  require(!metrics.empty(), "--metrics needs at least one of bleu, chrf, ter");
  for (const auto& m : metrics) {
    require(one_of(m, {"bleu", "chrf", "ter"}), "--metrics: unknown metric '" + m + "' (choose from bleu, chrf, ter)");
  }
  require(one_of(bleu_tokenize, {"13a", "intl", "zh", "char", "none"}),
          "--tokenize: unknown tokenizer '" + bleu_tokenize + "' (choose from 13a, intl, zh, char, none)");
  require(chrf_char_order >= 0 && chrf_char_order <= 100,
          "--chrf-char-order must be in [0, 100], got " + std::to_string(chrf_char_order));
  require(chrf_word_order >= 0 && chrf_word_order <= 100,
          "--chrf-word-order must be in [0, 100], got " + std::to_string(chrf_word_order));
  require(chrf_char_order + chrf_word_order > 0, "chrF needs a character or word n-gram order above 0");
  require(!(paired_bs && paired_ar), "--paired-bs and --paired-ar exclude each other");
  require(width >= 0 && width <= 20, "--width must be in [0, 20], got " + std::to_string(width));
  require(threads >= 1, "--threads must be >= 1, got " + std::to_string(threads));
}

OutputFormat parse_output_format(const std::string& name) {
  if (name == "json") return OutputFormat::kJson;
  if (name == "text") return OutputFormat::kText;
  throw util::UsageError("--format must be json or text, got '" + name + "'");
}

}  // namespace rnnsearch::eval
