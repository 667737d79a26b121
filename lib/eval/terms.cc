#include "eval/terms.h"

#include <cstdlib>

#include "eval/evaluate.h"
#include "eval/score_format.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/number_format.h"
#include "util/option_range.h"
#include "util/parallel.h"
#include "util/python_format.h"
#include "util/split_fields.h"

namespace rnnsearch::eval {
namespace {

std::string percent(std::size_t part, std::size_t whole, int width) {
  return util::fixed(100.0 * static_cast<double>(part) / static_cast<double>(whole), width);
}

// A rate as a JSON number with `width` decimals (as nmt-bleu writes a score), or null.
std::string json_rate(std::size_t part, std::size_t whole, int width) {
  if (whole == 0) return "null";
  return util::python_float_repr(std::strtod(percent(part, whole, width).c_str(), nullptr));
}

std::string count_text(std::size_t n) { return std::to_string(n); }

}  // namespace

void TermsOptions::validate() const {
  if (references.empty()) throw util::UsageError("-r REFERENCE is required");
  if (hypothesis.empty()) throw util::UsageError("-i TRANSLATIONS is required");
  if (hypothesis == "-") throw util::UsageError("-i needs a file, not standard input (it is read twice)");
  if (terms.empty()) throw util::UsageError("-t TERMS is required");
  util::check_range("width", width, 0, 20);
  util::check_range("threads", threads, 1, util::kMaxThreads);
}

TermCounts count_terms(const std::string& hypothesis, const std::string& terms, bool lowercase) {
  const TermMatcher matcher(lowercase);
  util::LineReader hypotheses(hypothesis), expected(terms);
  TermCounts counts;
  std::string translation, line;
  while (util::next_in_step(hypotheses, translation, expected, line)) {
    counts += matcher.count(translation, util::split_fields(line, '\t'));
  }
  return counts;
}

std::string format_term_counts(const TermCounts& counts, int width) {
  if (counts.terms == 0) {
    return "term usage: n/a (no terms in " + count_text(counts.lines) + " lines)\nexact match: n/a (no terms)\n";
  }
  const std::string of = " of " + count_text(counts.terms) + " terms";
  return "term usage: " + percent(counts.used, counts.terms, width) + "% (" + count_text(counts.used) + of + " in " +
         count_text(counts.lines_with_terms) + " lines)\n" + "exact match: " +
         percent(counts.exact_matches, counts.terms, width) + "% (" + count_text(counts.exact_matches) + of + ")\n";
}

std::string format_term_counts_json(const TermCounts& counts, int width, bool lowercase,
                                    const std::string& scores_json) {
  std::string out = "{\n";
  out += " \"term_usage\": " + json_rate(counts.used, counts.terms, width) + ",\n";
  out += " \"exact_match\": " + json_rate(counts.exact_matches, counts.terms, width) + ",\n";
  out += " \"terms\": " + count_text(counts.terms) + ",\n";
  out += " \"terms_used\": " + count_text(counts.used) + ",\n";
  out += " \"terms_matched\": " + count_text(counts.exact_matches) + ",\n";
  out += " \"lines\": " + count_text(counts.lines) + ",\n";
  out += " \"lines_with_terms\": " + count_text(counts.lines_with_terms) + ",\n";
  out += " \"case\": " + json_quote(lowercase ? "lc" : "mixed") + ",\n";
  std::string scores = scores_json;
  while (!scores.empty() && scores.back() == '\n') scores.pop_back();
  return out + " \"scores\": " + scores + "\n}\n";
}

void score_terms(const TermsOptions& options, const std::function<void(const std::string&)>& warning) {
  options.validate();
  const TermCounts counts = count_terms(options.hypothesis, options.terms, options.lowercase);
  EvalOptions eval;
  eval.references = options.references;
  eval.inputs = {options.hypothesis};
  eval.metrics = {"bleu", "chrf"};
  eval.format = options.format;
  eval.width = options.width;
  eval.bleu_force = options.force;
  eval.threads = options.threads;
  std::string scores;
  std::vector<std::string> warnings;
  evaluate(eval, {[&scores](const std::string& text) { scores += text; },
                  [&warnings](const std::string& line) { warnings.push_back(line); }});
  for (const auto& w : warnings) warning(w);
  util::AtomicFileWriter writer(options.output);
  writer.write(options.format == OutputFormat::kJson
                   ? format_term_counts_json(counts, options.width, options.lowercase, scores)
                   : format_term_counts(counts, options.width) + scores);
  writer.commit();
}

}  // namespace rnnsearch::eval
