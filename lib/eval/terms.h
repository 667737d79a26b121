#pragma once
// nmt-terms' whole job as one library call: how many of the expected target terms a
// system's translations use (eval/term_usage.h: the term usage rate and the WMT21
// exact-match accuracy), beside BLEU and chrF of the same translations computed and
// printed exactly as `nmt-bleu REF -i HYP -m bleu chrf -f text` does (sacreBLEU's defaults).
#include <functional>
#include <string>
#include <vector>

#include "eval/eval_options.h"
#include "eval/term_usage.h"

namespace rnnsearch::eval {

struct TermsOptions {
  std::vector<std::string> references;  // -r: reference file(s), for BLEU and chrF
  std::string hypothesis;               // -i: the translations, a file (it is read twice)
  // -t: a line per translation, its expected target terms separated by tabs; an empty
  // line (or field) expects none. "-" = stdin.
  std::string terms;
  bool lowercase = false;                      // match terms case-insensitively (not BLEU)
  OutputFormat format = OutputFormat::kText;   // -f
  int width = 1;                               // decimals of the percentages and scores
  bool force = false;                          // no warning about tokenized-looking input
  std::string output = "-";                    // -o: "-" = stdout; a file is written atomically
  int threads = 1;                             // for BLEU and chrF

  // Throws util::UsageError naming the missing option or the value out of range.
  void validate() const;
};

// The counts of the whole files: the translations and the terms read in step; util::Error
// naming the file and line for invalid UTF-8, and naming both files and their line counts
// when one ends before the other.
TermCounts count_terms(const std::string& hypothesis, const std::string& terms, bool lowercase);

// "term usage: 95.2% (123 of 129 terms in 100 lines)" and "exact match: ..." lines, where
// "lines" counts the lines that expect a term; "n/a" when none does.
std::string format_term_counts(const TermCounts& counts, int width);
// One JSON object with the counts, the two rates (null without terms), the case mode and,
// under "scores", nmt-bleu's JSON list of BLEU and chrF (`scores_json`) as it prints it.
std::string format_term_counts_json(const TermCounts& counts, int width, bool lowercase,
                                    const std::string& scores_json);

// Validates `options`, counts the terms, scores BLEU and chrF and writes the report to
// options.output; nmt-bleu's warnings (a tokenized-looking hypothesis) go to `warning`,
// a line each. Nothing is written when an input is bad.
void score_terms(const TermsOptions& options, const std::function<void(const std::string&)>& warning);

}  // namespace rnnsearch::eval
