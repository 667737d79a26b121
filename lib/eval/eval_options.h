#pragma once
// Everything nmt-bleu can be asked to do, with sacreBLEU's defaults. The tool binds
// its options to these fields (the ones sacreBLEU takes as text through
// eval/sacrebleu_arguments.h); evaluate() (eval/evaluate.h) validates and carries it out.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eval/bleu.h"

namespace rnnsearch::eval {

// How the scores are printed (--format, SACREBLEU_FORMAT).
enum class OutputFormat { kJson, kText };
// "json" or "text"; throws util::UsageError "--format must be json or text, got 'NAME'".
OutputFormat parse_output_format(const std::string& name);

struct EvalOptions {
  // Input
  std::vector<std::string> references;  // reference files (several = several references)
  std::vector<std::string> inputs;      // system outputs; empty = stdin (tab-separated systems)
  int num_refs = 1;                     // >1: references are tab-separated in one file

  // What to compute
  std::vector<std::string> metrics = {"bleu"};  // bleu, chrf, ter
  bool sentence_level = false;

  // BLEU
  std::string bleu_tokenize = "13a";
  BleuSmoothing bleu_smooth_method = BleuSmoothing::kExp;  // parse_bleu_smoothing (--smooth-method)
  std::optional<double> bleu_smooth_value;
  bool bleu_lowercase = false;
  bool bleu_force = false;

  // chrF
  int chrf_char_order = 6;
  int chrf_word_order = 0;
  int chrf_beta = 2;
  bool chrf_whitespace = false;
  bool chrf_lowercase = false;
  bool chrf_eps_smoothing = false;

  // TER
  bool ter_case_sensitive = false;
  bool ter_asian_support = false;
  bool ter_no_punct = false;
  bool ter_normalized = false;

  // Statistics
  bool confidence = false;     // bootstrap CI of a single system
  int confidence_n = 1000;
  bool paired_bs = false;      // paired bootstrap resampling against the first system
  int paired_bs_n = 1000;
  bool paired_ar = false;      // paired approximate randomization
  int paired_ar_n = 10000;
  std::optional<std::uint64_t> seed = 12345;  // nullopt = from the OS (SACREBLEU_SEED=none)

  // Report
  bool short_signature = false;
  bool score_only = false;
  int width = 1;
  OutputFormat format = OutputFormat::kJson;

  int threads = 1;
  int paired_jobs = 0;  // worker threads when above 0, instead of `threads` (--paired-jobs)

  // The thread count evaluate() works with.
  int worker_threads() const { return paired_jobs > 0 ? paired_jobs : threads; }

  // Throws util::UsageError naming the option, its range and the value received; the
  // upper bounds keep a mistyped count from running for days or allocating gigabytes.
  void validate() const;
};

}  // namespace rnnsearch::eval
