// nmt-align's IBM Model 2 (fast_align -d -o -v): its links agree with fast_align's golden
// output on Multi30k, it learns an unambiguous lexicon, and reverse runs keep links
// source index first.
#include <boost/test/unit_test.hpp>

#include <sstream>

#include "align/aer.h"
#include "align/ibm2.h"
#include "support/error_message.h"
#include "support/gzip_text.h"
#include "support/shared_data.h"
#include "util/line_reader.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

std::vector<std::vector<std::string>> words(const std::vector<std::string>& lines) {
  std::vector<std::vector<std::string>> out;
  for (const auto& line : lines) {
    std::istringstream in(line);
    out.emplace_back();
    for (std::string word; in >> word;) out.back().push_back(word);
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ibm2)

BOOST_AUTO_TEST_CASE(learns_a_lexicon_and_the_reverse_direction_swaps_roles) {
  // Words "aK" translate as "bK"; the target order is reversed in half of the pairs.
  std::vector<std::string> source, target;
  for (int k = 0; k < 60; ++k) {
    std::ostringstream s, t;
    const int n = 3 + k % 4;
    std::vector<std::string> tw;
    for (int i = 0; i < n; ++i) {
      s << (i ? " " : "") << "a" << (k * 7 + i * 3) % 11;
      tw.push_back("b" + std::to_string((k * 7 + i * 3) % 11));
    }
    if (k % 2) std::reverse(tw.begin(), tw.end());
    for (int i = 0; i < n; ++i) t << (i ? " " : "") << tw[static_cast<std::size_t>(i)];
    source.push_back(s.str());
    target.push_back(t.str());
  }
  const auto result = align::ibm2_align(words(source), words(target), align::Ibm2Options{});
  BOOST_TEST_REQUIRE(result.links.size() == source.size());
  BOOST_TEST(result.iterations.size() == 5u);
  for (std::size_t k = 1; k < result.iterations.size(); ++k) {
    BOOST_TEST(result.iterations[k].log_likelihood > result.iterations[k - 1].log_likelihood);
  }
  // Pair 1 (n = 4, reversed): a i <-> b (n - 1 - i) unless a word repeats.
  const auto& links = result.links[1];
  BOOST_TEST(data::format_pharaoh(links) == "0-3 1-2 2-1 3-0");
  // Reverse: the target generates the source; the links are the same pairs, source first.
  const auto reverse = align::ibm2_align(words(target), words(source), align::Ibm2Options{});
  BOOST_TEST(data::format_pharaoh(data::inverted(reverse.links[1])) == "0-3 1-2 2-1 3-0");
  BOOST_TEST(rt::error_message([] { align::ibm2_align({{"a"}, {}}, {{"b"}, {"c"}}, align::Ibm2Options{}); }) ==
             "ibm2_align: pair 2 has an empty side");
}

// fast_align refits the tension with a closed form whose value we do not reproduce (its
// golden log shows tension 5.63 after iteration 2, ours is 6.07), so a few links in a
// thousand differ; every other step (the likelihoods of iterations 1 and 2 are equal to
// six digits) is the same model.
BOOST_AUTO_TEST_CASE(agrees_with_fast_align_on_the_golden_multi30k_output) {
  const std::string dir = rt::shared_path("golden/align");
  if (!rt::require_shared(dir + "/input/train.lc.norm.tok.de.gz")) return;
  const auto source = words(rt::gunzip_lines(dir + "/input/train.lc.norm.tok.de.gz"));
  const auto target = words(rt::gunzip_lines(dir + "/input/train.lc.norm.tok.en.gz"));
  BOOST_TEST_REQUIRE(source.size() == 29000u);
  for (const bool reverse : {false, true}) {
    const auto result = reverse ? align::ibm2_align(target, source, align::Ibm2Options{})
                                : align::ibm2_align(source, target, align::Ibm2Options{});
    const auto golden = util::read_lines(dir + (reverse ? "/reverse.1000.align" : "/forward.1000.align"));
    // fast_align's log: iteration 2's log-likelihood, before any tension refit.
    BOOST_TEST(result.iterations[1].log_likelihood == (reverse ? -1.65249e+06 : -1.57531e+06),
               boost::test_tools::tolerance(5e-6));  // printed to 6 digits
    align::AlignmentScores agreement;
    for (std::size_t i = 0; i < golden.size(); ++i) {
      const data::Alignment links = reverse ? data::inverted(result.links[i]) : result.links[i];
      const auto gold = data::parse_pharaoh(golden[i], "golden", i + 1);
      agreement.add(links, {gold, gold});
    }
    BOOST_TEST_MESSAGE((reverse ? "reverse" : "forward") << ": precision " << agreement.precision() << ", recall "
                                                          << agreement.recall());
    // The README says 99.6% (measured 0.9965/0.9961 forward, 0.9951/0.9953 reverse).
    BOOST_TEST(agreement.precision() >= 0.995);
    BOOST_TEST(agreement.recall() >= 0.995);
  }
}

BOOST_AUTO_TEST_SUITE_END()
