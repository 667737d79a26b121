// nmt-average: checkpoint averaging, the element-wise mean of models' parameters.
#include "model/average.h"
#include "tools/support/tool_entry.h"

namespace po = boost::program_options;

namespace {

int run(int argc, char** argv) {
  rnnsearch::model::AverageOptions cfg;
  rnnsearch::util::CommonOptions common;
  po::options_description options("Options");
  options.add_options()
      ("output,o", po::value(&cfg.output), "the averaged model file (required), written atomically");
  rnnsearch::util::add_common_options(options, common);
  po::options_description hidden;
  hidden.add_options()("models", po::value(&cfg.models));
  po::positional_options_description positional;
  positional.add("models", -1);
  const rnnsearch::util::ToolInfo tool{
      "nmt-average",
      "Usage: nmt-average -o OUT MODEL...\n"
      "Writes a model whose every parameter is the mean of that parameter in the MODELs\n"
      "(checkpoint averaging, e.g. of the models nmt-train --keep-checkpoints kept). The\n"
      "models must have the same configuration and vocabularies (one training run).\n",
      ""};
  if (rnnsearch::tools::parse_command_line(tool, std::vector<std::string>(argv + 1, argv + argc), options, common,
                                           &hidden, &positional)) {
    return rnnsearch::util::kExitOk;
  }
  cfg.validate();
  rnnsearch::model::average_models(cfg);
  return rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::tools::run_tool("nmt-average", [&] { return run(argc, argv); });
}
