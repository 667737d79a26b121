// Fuzz target: config files (--config FILE), read as every tool reads them:
// util::read_command_line with "--config FILE" over options of each kind the tools have:
// nmt-decode's names and kinds (so its --dump-config output, the seeds, reads whole:
// numbers, a multitoken list, switches, an enumeration, the common options) and a
// fixed-arity list as nmt-clean's --aligned IN OUT. Checks that what --dump-config prints,
// given back as --config, gives the same options again. Rejected input: util::Error (the file cannot be read) and
// util::UsageError (a bad line, named by file and line).
#include <boost/program_options.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "math/precision.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/option_range.h"

using namespace rnnsearch;
namespace po = boost::program_options;

namespace {

// The fields the options are bound to, fresh for each reading.
struct Fields {
  std::vector<std::string> models, aligned;
  std::vector<double> weights;
  std::string input = "-", output = "-", shortlist, attention_source = "auto";
  int beam_size = 5, n_best = 0, mini_batch = 32, maxi_batch = 10;
  double length_penalty = 1.0, max_length_ratio = 2.0, unknown_warning = 0.1;
  std::size_t max_length = 100;
  bool word_scores = false, replace_unknown = false;
  math::Precision precision = math::Precision::kFp32;
  util::CommonOptions common;
};

// The effective options (what --dump-config prints) of `args` over `fields`' options.
std::string effective_options(const std::vector<std::string>& args, Fields& fields) {
  po::options_description options("Options");
  options.add_options()
      ("model,m", po::value(&fields.models)->multitoken(), "model files")
      ("input,i", util::defaulted(&fields.input), "input")
      ("output,o", util::defaulted(&fields.output), "output")
      ("beam-size,b", util::defaulted(&fields.beam_size), "beam size")
      ("weights", po::value(&fields.weights)->multitoken(), "one weight per model")
      ("n-best", util::defaulted(&fields.n_best), "n-best")
      ("word-scores", po::bool_switch(&fields.word_scores), "a switch")
      ("length-penalty", util::defaulted(&fields.length_penalty), "alpha")
      ("max-length-ratio", util::defaulted(&fields.max_length_ratio), "ratio")
      ("max-length", util::unsigned_value(&fields.max_length, "max-length", std::size_t{0}, std::size_t{1000})
                         ->default_value(fields.max_length), "longest line")
      ("unknown-warning", util::defaulted(&fields.unknown_warning), "share")
      ("mini-batch", util::defaulted(&fields.mini_batch), "sentences")
      ("maxi-batch", util::defaulted(&fields.maxi_batch), "mini-batches")
      ("precision", util::enum_value(&fields.precision, math::precision_name, math::parse_precision), "an enumeration")
      ("alignment", po::value<std::string>(), "a string bound to no field")
      ("shortlist", po::value(&fields.shortlist), "a string without default")
      ("replace-unk", po::bool_switch(&fields.replace_unknown), "a switch")
      ("attention-source", util::defaulted(&fields.attention_source), "a name")
      ("aligned", util::fixed_arity_value(&fields.aligned, 2), "IN OUT, repeatable");
  util::add_common_options(options, fields.common);
  const util::ToolInfo tool{"nmt-fuzz", "Usage: nmt-fuzz [options]\n", ""};
  util::read_command_line(tool, args, options, fields.common);
  return fields.common.effective_options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::TempInput file(data, size);
  std::string dump;
  try {
    Fields fields;
    dump = effective_options({"--config", file.path()}, fields);
  } catch (const util::Error&) {
    return 0;
  } catch (const util::UsageError&) {
    return 0;
  }
  // Not caught: a dump that does not read back is a finding.
  const fuzz::TempInput dumped(reinterpret_cast<const std::uint8_t*>(dump.data()), dump.size(), ".dumped");
  Fields again;
  fuzz::check(effective_options({"--config", dumped.path()}, again) == dump,
              "--dump-config given back as --config gives other options");
  return 0;
}
