// Running out of memory is one line, "TOOL: out of memory", exit 1, and leaves no output
// behind: under an address-space cap (ulimit -v) that a small decode fits in and a beam of
// 1000 over a mini-batch of 1000 sentences does not. This used to abort with a double free
// (Eigen's failed resize, unwound: math/eigen.h), leaving OUT.tmp.* behind.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <sstream>

#include "support/address_space_cap.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;
namespace fs = std::filesystem;

namespace {

// `command` run by bash under a cap of 500 MB.
rt::ProcessResult run_capped(const std::vector<std::string>& command) {
  std::string line = rt::address_space_cap(500000) + "exec";
  for (const auto& word : command) line += " '" + word + "'";
  return rt::run_process({"/bin/bash", "-c", line});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(memory_cap)

BOOST_AUTO_TEST_CASE(out_of_memory_is_one_line_exit_1_and_no_output_file) {
  if (!rt::kAddressSpaceCapsApply) {
    BOOST_TEST_MESSAGE("skipped: no address-space cap applies under AddressSanitizer");
    return;
  }
  const rt::ReversalModel m;
  std::ostringstream sources;
  for (int i = 0; i < 300; ++i) sources << "w" << i % 10 << " w" << (i + 3) % 10 << " w" << (i + 7) % 10 << " w1 w2 w3\n";
  const std::string input = m.dir.write("sources.txt", sources.str());
  const std::string out = (m.dir.path() / "out.txt").string();

  const auto small = run_capped({rt::tool_path("nmt-decode"), "-m", m.model, "-i", input, "-q", "-o", out});
  BOOST_TEST_REQUIRE(small.exit_code == 0, "a beam of 5 should fit under the cap: exit " << small.exit_code << ", " << small.err);
  fs::remove(out);

  const auto large = run_capped({rt::tool_path("nmt-decode"), "-m", m.model, "-i", input, "-q", "-o", out,
                                 "--beam-size", "1000", "--mini-batch", "1000"});
  BOOST_TEST(large.exit_code == 1, "exit " << large.exit_code << ": " << large.err.substr(0, 300));
  BOOST_TEST(large.err == "nmt-decode: out of memory\n");
  for (const auto& entry : fs::directory_iterator(m.dir.path())) {
    BOOST_TEST(entry.path().filename().string().rfind("out.txt", 0) != 0u, "left " << entry.path());
  }
}

BOOST_AUTO_TEST_SUITE_END()
