// nmt-align: word alignments from an RNNsearch model's attention, symmetrization of two
// directions (as fast_align's atools), and precision / recall / AER against gold links.
//   nmt-align -m MODEL -s train.bpe.de -t train.bpe.en > de-en.align
//   nmt-align symmetrize -i de-en.align -j en-de.align -c grow-diag-final-and > gdfa.align
//   nmt-align eval -g gold.align -a gdfa.align
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <vector>

#include "align/aer.h"
#include "align/extract.h"
#include "align/heatmap.h"
#include "align/symmetrize.h"
#include "math/gemm_kernels.h"
#include "model/model_file.h"
#include "util/atomic_file.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/line_reader.h"

namespace po = boost::program_options;
using rnnsearch::util::UsageError;

namespace {

const char* const kUsage =
    "Usage: nmt-align -m MODEL -s SOURCE -t TARGET [--mode hard|threshold|soft] [-o FILE]\n"
    "       nmt-align symmetrize -i FORWARD -j REVERSE [-c HEURISTIC] [-o FILE]\n"
    "       nmt-align eval -g GOLD -a ALIGNMENT\n"
    "       nmt-align heatmap -m MODEL -s SOURCE -t TARGET [--lines 1,5] [-o attention.svg]\n"
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
  if (first.size() != second.size()) {
    const bool shorter_first = first.size() < second.size();
    const std::size_t fewer = std::min(first.size(), second.size());
    throw rnnsearch::util::Error(shorter_first ? a : b,
                                 "has " + std::to_string(fewer) + (fewer == 1 ? " line, but " : " lines, but ") +
                                     (shorter_first ? b : a) + " has " +
                                     std::to_string(std::max(first.size(), second.size())) +
                                     "; the files must be line-aligned");
  }
  return {std::move(first), std::move(second)};
}

int extract(const std::vector<std::string>& args) {
  rnnsearch::align::ExtractOptions cfg;
  rnnsearch::util::CommonOptions common;
  std::string model_path, source, target, output = "-";
  bool invert = false;
  po::options_description options("nmt-align");
  options.add_options()
      ("model,m", po::value(&model_path), "model file written by nmt-train (required)")
      ("source,s", po::value(&source), "source sentences, BPE'd as in training (required)")
      ("target,t", po::value(&target), "target sentences, line-aligned with the source (required)")
      ("output,o", po::value(&output)->default_value(output), "alignments (- = stdout; a file is written atomically)")
      ("mode", po::value(&cfg.mode)->default_value(cfg.mode), "hard, threshold or soft")
      ("threshold", po::value(&cfg.threshold)->default_value(cfg.threshold, rnnsearch::util::shortest_number(cfg.threshold)), "attention weight a link needs in --mode threshold")
      ("mini-batch", po::value(&cfg.batch_size)->default_value(cfg.batch_size), "sentence pairs force-decoded together")
      ("invert", po::bool_switch(&invert),
       "write links target index first (a reverse model's links in the forward direction's order)");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  if (invert && cfg.mode == "soft") throw UsageError("--invert applies to links, not to --mode soft");
  if (model_path.empty() || source.empty() || target.empty()) throw UsageError("-m MODEL, -s SOURCE and -t TARGET are required");
  if (cfg.mode != "hard" && cfg.mode != "threshold" && cfg.mode != "soft") {
    throw UsageError("--mode must be hard, threshold or soft, got '" + cfg.mode + "'");
  }
  if (cfg.batch_size < 1) throw UsageError("--mini-batch must be at least 1, got " + std::to_string(cfg.batch_size));
  const auto [sources, targets] = read_pair(source, target);
  auto model = rnnsearch::model::read_model_file(model_path);
  rnnsearch::model::require_attention(*model.model, model_path, "alignments");
  auto lines = rnnsearch::align::extract_alignments(*model.model, model.source_vocabulary, model.target_vocabulary,
                                                    sources, targets, cfg);
  if (invert) {
    for (auto& line : lines) {
      auto links = rnnsearch::align::parse_pharaoh(line, output, 0);
      for (auto& link : links) std::swap(link.source, link.target);
      std::sort(links.begin(), links.end());
      line = rnnsearch::align::format_pharaoh(links);
    }
  }
  write_lines(output, lines);
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
       "intersect, union, grow-diag, grow-diag-final, grow-diag-final-and")
      ("output,o", po::value(&output)->default_value(output), "symmetrized alignments (- = stdout)");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  if (forward.empty() || reverse.empty()) throw UsageError("-i FORWARD and -j REVERSE are required");
  const auto method = rnnsearch::align::parse_symmetrization(heuristic);
  const auto [a, b] = read_pair(forward, reverse);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < a.size(); ++i) {
    out.push_back(rnnsearch::align::format_pharaoh(rnnsearch::align::symmetrize(
        rnnsearch::align::parse_pharaoh(a[i], forward, i + 1), rnnsearch::align::parse_pharaoh(b[i], reverse, i + 1),
        method)));
  }
  write_lines(output, out);
  return rnnsearch::util::kExitOk;
}

