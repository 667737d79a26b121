// Every metric gives the same per-segment statistics on one thread and on several.
#include <boost/test/unit_test.hpp>

#include "eval/bleu.h"
#include "eval/chrf.h"
#include "eval/ter.h"
#include "support/golden_cases.h"
#include "support/shared_data.h"
#include "util/error.h"

using namespace rnnsearch::eval;
namespace rt = rnnsearch::testing;

BOOST_AUTO_TEST_CASE(statistics_do_not_depend_on_the_thread_count) {
  const std::string dir = rt::shared_path("golden/bleu/data/");
  if (!rt::require_shared(dir + "wmt17.en-de.ref.de")) return;
  const ReferenceSet refs = {rt::read_stripped_lines(dir + "wmt17.en-de.ref.de")};
  const auto hyps = rt::read_stripped_lines(dir + "wmt17.en-de.uedin-nmt.de");
  const Bleu bleu(refs, {});
  const Chrf chrf(refs, {});
  const Ter ter(refs, {});
  for (const Metric* metric : std::vector<const Metric*>{&bleu, &chrf, &ter}) {
    const StatsMatrix one = metric->segment_stats(hyps, 1);
    const StatsMatrix three = metric->segment_stats(hyps, 3);
    BOOST_TEST(one.rows() == hyps.size());
    BOOST_TEST(one.values == three.values);
  }
}

BOOST_AUTO_TEST_CASE(wrong_number_of_hypotheses_is_an_error) {
  const Bleu bleu({{"a", "b"}}, {});
  BOOST_CHECK_THROW(bleu.segment_stats({"a"}, 2), rnnsearch::util::Error);
}
