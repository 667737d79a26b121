#include "support/reversal_model.h"

#include <boost/test/unit_test.hpp>

#include <sstream>

#include "util/rng.h"

namespace rnnsearch::testing {

ReversalModel::ReversalModel(const std::string& attention, const std::vector<std::string>& extra) {
  util::Rng rng(5);
  std::ostringstream source, target;
  for (int i = 0; i < 2000; ++i) {
    const int length = 3 + static_cast<int>(rng.below(4));
    std::vector<std::string> words;
    for (int k = 0; k < length; ++k) words.push_back("w" + std::to_string(rng.below(10)));
    for (int k = 0; k < length; ++k) source << (k ? " " : "") << words[static_cast<std::size_t>(k)];
    for (int k = length - 1; k >= 0; --k) target << (k != length - 1 ? " " : "") << words[static_cast<std::size_t>(k)];
    source << '\n';
    target << '\n';
  }
  const auto src = dir.write("train.src", source.str()), tgt = dir.write("train.tgt", target.str());
  model = (dir.path() / "model.bin").string();
  std::vector<std::string> argv = {tool_path("nmt-train"), "-t", src, tgt, "-m", model, "--dim-emb", "32", "--dim-enc",
                                   "32", "--dim-dec", "64", "--dim-att", "32", "--dim-maxout", "32", "--mini-batch",
                                   "32", "--dropout", "0", "-l", "0.003", "--max-updates", "400", "--log-freq", "400"};
  if (!attention.empty()) argv.insert(argv.end(), {"--attention", attention});
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto trained = run_process(argv);
  BOOST_TEST_REQUIRE(trained.exit_code == 0, trained.err);
  log = trained.err;
}

HeldOutReversals held_out_reversals(int count, std::uint64_t seed) {
  util::Rng rng(seed);
  HeldOutReversals out;
  for (int i = 0; i < count; ++i) {
    const int length = 3 + static_cast<int>(rng.below(4));
    std::vector<std::string> words;
    for (int k = 0; k < length; ++k) words.push_back("w" + std::to_string(rng.below(10)));
    for (int k = 0; k < length; ++k) out.source += (k ? " " : "") + words[static_cast<std::size_t>(k)];
    for (int k = length - 1; k >= 0; --k) out.reversed += (k != length - 1 ? " " : "") + words[static_cast<std::size_t>(k)];
    out.source += '\n';
    out.reversed += '\n';
  }
  return out;
}

ProcessResult ReversalModel::decode(const std::vector<std::string>& options, const std::string& input) const {
  std::vector<std::string> argv = {tool_path("nmt-decode"), "-m", model};
  argv.insert(argv.end(), options.begin(), options.end());
  return run_process(argv, "", input);
}

}  // namespace rnnsearch::testing