int eval(const std::vector<std::string>& args) {
  rnnsearch::util::CommonOptions common;
  std::string gold, hypothesis;
  po::options_description options("nmt-align eval");
  options.add_options()
      ("gold,g", po::value(&gold), "gold alignments: i-j sure links, i?j possible links (required)")
      ("alignment,a", po::value(&hypothesis), "alignments to score, line-aligned with the gold file (required)");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  if (gold.empty() || hypothesis.empty()) throw UsageError("-g GOLD and -a ALIGNMENT are required");
  const auto [g, h] = read_pair(gold, hypothesis);
  rnnsearch::align::AlignmentScores scores;
  for (std::size_t i = 0; i < g.size(); ++i) {
    scores.add(rnnsearch::align::parse_pharaoh(h[i], hypothesis, i + 1), rnnsearch::align::parse_gold(g[i], gold, i + 1));
  }
  std::printf("precision %.4f\nrecall %.4f\nAER %.4f\nlinks %zu, sure %zu, matching sure %zu, matching possible %zu\n",
              scores.precision(), scores.recall(), scores.aer(), scores.hypothesis_links, scores.sure_links,
              scores.sure_matches, scores.possible_matches);
  return rnnsearch::util::kExitOk;
}

// "3,7,12" -> {3, 7, 12} (1-based line numbers).
std::vector<std::size_t> parse_lines(const std::string& text) {
  std::vector<std::size_t> lines;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || std::stoul(item) == 0) {
      throw UsageError("--lines takes 1-based line numbers separated by commas, got '" + text + "'");
    }
    lines.push_back(std::stoul(item));
    pos = comma + 1;
  }
  return lines;
}

int heatmap(const std::vector<std::string>& args) {
  rnnsearch::util::CommonOptions common;
  std::string model_path, source, target, output = "attention.svg", lines = "1";
  po::options_description options("nmt-align heatmap");
  options.add_options()
      ("model,m", po::value(&model_path), "model file written by nmt-train (required)")
      ("source,s", po::value(&source), "source sentences, BPE'd as in training (required)")
      ("target,t", po::value(&target), "target sentences, line-aligned with the source (required)")
      ("lines,l", po::value(&lines)->default_value(lines), "the pairs to draw: 1-based line numbers, comma-separated")
      ("output,o", po::value(&output)->default_value(output), "the SVG file (- = stdout), written atomically");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  if (model_path.empty() || source.empty() || target.empty()) throw UsageError("-m MODEL, -s SOURCE and -t TARGET are required");
  const auto wanted = parse_lines(lines);
  const auto [sources, targets] = read_pair(source, target);
  std::vector<std::string> chosen_sources, chosen_targets;
  for (const std::size_t line : wanted) {
    if (line > sources.size()) {
      throw rnnsearch::util::Error(source, "has " + std::to_string(sources.size()) + " lines; --lines asks for line " +
                                               std::to_string(line));
    }
    chosen_sources.push_back(sources[line - 1]);
    chosen_targets.push_back(targets[line - 1]);
  }
  auto model = rnnsearch::model::read_model_file(model_path);
  rnnsearch::model::require_attention(*model.model, model_path, "a heatmap");
  const auto pairs = rnnsearch::align::attention_heatmaps(*model.model, model.source_vocabulary,
                                                          model.target_vocabulary, chosen_sources, chosen_targets, wanted);
  rnnsearch::util::AtomicFileWriter writer(output);
  writer.write(rnnsearch::align::attention_svg(pairs));
  writer.commit();
  if (!common.quiet && output != "-") std::cerr << "nmt-align: attention of " << pairs.size() << " pair(s) in " << output << "\n";
  return rnnsearch::util::kExitOk;
}

int run(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "symmetrize") return symmetrize(std::vector<std::string>(argv + 2, argv + argc));
  if (command == "eval") return eval(std::vector<std::string>(argv + 2, argv + argc));
  if (command == "heatmap") return heatmap(std::vector<std::string>(argv + 2, argv + argc));
  return extract(std::vector<std::string>(argv + 1, argv + argc));
}

}  // namespace

int main(int argc, char** argv) {
  rnnsearch::math::select_gemm_kernels(argv);
  return rnnsearch::util::run_tool("nmt-align", [&] { return run(argc, argv); });
}
