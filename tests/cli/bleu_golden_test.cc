// Every case sacreBLEU 2.6.0 was run on (shared/golden/bleu/cases.tsv): nmt-bleu given
// the same arguments must print the same stdout, byte for byte, and exit the same way.
#include <boost/test/unit_test.hpp>

#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/shared_data.h"

namespace rt = rnnsearch::testing;

BOOST_AUTO_TEST_CASE(every_sacrebleu_golden_case_matches) {
  const std::string dir = rt::shared_path("golden/bleu");
  if (!rt::require_shared(dir + "/cases.tsv")) return;
  const auto cases = rt::read_golden_cases(dir + "/cases.tsv");
  BOOST_TEST(cases.size() == 930u);

  std::size_t passed = 0;
  for (const auto& c : cases) {
    std::vector<std::string> argv = {rt::tool_path("nmt-bleu")};
    for (const auto& ref : c.refs) argv.push_back(ref);
    argv.push_back("-i");
    argv.push_back(c.hyp);
    for (const auto& opt : rt::split(c.options, ' ')) {
      if (!opt.empty()) argv.push_back(opt);
    }
    const auto result = rt::run_process(argv, dir, "", {"SACREBLEU_FORMAT", "SACREBLEU_SEED"});
    const std::string expected = c.stdout_file.empty() ? c.stdout_text : rt::read_file(dir + "/" + c.stdout_file);
    const bool ok = result.exit_code == c.exit_code && result.out == expected;
    BOOST_CHECK_MESSAGE(ok, c.case_id << " [" << c.options << "]: exit " << result.exit_code << " (want " << c.exit_code
                                 << ")\n--- got ---\n" << result.out.substr(0, 600) << "--- want ---\n"
                                 << expected.substr(0, 600) << "--- stderr ---\n" << result.err);
    passed += ok;
  }
  BOOST_TEST_MESSAGE(passed << " of " << cases.size() << " sacreBLEU golden cases match");
}
