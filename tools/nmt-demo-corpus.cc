// nmt-demo-corpus: the generated parallel corpus the demo pipeline trains on.
#include <iostream>

#include "demo/generated_corpus.h"
#include "tools/support/tool_entry.h"
#include "util/error.h"
#include "util/option_range.h"

namespace po = boost::program_options;

namespace {

int run(int argc, char** argv) {
  rnnsearch::demo::GeneratedCorpusOptions cfg;
  rnnsearch::util::CommonOptions common;
  po::options_description options("Options");
  options.add_options()
      ("output-dir,o", po::value(&cfg.output_dir), "directory for the files (created if missing; required)")
      ("train", po::value(&cfg.train)->default_value(cfg.train), "training sentence pairs")
      ("valid", po::value(&cfg.valid)->default_value(cfg.valid), "validation sentence pairs (held out)")
      ("test", po::value(&cfg.test)->default_value(cfg.test), "test sentence pairs (held out)")
      ("seed", rnnsearch::util::unsigned_value(&cfg.seed, "seed")->default_value(cfg.seed), "random seed: the same seed gives the same files")
      ("source-language", po::value(&cfg.source_language)->default_value(cfg.source_language),
       "file suffix of the source side (Avelic)")
      ("target-language", po::value(&cfg.target_language)->default_value(cfg.target_language),
       "file suffix of the target side (Borish)")
      ("tokenized", po::bool_switch(&cfg.tokenized),
       "write the tokenized form (as nmt-tokenize gives it) instead of raw text");
  rnnsearch::util::add_common_options(options, common);
  const rnnsearch::util::ToolInfo tool{
      "nmt-demo-corpus",
      "Usage: nmt-demo-corpus -o DIR [--train N] [--valid N] [--test N] [--seed S]\n"
      "Generates a parallel corpus in two made-up languages, Avelic (xa) and Borish (xb), with\n"
      "word-order changes, agreement, one-to-many and many-to-one words, and writes\n"
      "DIR/{train,valid,test}.{xa,xb} and the gold word alignments DIR/{train,valid,test}.align\n"
      "(Pharaoh 'i-j' links over the tokenized words). Held-out sentences never occur in train.\n",
      ""};
  if (rnnsearch::tools::parse_command_line(tool, std::vector<std::string>(argv + 1, argv + argc), options, common)) {
    return rnnsearch::util::kExitOk;
  }
  const auto corpus = rnnsearch::demo::write_generated_corpus(cfg);
  if (!common.quiet) {
    for (const auto& split : corpus.splits) std::cerr << split.name << ": " << split.pairs.size() << " pairs\n";
    std::cerr << "wrote " << corpus.paths.size() << " files in " << cfg.output_dir << "\n";
  }
  return rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::tools::run_tool("nmt-demo-corpus", [&] { return run(argc, argv); });
}
