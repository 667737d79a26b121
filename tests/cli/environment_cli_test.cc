// The variables every tool reads before any work: an unknown RNNSEARCH_CPU_ISA (every
// tool) or RNNSEARCH_GEMM_BACKEND (the tools that multiply) is one line naming the tool
// and the value, exit 2, and nothing on stdout, even for --version; a known value runs.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <optional>
#include <string>

#include "cli/project_tools.h"
#include "support/run_process.h"

namespace rt = rnnsearch::testing;

namespace {

// Sets an environment variable for the tools run in its scope; restores it after.
class ScopedVariable {
 public:
  ScopedVariable(std::string name, const std::string& value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) old_ = old;
    setenv(name_.c_str(), value.c_str(), 1);
  }
  ~ScopedVariable() {
    if (old_) {
      setenv(name_.c_str(), old_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

const char* const kMultiplyingTools[] = {"nmt-train", "nmt-decode", "nmt-score", "nmt-align"};

}  // namespace

BOOST_AUTO_TEST_SUITE(environment_cli)

BOOST_AUTO_TEST_CASE(an_unknown_cpu_isa_is_one_line_and_exit_2_in_every_tool) {
  const ScopedVariable isa("RNNSEARCH_CPU_ISA", "avx9");
  for (const std::string& tool : rt::project_tools()) {
    BOOST_TEST_CONTEXT(tool) {
      const rt::ProcessResult r = rt::run_process({rt::tool_path(tool), "--version"});
      BOOST_TEST(r.exit_code == 2);
      BOOST_TEST(r.out.empty());
      BOOST_TEST(r.err == tool + ": RNNSEARCH_CPU_ISA=avx9: expected one of baseline, avx2, avx512, avx512-vnni, "
                                 "avx512-bf16\n");
    }
  }
}

BOOST_AUTO_TEST_CASE(a_known_cpu_isa_runs) {
  const ScopedVariable isa("RNNSEARCH_CPU_ISA", "baseline");
  for (const std::string tool : {"nmt-tokenize", "nmt-decode"}) {
    const rt::ProcessResult r = rt::run_process({rt::tool_path(tool), "--version"});
    BOOST_TEST(r.exit_code == 0, tool << ": " << r.err);
    BOOST_TEST(r.out.rfind(tool + " (rnnsearch) ", 0) == 0);
  }
}

BOOST_AUTO_TEST_CASE(an_unknown_gemm_backend_is_one_line_and_exit_2_in_the_tools_that_multiply) {
  const ScopedVariable backend("RNNSEARCH_GEMM_BACKEND", "mkl");
  for (const std::string tool : kMultiplyingTools) {
    BOOST_TEST_CONTEXT(tool) {
      const rt::ProcessResult r = rt::run_process({rt::tool_path(tool), "--version"});
      BOOST_TEST(r.exit_code == 2);
      BOOST_TEST(r.out.empty());
      BOOST_TEST(r.err == tool + ": RNNSEARCH_GEMM_BACKEND=mkl: expected onednn or openblas\n");
    }
  }
}

BOOST_AUTO_TEST_CASE(a_known_gemm_backend_runs) {
  const ScopedVariable backend("RNNSEARCH_GEMM_BACKEND", "openblas");
  for (const std::string tool : kMultiplyingTools) {
    const rt::ProcessResult r = rt::run_process({rt::tool_path(tool), "--version"});
    BOOST_TEST(r.exit_code == 0, tool << ": " << r.err);
    BOOST_TEST(r.out.rfind(tool + " (rnnsearch) ", 0) == 0);
  }
}

BOOST_AUTO_TEST_SUITE_END()
