// nmt-align: word alignments from an RNNsearch model's attention, symmetrization of two
// directions (as fast_align's atools), and precision / recall / AER against gold links.
//   nmt-align -m MODEL -s train.bpe.de -t train.bpe.en > de-en.align
//   nmt-align symmetrize -i de-en.align -j en-de.align -c grow-diag-final-and > gdfa.align
//   nmt-align eval -g gold.align -a gdfa.align
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <vector>

#include "align/aer.h"
#include "align/extract.h"
#include "align/gold_file.h"
#include "align/heatmap.h"
#include "align/ibm2.h"
#include "align/soft_combine.h"
#include "align/symmetrize.h"
#include "align/word_attention.h"
#include "math/gemm_kernels.h"
#include "model/model_file.h"
#include "util/atomic_file.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/option_range.h"
#include "util/progress_meter.h"

namespace po = boost::program_options;
using rnnsearch::util::UsageError;

namespace {

const char* const kUsage =
    "Usage: nmt-align -m MODEL -s SOURCE -t TARGET [--mode hard|threshold|soft] [-o FILE]\n"
    "       nmt-align symmetrize -i FORWARD -j REVERSE [-c HEURISTIC] [-o FILE]\n"
    "       nmt-align combine -i FORWARD.soft -j REVERSE.soft [--threshold 0.5] [-o FILE]\n"
    "       nmt-align ibm2 -s SOURCE -t TARGET [--reverse] [-o FILE]   (fast_align -d -o -v)\n"
    "       nmt-align eval -g GOLD -a ALIGNMENT\n"
    "       nmt-align heatmap -m MODEL -s SOURCE -t TARGET [--lines 1,5] [--merge words] [-o attention.svg]\n"
    "Alignments are Pharaoh 'i-j' pairs, source index first, 0-based, one line per sentence pair.\n";

const rnnsearch::util::ToolInfo kTool{"nmt-align", kUsage, ""};

void write_lines(const std::string& path, const std::vector<std::string>& lines) {
  rnnsearch::util::AtomicFileWriter writer(path);
  for (const auto& line : lines) writer.write_line(line);
  writer.commit();
}

// Both files, checked to have the same number of lines.
std::pair<std::vector<std::string>, std::vector<std::string>> read_pair(const std::string& a, const std::string& b) {
  auto first = rnnsearch::util::read_lines(a);
  auto second = rnnsearch::util::read_lines(b);
  if (first.size() != second.size()) rnnsearch::util::throw_line_count_mismatch(a, first.size(), b, second.size());
  return {std::move(first), std::move(second)};
}

constexpr const char* kAttentionSourceHelp =
    "the weights to read: decoder (the attention of translation), head (the alignment head of nmt-train "
    "--alignment-head) or auto (head when the model has one)";

int extract(const std::vector<std::string>& args) {
  rnnsearch::align::ExtractOptions cfg;
  rnnsearch::util::CommonOptions common;
  std::string model_path, source, target, output = "-", mode = "hard", step = "emit", merge = "pieces", eos = "ignore";
  std::string weights = "auto";
  bool invert = false;
  po::options_description options("nmt-align");
  options.add_options()
      ("model,m", po::value(&model_path), "model file written by nmt-train (required)")
      ("source,s", po::value(&source), "source sentences, BPE'd as in training (required)")
      ("target,t", po::value(&target), "target sentences, line-aligned with the source (required)")
      ("output,o", po::value(&output)->default_value(output), "alignments (- = stdout; a file is written atomically)")
      ("mode", po::value(&mode)->default_value(mode), "hard, threshold or soft")
      ("attention-source", po::value(&weights)->default_value(weights), kAttentionSourceHelp)
      ("threshold", po::value(&cfg.rules.threshold)->default_value(cfg.rules.threshold, rnnsearch::util::shortest_number(cfg.rules.threshold)),
       "attention weight a link needs in --mode threshold")
      ("step", po::value(&step)->default_value(step),
       "the attention standing for target word i: emit (the step predicting it) or next (the step reading it)")
      ("merge", po::value(&merge)->default_value(merge),
       "pieces (link BPE pieces, then their words) or words (merge the weights to words first)")
      ("eos", po::value(&eos)->default_value(eos),
       "the source </s> column: ignore, renormalize (the words' weights to sum 1) or null (a word attending "
       "most to </s> stays unaligned)")
      ("mini-batch", po::value(&cfg.batch_size)->default_value(cfg.batch_size), "sentence pairs force-decoded together")
      ("invert", po::bool_switch(&invert),
       "write links target index first (a reverse model's links in the forward direction's order)");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  if (invert && mode == "soft") throw UsageError("--invert applies to links, not to --mode soft");
  if (model_path.empty() || source.empty() || target.empty()) throw UsageError("-m MODEL, -s SOURCE and -t TARGET are required");
  if (mode != "hard" && mode != "threshold" && mode != "soft") {
    throw UsageError("--mode must be hard, threshold or soft, got '" + mode + "'");
  }
  cfg.soft = mode == "soft";
  cfg.rules.hard = mode == "hard";
  cfg.rules.step = rnnsearch::align::parse_attention_step(step);
  cfg.rules.merge_words = rnnsearch::align::parse_merge_words(merge);
  cfg.rules.eos = rnnsearch::align::parse_eos_rule(eos);
  cfg.threads = common.resolved_threads();
  cfg.validate();
  auto model = rnnsearch::model::read_model_file(model_path);
  cfg.weights = rnnsearch::model::choose_attention_source(weights, *model.model, model_path, "alignments");
  rnnsearch::model::Replicas replicas(*model.model, cfg.threads);
  // A window of whole mini-batches at a time: memory stays flat however long the corpus is,
  // and the batches are those of one pass over everything.
  const std::size_t window = static_cast<std::size_t>(cfg.batch_size) * 128;
  rnnsearch::util::LineReader source_reader(source), target_reader(target);
  rnnsearch::util::AtomicFileWriter writer(output);
  rnnsearch::util::ProgressMeter progress("nmt-align", "pairs",
                                         !common.quiet && !rnnsearch::util::is_terminal(output, STDOUT_FILENO));
  std::vector<std::string> sources, targets;
  std::string s, t;
  for (std::size_t first_line = 1;; first_line += sources.size()) {
    sources.clear();
    targets.clear();
    while (sources.size() < window && rnnsearch::util::next_in_step(source_reader, s, target_reader, t)) {
      sources.push_back(s);
      targets.push_back(t);
    }
    if (sources.empty()) break;
    rnnsearch::align::check_line_lengths(sources, source, first_line);
    rnnsearch::align::check_line_lengths(targets, target, first_line);
    for (const auto& line : rnnsearch::align::extract_alignments(replicas, model.source_vocabulary,
                                                                model.target_vocabulary, sources, targets, cfg)) {
      writer.write_line(invert ? rnnsearch::data::format_pharaoh(rnnsearch::data::inverted(
                                     rnnsearch::data::parse_pharaoh(line, output, 0)))
                               : line);
    }
    progress.set_done(first_line - 1 + sources.size());
  }
  progress.finish();
  writer.commit();
  return rnnsearch::util::kExitOk;
}

int symmetrize(const std::vector<std::string>& args) {
  rnnsearch::util::CommonOptions common;
  std::string forward, reverse, heuristic = "grow-diag-final-and", output = "-";
  po::options_description options("nmt-align symmetrize");
  options.add_options()
      ("input,i", po::value(&forward), "forward alignments (source-to-target model), source index first (required)")
      ("reverse,j", po::value(&reverse), "reverse alignments, also source index first (required)")
      ("command,c", po::value(&heuristic)->default_value(heuristic),
       "intersect, union, grow-diag, grow-diag-final, grow-diag-final-and, grow-diag-and")
      ("output,o", po::value(&output)->default_value(output), "symmetrized alignments (- = stdout)");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  if (forward.empty() || reverse.empty()) throw UsageError("-i FORWARD and -j REVERSE are required");
  const auto method = rnnsearch::align::parse_symmetrization(heuristic);
  // Line by line in step: memory stays flat however long the files are.
  rnnsearch::util::LineReader forward_reader(forward), reverse_reader(reverse);
  rnnsearch::util::AtomicFileWriter writer(output);
  std::string a, b;
  for (std::size_t line = 1; rnnsearch::util::next_in_step(forward_reader, a, reverse_reader, b); ++line) {
    writer.write_line(rnnsearch::data::format_pharaoh(rnnsearch::align::symmetrize(
        rnnsearch::data::parse_pharaoh(a, forward, line), rnnsearch::data::parse_pharaoh(b, reverse, line), method)));
  }
  writer.commit();
  return rnnsearch::util::kExitOk;
}

int combine(const std::vector<std::string>& args) {
  rnnsearch::util::CommonOptions common;
  std::string forward, reverse, output = "-";
  float threshold = 0.5f;
  po::options_description options("nmt-align combine");
  options.add_options()
      ("input,i", po::value(&forward), "forward soft alignments (--mode soft of the source-to-target model) (required)")
      ("reverse,j", po::value(&reverse), "reverse soft alignments (--mode soft of the target-to-source model) (required)")
      ("threshold", po::value(&threshold)->default_value(threshold, rnnsearch::util::shortest_number(threshold)),
       "link a word pair when the mean of its two weights reaches this")
      ("output,o", po::value(&output)->default_value(output), "links, source index first (- = stdout)");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  if (forward.empty() || reverse.empty()) throw UsageError("-i FORWARD and -j REVERSE are required");
  rnnsearch::util::check_range("threshold", threshold, 0.0f, 1.0f);
  const auto [a, b] = read_pair(forward, reverse);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < a.size(); ++i) {
    out.push_back(rnnsearch::data::format_pharaoh(rnnsearch::align::combine_soft(
        rnnsearch::align::parse_soft_rows(a[i], forward, i + 1), rnnsearch::align::parse_soft_rows(b[i], reverse, i + 1),
        threshold, reverse, i + 1)));
  }
  write_lines(output, out);
  return rnnsearch::util::kExitOk;
}

