// Alignments: Pharaoh parsing with errors naming file and line, symmetrization identical
// to fast_align's atools (the grow-diag-final-and golden of shared/golden/align, and
// hand-checked cases of the others), and AER against sure and possible links.
#include <boost/test/unit_test.hpp>

#include <fstream>

#include "align/aer.h"
#include "data/alignment.h"
#include "search/attention_alignment.h"
#include "align/symmetrize.h"
#include "support/error_message.h"
#include "support/shared_data.h"
#include "util/error.h"
#include "util/line_reader.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

data::Alignment links(const std::string& text) { return data::parse_pharaoh(text, "test", 1); }

}  // namespace

BOOST_AUTO_TEST_SUITE(alignments)

BOOST_AUTO_TEST_CASE(pharaoh_lines_parse_sorted_and_unique) {
  const auto a = links("2-3 0-0  1-2 0-0\r");
  BOOST_TEST(data::format_pharaoh(a) == "0-0 1-2 2-3");
  BOOST_TEST(links("").empty());
  const auto gold = data::parse_gold("0-0 1?2 2-1", "gold", 3);
  BOOST_TEST(data::format_pharaoh(gold.sure) == "0-0 2-1");
  BOOST_TEST(data::format_pharaoh(gold.possible) == "0-0 1-2 2-1");
}

BOOST_AUTO_TEST_CASE(malformed_pairs_name_file_and_line) {
  for (const std::string bad : {"0-", "-1", "1_2", "a-b", "1-2-3", "1?2", "1-99999999"}) {
    BOOST_TEST(rt::error_message([&] { data::parse_pharaoh("0-0 " + bad, "fwd.align", 7); })
               .find("fwd.align:7: malformed alignment pair '" + bad + "'") == 0u,
               bad);
  }
  BOOST_TEST(rt::error_message([&] { data::parse_gold("1!2", "gold", 2); }).find("gold:2: malformed") == 0u);
}

BOOST_AUTO_TEST_CASE(symmetrization_of_a_hand_checked_pair) {
  // forward: 0-0 1-1 2-1 3-3; reverse: 0-0 1-1 1-2 3-2.
  const auto forward = links("0-0 1-1 2-1 3-3"), reverse = links("0-0 1-1 1-2 3-2");
  using S = align::Symmetrization;
  BOOST_TEST(data::format_pharaoh(align::symmetrize(forward, reverse, S::kIntersect)) == "0-0 1-1");
  BOOST_TEST(data::format_pharaoh(align::symmetrize(forward, reverse, S::kUnion)) == "0-0 1-1 1-2 2-1 3-2 3-3");
  // 1-2 and 2-1 neighbour 1-1 and have an unaligned word; 3-2 then neighbours 2-1 (diagonal),
  // and 3-3 neighbours 3-2 with target 3 unaligned.
  BOOST_TEST(data::format_pharaoh(align::symmetrize(forward, reverse, S::kGrowDiag)) == "0-0 1-1 1-2 2-1 3-2 3-3");
  // No neighbours: grow-diag adds nothing, final adds forward 3-3 (both words free), final-and too;
  // final adds 2-1 (source 2 free) where final-and does not (target 1 is aligned).
  const auto f2 = links("0-0 2-0 3-3"), r2 = links("0-0");
  BOOST_TEST(data::format_pharaoh(align::symmetrize(f2, r2, S::kGrowDiag)) == "0-0");
  BOOST_TEST(data::format_pharaoh(align::symmetrize(f2, r2, S::kGrowDiagFinal)) == "0-0 2-0 3-3");
  BOOST_TEST(data::format_pharaoh(align::symmetrize(f2, r2, S::kGrowDiagFinalAnd)) == "0-0 3-3");
  BOOST_TEST(align::symmetrize({}, {}, S::kGrowDiagFinalAnd).empty());
  // grow-diag-and: only links with both words unaligned grow; 1-2, 2-1 each have one aligned
  // word, and 3-2, 3-3 no aligned neighbour then.
  BOOST_TEST(data::format_pharaoh(align::symmetrize(forward, reverse, S::kGrowDiagAnd)) == "0-0 1-1");
  // 1-1 grows from 0-0; 2-1 would too in grow-diag, but its target word is aligned by then.
  const auto f3 = links("0-0 1-1 2-1"), r3 = links("0-0");
  BOOST_TEST(data::format_pharaoh(align::symmetrize(f3, r3, S::kGrowDiagAnd)) == "0-0 1-1");
  BOOST_TEST(data::format_pharaoh(align::symmetrize(f3, r3, S::kGrowDiag)) == "0-0 1-1 2-1");
  BOOST_TEST((align::parse_symmetrization("grow-diag-and") == S::kGrowDiagAnd));
  BOOST_CHECK_THROW(align::parse_symmetrization("grow"), util::UsageError);
  BOOST_TEST((align::parse_symmetrization("grow-diag-final-and") == S::kGrowDiagFinalAnd));
}

