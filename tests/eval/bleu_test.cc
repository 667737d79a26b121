// BLEU through the library on hand-checked cases: empty hypotheses, no matches,
// hypotheses longer than the references, several references, smoothing, and the
// sentence-level effective order.
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "eval/bleu.h"
#include "eval/score_format.h"
#include "util/error.h"

using namespace rnnsearch::eval;

namespace {

Score corpus_bleu(const std::vector<std::string>& hyps, const ReferenceSet& refs, BleuOptions options = {}) {
  const Bleu bleu(refs, options);
  const auto stats = bleu.segment_stats(hyps);
  const auto sums = stats.column_sums();
  return bleu.score_from_stats(sums.data());
}

std::string text(const Score& s) { return format_score(s, 1, false, "", false); }

}  // namespace

// Scores are exp(mean(log p)): 100 comes out as 100.00000000000004, as in Python.
BOOST_AUTO_TEST_SUITE(bleu, *boost::unit_test::tolerance(1e-9))

BOOST_AUTO_TEST_CASE(identical_text_scores_100) {
  const auto s = corpus_bleu({"the cat sat on the mat ."}, {{"the cat sat on the mat ."}});
  BOOST_TEST(s.score == 100.0);
  BOOST_TEST(text(s) == "BLEU = 100.0 100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)");
}

BOOST_AUTO_TEST_CASE(hand_computed_precisions_and_brevity_penalty) {
  // hyp "the cat the" vs ref "the cat sat on": 1-grams 3/3 clipped to 2 (the x1 in ref
  // ... "the" appears once in ref): the=1 of 2 + cat=1 -> 2/3; 2-grams: "the cat" 1/2;
  // 3-grams 0/1; BP = exp(1 - 4/3).
  BleuOptions none_tokenizer;
  none_tokenizer.tokenize = "none";
  const auto s = corpus_bleu({"the cat the"}, {{"the cat sat on"}}, none_tokenizer);
  const double p1 = 100.0 * 2 / 3, p2 = 100.0 * 1 / 2, p3 = 100.0 / (2 * 1);  // exp smoothing: 1/(2*1)
  const double bp = std::exp(1.0 - 4.0 / 3.0);
  // 4-grams: none in the hypothesis -> total 0 -> loop stops; p4 stays 0 -> log floor.
  const double expected = bp * std::exp((std::log(p1) + std::log(p2) + std::log(p3) - 9999999999.0) / 4);
  BOOST_TEST(s.score == expected);
  BOOST_TEST(text(s) == "BLEU = 0.0 66.7/50.0/50.0/0.0 (BP = 0.717 ratio = 0.750 hyp_len = 3 ref_len = 4)");
}

BOOST_AUTO_TEST_CASE(empty_hypothesis_lines_count_as_zero_length) {
  const auto s = corpus_bleu({"a b c d e", ""}, {{"a b c d e", "f g h"}});
  BOOST_TEST(s.verbose == "100.0/100.0/100.0/100.0 (BP = 0.549 ratio = 0.625 hyp_len = 5 ref_len = 8)");
}

BOOST_AUTO_TEST_CASE(all_empty_hypotheses_score_zero) {
  const auto s = corpus_bleu({"", ""}, {{"a b", "c d"}});
  BOOST_TEST(s.score == 0.0);
  BOOST_TEST(s.verbose == "0.0/0.0/0.0/0.0 (BP = 0.000 ratio = 0.000 hyp_len = 0 ref_len = 4)");
}

BOOST_AUTO_TEST_CASE(no_matching_ngrams_score_zero) {
  const auto s = corpus_bleu({"1 2 3 4 5"}, {{"a b c d e"}});
  BOOST_TEST(s.score == 0.0);
  BOOST_TEST(s.verbose == "0.0/0.0/0.0/0.0 (BP = 1.000 ratio = 1.000 hyp_len = 5 ref_len = 5)");
}

BOOST_AUTO_TEST_CASE(longer_hypothesis_has_no_brevity_penalty) {
  const auto s = corpus_bleu({"a b c d a b c d"}, {{"a b c d"}});
  BOOST_TEST(s.verbose == "50.0/42.9/33.3/20.0 (BP = 1.000 ratio = 2.000 hyp_len = 8 ref_len = 4)");
}