// A line without words is an error naming file and line.
void require_words(const std::string& text, const std::string& path, std::size_t line) {
  if (text.find_first_not_of(" \t\n\v\f\r") == std::string::npos) {
    throw rnnsearch::util::Error(path, line, "is empty: every pair needs words on both sides to be aligned");
  }
}

int ibm2(const std::vector<std::string>& args) {
  rnnsearch::util::CommonOptions common;
  rnnsearch::align::Ibm2Options cfg;
  std::string source, target, output = "-";
  bool reverse = false, fixed_tension = false;
  std::size_t cache_mb = cfg.index_cache_bytes >> 20;
  po::options_description options("nmt-align ibm2");
  options.add_options()
      ("source,s", po::value(&source), "source sentences, tokenized (required)")
      ("target,t", po::value(&target), "target sentences, line-aligned with the source (required)")
      ("output,o", po::value(&output)->default_value(output), "links, source index first (- = stdout)")
      ("reverse,r", po::bool_switch(&reverse), "generate the source from the target (fast_align -r); links still source first")
      ("iterations,I", po::value(&cfg.iterations)->default_value(cfg.iterations), "EM iterations, the last one only reads off the links")
      ("p-null,p", po::value(&cfg.p_null)->default_value(cfg.p_null, "0.08"), "probability of aligning a word to NULL")
      ("tension,T", po::value(&cfg.tension)->default_value(cfg.tension, "4"), "starting diagonal tension")
      ("fixed-tension", po::bool_switch(&fixed_tension), "keep the tension instead of refitting it (fast_align without -o)")
      ("alpha,a", po::value(&cfg.alpha)->default_value(cfg.alpha, "0.01"),
       "Dirichlet prior on t(f|e), variational Bayes (0 = maximum likelihood, fast_align without -v)")
      ("cache-mb", po::value(&cache_mb)->default_value(cache_mb),
       "memory (MiB) for the table positions of the first pairs, found once instead of every iteration");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  if (source.empty() || target.empty()) throw UsageError("-s SOURCE and -t TARGET are required");
  rnnsearch::util::check_range<std::size_t>("cache-mb", cache_mb, 0, std::size_t{1} << 30);
  cfg.index_cache_bytes = cache_mb << 20;
  cfg.threads = common.resolved_threads();
  cfg.validate();
  cfg.optimize_tension = !fixed_tension;
  // EM reads the corpus once per iteration, so it is held, as word ids (align/ibm2.h);
  // the lines are read in step and dropped, and the links written as they are found.
  rnnsearch::align::Ibm2CorpusBuilder builder;
  const bool show_progress = !common.quiet && !rnnsearch::util::is_terminal(output, STDOUT_FILENO);
  {
    rnnsearch::util::ProgressMeter reading("nmt-align ibm2", "pairs read", show_progress);
    rnnsearch::util::LineReader source_reader(source), target_reader(target);
    std::string s, t;
    for (std::size_t line = 1; rnnsearch::util::next_in_step(source_reader, s, target_reader, t); ++line) {
      rnnsearch::align::check_line_lengths({s}, source, line, rnnsearch::align::kMaxIbm2Words);
      rnnsearch::align::check_line_lengths({t}, target, line, rnnsearch::align::kMaxIbm2Words);
      require_words(s, source, line);
      require_words(t, target, line);
      if (reverse) {
        builder.add(t, s);
      } else {
        builder.add(s, t);
      }
      reading.advance();
    }
  }
  rnnsearch::util::AtomicFileWriter writer(output);
  // The links come in the last EM iteration: the line counts them.
  rnnsearch::util::ProgressMeter aligning("nmt-align ibm2", "pairs aligned", show_progress);
  const auto result = rnnsearch::align::ibm2_align(
      builder.take(), cfg, [&](std::size_t, const rnnsearch::data::Alignment& links) {
        writer.write_line(rnnsearch::data::format_pharaoh(reverse ? rnnsearch::data::inverted(links) : links));
        aligning.advance();
      });
  aligning.finish();
  if (!common.quiet) {
    for (std::size_t k = 0; k < result.iterations.size(); ++k) {
      std::fprintf(stderr, "nmt-align ibm2: iteration %zu: log-likelihood %.6g, tension %.6g\n", k + 1,
                   result.iterations[k].log_likelihood, result.iterations[k].tension);
    }
  }
  writer.commit();
  return rnnsearch::util::kExitOk;
}

