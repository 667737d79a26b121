#include "eval/metric_factory.h"

#include "eval/bleu.h"
#include "eval/chrf.h"
#include "eval/ter.h"
#include "util/error.h"

namespace rnnsearch::eval {

std::unique_ptr<Metric> make_metric(const std::string& name, const EvalOptions& config,
                                    const ReferenceSet& references, bool sentence_level) {
  if (name == "bleu") {
    BleuOptions options;
    options.tokenize = config.bleu_tokenize;
    options.lowercase = config.bleu_lowercase;
    options.smooth_method = config.bleu_smooth_method;
    options.smooth_value = config.bleu_smooth_value;
    options.effective_order = sentence_level;
    return std::make_unique<Bleu>(references, options);
  }
  if (name == "chrf") {
    ChrfOptions options;
    options.char_order = config.chrf_char_order;
    options.word_order = config.chrf_word_order;
    options.beta = config.chrf_beta;
    options.whitespace = config.chrf_whitespace;
    options.lowercase = config.chrf_lowercase;
    options.eps_smoothing = config.chrf_eps_smoothing;
    return std::make_unique<Chrf>(references, options);
  }
  if (name == "ter") {
    TerOptions options;
    options.case_sensitive = config.ter_case_sensitive;
    options.asian_support = config.ter_asian_support;
    options.no_punct = config.ter_no_punct;
    options.normalized = config.ter_normalized;
    return std::make_unique<Ter>(references, options);
  }
  throw util::UsageError("unknown metric '" + name + "' (choose from bleu, chrf, ter)");
}

}  // namespace rnnsearch::eval
