// nmt-train --exponential-smoothing (with and without a value) and --keep-checkpoints,
// then nmt-average over the kept models as a user runs them: the kept files are the
// last N saves, the average decodes, a model of another run is refused naming its file.
#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

namespace {

struct Run {
  rt::TempDir dir;
  std::string source = dir.write("train.src", "a b c\nb c d\nc d e\nd e a\ne a b\na c e\n");
  std::string target = dir.write("train.tgt", "c b a\nd c b\ne d c\na e d\nb a e\ne c a\n");

  std::string path(const std::string& name) const { return (dir.path() / name).string(); }
  // A tiny model with a decoder of `decoder` units.
  rt::ProcessResult train(const std::string& model, const std::vector<std::string>& extra,
                          const std::string& decoder = "8") const {
    std::vector<std::string> argv = {rt::tool_path("nmt-train"), "-t", source, target, "-m", model, "--dim-emb", "8",
                                     "--dim-enc", "8", "--dim-dec", decoder, "--dim-att", "8", "--dim-maxout", "8",
                                     "--mini-batch", "2", "--quiet"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return rt::run_process(argv, dir.path().string());
  }
  rt::ProcessResult average(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {rt::tool_path("nmt-average")};
    argv.insert(argv.end(), args.begin(), args.end());
    return rt::run_process(argv, dir.path().string());
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(average_cli)

BOOST_AUTO_TEST_CASE(kept_models_average_into_a_model_that_decodes) {
  Run run;
  const std::string model = run.path("model.bin");
  // --exponential-smoothing without a value (1e-4), followed by another option.
  const auto trained = run.train(model, {"--exponential-smoothing", "--keep-checkpoints", "2", "--save-freq", "2",
                                         "--max-updates", "7"});
  BOOST_TEST_REQUIRE(trained.exit_code == 0, trained.err);
  for (const char* name : {"model.bin.update2", "model.bin.update4", "model.bin.update6", "model.bin.update7"}) {
    const bool kept = std::string(name) == "model.bin.update6" || std::string(name) == "model.bin.update7";
    BOOST_TEST(std::filesystem::exists(run.path(name)) == kept, name);
  }
  const auto averaged = run.average({"-o", "avg.bin", "model.bin.update6", "model.bin.update7"});
  BOOST_TEST_REQUIRE(averaged.exit_code == 0, averaged.err);
  BOOST_TEST(averaged.out.empty());
  const auto decoded =
      rt::run_process({rt::tool_path("nmt-decode"), "-m", run.path("avg.bin"), "--quiet"}, "", "a b c\n");
  BOOST_TEST(decoded.exit_code == 0, decoded.err);

  // A value after the option, and a model of another size refused by nmt-average.
  const auto other = run.train(run.path("other.bin"), {"--exponential-smoothing", "0.01", "--max-updates", "2"}, "12");
  BOOST_TEST_REQUIRE(other.exit_code == 0, other.err);
  const auto refused = run.average({"-o", "bad.bin", "avg.bin", "other.bin"});
  BOOST_TEST(refused.exit_code == 1);
  BOOST_TEST(refused.err.rfind("nmt-average: other.bin: has another model (", 0) == 0u, refused.err);
  BOOST_TEST(!std::filesystem::exists(run.path("bad.bin")));
}

BOOST_AUTO_TEST_CASE(bad_command_lines_are_usage_errors) {
  Run run;
  BOOST_TEST(run.average({"-o", "x.bin"}).exit_code == 2);
  BOOST_TEST(run.average({"a.bin"}).exit_code == 2);
  const auto range = run.train(run.path("m.bin"), {"--exponential-smoothing", "2", "--max-updates", "1"});
  BOOST_TEST(range.exit_code == 2);
  BOOST_TEST(range.err.find("--exponential-smoothing must be in [0, 1], got 2") != std::string::npos, range.err);
  const auto keep = run.train(run.path("m.bin"), {"--keep-checkpoints=-1", "--max-updates", "1"});
  BOOST_TEST(keep.exit_code == 2);
  BOOST_TEST(keep.err.find("--keep-checkpoints must be in [0, 1000000], got -1") != std::string::npos, keep.err);
}

BOOST_AUTO_TEST_SUITE_END()