void print_scores(const rnnsearch::align::AlignmentScores& scores) {
  std::printf("precision %.4f\nrecall %.4f\nAER %.4f\nlinks %zu, sure %zu, matching sure %zu, matching possible %zu\n",
              scores.precision(), scores.recall(), scores.aer(), scores.hypothesis_links, scores.sure_links,
              scores.sure_matches, scores.possible_matches);
}

int eval(const std::vector<std::string>& args) {
  rnnsearch::util::CommonOptions common;
  std::string gold, hypothesis;
  po::options_description options("nmt-align eval");
  options.add_options()
      ("gold,g", po::value(&gold),
       "gold alignments (required): Pharaoh lines with i-j sure and i?j possible links, or the shared-task "
       "format 'SENT SRC_POS TGT_POS [S|P]', 1-based")
      ("alignment,a", po::value(&hypothesis), "alignments to score, line-aligned with the gold file (required)");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  if (gold.empty() || hypothesis.empty()) throw UsageError("-g GOLD and -a ALIGNMENT are required");
  // The gold's format is told by its first non-blank line. Pharaoh gold is read line by
  // line in step with the alignments; the shared-task format numbers its sentences, so
  // it is read whole (gold sets are small).
  rnnsearch::util::LineReader gold_reader(gold);
  std::vector<std::string> gold_head;  // up to the first non-blank line
  bool shared_task = false;
  for (std::string line; gold_reader.next(line);) {
    gold_head.push_back(line);
    if (const auto is_shared_task = rnnsearch::align::is_shared_task_line(line)) {
      shared_task = *is_shared_task;
      break;
    }
  }
  rnnsearch::align::AlignmentScores scores;
  if (!shared_task) {
    rnnsearch::util::LineReader hypothesis_reader(hypothesis);
    std::string g, h;
    std::size_t head = 0;
    for (std::size_t line = 1;; ++line) {
      const bool more_g = head < gold_head.size() ? (g = gold_head[head++], true) : gold_reader.next(g);
      const bool more_h = hypothesis_reader.next(h);
      if (more_g != more_h) rnnsearch::util::throw_unaligned(gold_reader, hypothesis_reader);
      if (!more_g) break;
      const auto gold_links = rnnsearch::data::parse_gold(g, gold, line);
      scores.add(rnnsearch::data::parse_pharaoh(h, hypothesis, line), gold_links);
    }
    print_scores(scores);
    return rnnsearch::util::kExitOk;
  }
  for (std::string line; gold_reader.next(line);) gold_head.push_back(line);
  auto gold_file = rnnsearch::align::parse_gold_file(gold_head, gold);
  const auto h = rnnsearch::util::read_lines(hypothesis);
  auto& g = gold_file.sentences;
  if (gold_file.null_links > 0 && !common.quiet) {
    std::cerr << "nmt-align: note: " << gold << ": " << gold_file.null_links
              << (gold_file.null_links == 1 ? " link" : " links") << " to position 0 (NULL) left out, as in the no-null evaluation\n";
  }
  if (gold_file.shared_task_format && h.size() > g.size()) {
    // Sentences after the last numbered one have no gold links, or the files do not match.
    if (!common.quiet) {
      std::cerr << "nmt-align: warning: " << gold << " numbers " << g.size() << " sentences, " << hypothesis
                << " has " << h.size() << " lines: the last " << h.size() - g.size() << " have no gold links\n";
    }
    g.resize(h.size());
  } else if (g.size() != h.size()) {
    rnnsearch::util::throw_line_count_mismatch(gold, g.size(), hypothesis, h.size(),
                                               gold_file.shared_task_format ? "sentence" : "line");
  }
  for (std::size_t i = 0; i < g.size(); ++i) scores.add(rnnsearch::data::parse_pharaoh(h[i], hypothesis, i + 1), g[i]);
  print_scores(scores);
  return rnnsearch::util::kExitOk;
}