BOOST_AUTO_TEST_CASE(grow_diag_final_and_reproduces_atools_on_the_golden_file) {
  const std::string dir = rt::shared_path("golden/align");
  if (!rt::require_shared(dir + "/gdfa.1000.align")) return;
  const auto forward = util::read_lines(dir + "/forward.1000.align");
  const auto reverse = util::read_lines(dir + "/reverse.1000.align");
  const auto expected = util::read_lines(dir + "/gdfa.1000.align");
  BOOST_TEST_REQUIRE(forward.size() == 1000u);
  BOOST_TEST_REQUIRE(reverse.size() == expected.size());
  std::size_t same = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto result = align::symmetrize(data::parse_pharaoh(forward[i], "forward", i + 1),
                                          data::parse_pharaoh(reverse[i], "reverse", i + 1),
                                          align::Symmetrization::kGrowDiagFinalAnd);
    if (data::format_pharaoh(result) == expected[i]) {
      ++same;
    } else if (same + 5 > i) {
      BOOST_TEST_MESSAGE("line " << i + 1 << ": " << data::format_pharaoh(result) << " | " << expected[i]);
    }
  }
  BOOST_TEST(same == expected.size());
}

BOOST_AUTO_TEST_CASE(aer_precision_and_recall_against_sure_and_possible_links) {
  align::AlignmentScores scores;
  // A = {0-0, 1-1, 2-2}, S = {0-0, 1-2}, P = S + {1-1}: |A&S| = 1, |A&P| = 2.
  scores.add(links("0-0 1-1 2-2"), data::parse_gold("0-0 1-2 1?1", "gold", 1));
  BOOST_TEST(scores.precision() == 2.0 / 3.0);
  BOOST_TEST(scores.recall() == 1.0 / 2.0);
  BOOST_TEST(scores.aer() == 1.0 - 3.0 / 5.0);
  // Perfect on a second pair: the corpus sums.
  scores.add(links("0-1"), data::parse_gold("0-1", "gold", 2));
  BOOST_TEST(scores.precision() == 3.0 / 4.0);
  BOOST_TEST(scores.recall() == 2.0 / 3.0);
  BOOST_TEST(scores.aer() == 1.0 - 5.0 / 7.0);
  BOOST_TEST(align::AlignmentScores{}.aer() == 1.0);
}

BOOST_AUTO_TEST_CASE(hard_alignment_takes_each_target_tokens_most_attended_source_token) {
  // Two source tokens and </s>; three target rows (the last is the target </s>, unused).
  const std::vector<std::vector<float>> attention = {{0.2f, 0.3f, 0.5f}, {0.6f, 0.2f, 0.2f}, {0.1f, 0.1f, 0.8f}};
  // Row 0: the source </s> column (0.5) is left out, so token 1 (0.3) wins.
  BOOST_TEST(data::format_pharaoh(search::hard_alignment(attention, 2, 2)) == "0-1 1-0");
  BOOST_TEST(search::hard_alignment(attention, 0, 2).empty());
  BOOST_CHECK_THROW(search::hard_alignment(attention, 2, 4), util::Error);
  BOOST_CHECK_THROW(search::hard_alignment({{0.5f}}, 2, 1), util::Error);
}

BOOST_AUTO_TEST_SUITE_END()