BOOST_AUTO_TEST_CASE(several_references_clip_by_the_maximum_and_pick_the_closest_length) {
  // "the the the": ref 1 has "the" once, ref 2 twice -> 2 of 3 match.
  // Lengths 2 and 4 are equally close to 3: the shorter one counts.
  const auto s = corpus_bleu({"the the the"}, {{"the cat"}, {"the the big dog"}});
  BOOST_TEST(s.verbose.substr(0, 5) == "66.7/");
  BOOST_TEST(s.verbose.find("ref_len = 2)") != std::string::npos);
  const Bleu bleu({{"the cat"}, {"the the big dog"}}, {});
  BOOST_TEST(bleu.num_refs() == 2);
}

BOOST_AUTO_TEST_CASE(an_empty_reference_is_a_reference_of_length_0) {
  // sacreBLEU drops only None references: "" stays, with no n-grams and length 0.
  const Bleu bleu({{"a b", "c d"}, {"", "c e"}}, {});
  BOOST_TEST(bleu.num_refs() == 2);
  const StatsMatrix stats = bleu.segment_stats({"a", "c d e f"});
  // "a" is 1 word from both 2 and 0: the shorter length, 0, is the closest.
  BOOST_TEST(stats.row(0)[1] == 0.0);
  BOOST_TEST(stats.row(0)[2] == 1.0);  // "a" still matches "a b"
  BOOST_TEST(stats.row(1)[1] == 2.0);
  // Segment 2 has only empty references: "x" is 1 unmatched word against length 0.
  const auto s = corpus_bleu({"a b", "x"}, {{"a b", ""}, {"a b c", ""}});
  BOOST_TEST(s.verbose == "66.7/100.0/0.0/0.0 (BP = 1.000 ratio = 1.500 hyp_len = 3 ref_len = 2)");
  BOOST_CHECK_THROW(Bleu({{"a", "b"}, {"c"}}, {}), rnnsearch::util::Error);  // ragged streams
}

BOOST_AUTO_TEST_CASE(smoothing_methods_differ_only_on_zero_counts) {
  const std::vector<std::string> hyp = {"a b x y"};
  const ReferenceSet ref = {{"a b c d"}};
  auto with = [&](BleuSmoothing m) {
    BleuOptions o;
    o.smooth_method = m;
    return corpus_bleu(hyp, ref, o);
  };
  BOOST_TEST(with(BleuSmoothing::kNone).verbose.substr(0, 19) == "50.0/33.3/0.0/0.0 (");
  BOOST_TEST(with(BleuSmoothing::kFloor).verbose.substr(0, 19) == "50.0/33.3/5.0/10.0 ");
  BOOST_TEST(with(BleuSmoothing::kExp).verbose.substr(0, 21) == "50.0/33.3/25.0/25.0 (");
  // add-k adds 1 to counts and totals of orders above 1.
  BOOST_TEST(with(BleuSmoothing::kAddK).verbose.substr(0, 19) == "50.0/50.0/33.3/50.0");
  BOOST_TEST(with(BleuSmoothing::kNone).score < with(BleuSmoothing::kFloor).score);
}

BOOST_AUTO_TEST_CASE(effective_order_ignores_orders_the_hypothesis_cannot_have) {
  BleuOptions o;
  o.effective_order = true;
  const auto s = corpus_bleu({"a b"}, {{"a b"}}, o);
  BOOST_TEST(s.score == 100.0);
  o.effective_order = false;
  BOOST_TEST(corpus_bleu({"a b"}, {{"a b"}}, o).score < 100.0);
}

BOOST_AUTO_TEST_CASE(lowercase_option_makes_case_irrelevant) {
  BleuOptions o;
  o.lowercase = true;
  BOOST_TEST(corpus_bleu({"THE Cat sat ON the mat"}, {{"the cat sat on the mat"}}, o).score == 100.0);
  BOOST_TEST(corpus_bleu({"THE Cat sat ON the mat"}, {{"the cat sat on the mat"}}).score < 100.0);
}

BOOST_AUTO_TEST_CASE(signature_fields_follow_sacrebleu) {
  BleuOptions o;
  o.smooth_method = BleuSmoothing::kFloor;
  o.tokenize = "intl";
  const Bleu bleu({{"x"}}, o);
  const SignatureFields expected = {{"case", "mixed"}, {"eff", "no"}, {"tok", "intl"}, {"smooth", "floor[0.10]"}};
  BOOST_TEST((bleu.signature_fields() == expected));
}

BOOST_AUTO_TEST_SUITE_END()