// "3,7,12" -> {3, 7, 12} (1-based line numbers).
std::vector<std::size_t> parse_lines(const std::string& text) {
  std::vector<std::size_t> lines;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    // At most 9 digits: a line number past 999,999,999 cannot name a line nmt-align reads.
    if (item.empty() || item.size() > 9 || item.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(item) == 0) {
      throw UsageError("--lines takes 1-based line numbers in [1, 999999999] separated by commas, got '" + text + "'");
    }
    lines.push_back(std::stoul(item));
    pos = comma + 1;
  }
  return lines;
}

int heatmap(const std::vector<std::string>& args) {
  rnnsearch::util::CommonOptions common;
  std::string model_path, source, target, output = "attention.svg", lines = "1", weights = "auto", merge = "pieces";
  po::options_description options("nmt-align heatmap");
  options.add_options()
      ("model,m", po::value(&model_path), "model file written by nmt-train (required)")
      ("source,s", po::value(&source), "source sentences, BPE'd as in training (required)")
      ("target,t", po::value(&target), "target sentences, line-aligned with the source (required)")
      ("lines,l", po::value(&lines)->default_value(lines), "the pairs to draw: 1-based line numbers, comma-separated")
      ("attention-source", po::value(&weights)->default_value(weights), kAttentionSourceHelp)
      ("merge", po::value(&merge)->default_value(merge),
       "pieces (a cell per BPE piece pair) or words (a source word's pieces summed, a target word's averaged, "
       "labels without \"@@\")")
      ("output,o", po::value(&output)->default_value(output), "the SVG file (- = stdout), written atomically");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  if (model_path.empty() || source.empty() || target.empty()) throw UsageError("-m MODEL, -s SOURCE and -t TARGET are required");
  const auto wanted = parse_lines(lines);
  const bool merge_words = rnnsearch::align::parse_merge_words(merge);
  const auto [sources, targets] = read_pair(source, target);
  std::vector<std::string> chosen_sources, chosen_targets;
  for (const std::size_t line : wanted) {
    if (line > sources.size()) {
      throw rnnsearch::util::Error(source, "has " + std::to_string(sources.size()) + " lines; --lines asks for line " +
                                               std::to_string(line));
    }
    chosen_sources.push_back(sources[line - 1]);
    chosen_targets.push_back(targets[line - 1]);
    rnnsearch::align::check_line_lengths({sources[line - 1]}, source, line);
    rnnsearch::align::check_line_lengths({targets[line - 1]}, target, line);
  }
  auto model = rnnsearch::model::read_model_file(model_path);
  const auto source_of_weights = rnnsearch::model::choose_attention_source(weights, *model.model, model_path, "a heatmap");
  const auto pairs = rnnsearch::align::attention_heatmaps(*model.model, model.source_vocabulary, model.target_vocabulary,
                                                          chosen_sources, chosen_targets, wanted, source_of_weights,
                                                          merge_words);
  rnnsearch::util::AtomicFileWriter writer(output);
  writer.write(rnnsearch::align::attention_svg(pairs));
  writer.commit();
  if (!common.quiet && output != "-") std::cerr << "nmt-align: attention of " << pairs.size() << " pair(s) in " << output << "\n";
  return rnnsearch::util::kExitOk;
}

int run(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "symmetrize") return symmetrize(std::vector<std::string>(argv + 2, argv + argc));
  if (command == "ibm2") return ibm2(std::vector<std::string>(argv + 2, argv + argc));
  if (command == "combine") return combine(std::vector<std::string>(argv + 2, argv + argc));
  if (command == "eval") return eval(std::vector<std::string>(argv + 2, argv + argc));
  if (command == "heatmap") return heatmap(std::vector<std::string>(argv + 2, argv + argc));
  return extract(std::vector<std::string>(argv + 1, argv + argc));
}

}  // namespace

int main(int argc, char** argv) {
  rnnsearch::math::select_gemm_kernels(argv);
  return rnnsearch::util::run_tool("nmt-align", [&] { return run(argc, argv); });
}
