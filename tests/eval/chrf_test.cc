// chrF and chrF++: hand-computed statistics and scores (effective order and eps
// smoothing, whitespace, lowercasing, chrF++ word splitting, several references), then
// every chrF row of the sacreBLEU 2.6.0 goldens in shared/golden/bleu, corpus and
// sentence level, compared as sacreBLEU prints them.
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "eval/chrf.h"
#include "support/golden_cases.h"
#include "support/shared_data.h"
#include "text/unicode.h"
#include "util/error.h"
#include "util/utf8.h"

using namespace rnnsearch::eval;
using rnnsearch::testing::require_shared;
using rnnsearch::testing::shared_path;
using namespace rnnsearch::testing;

namespace {

std::vector<double> row_of(const Chrf& chrf, const std::string& hyp) {
  const StatsMatrix stats = chrf.segment_stats({hyp});
  return std::vector<double>(stats.row(0), stats.row(0) + stats.width);
}

Score corpus_score(const Chrf& chrf, const std::vector<std::string>& hyps) {
  const auto sums = chrf.segment_stats(hyps).column_sums();
  return chrf.score_from_stats(sums.data());
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// The line sacreBLEU prints with -f text: name|signature = score.
std::string text_line(const Chrf& chrf, double score, int decimals) {
  std::string line = chrf.score_from_stats(std::vector<double>(chrf.width(), 0.0).data()).name;
  line += "|nrefs:" + std::to_string(chrf.num_refs());
  for (const auto& [key, value] : chrf.signature_fields()) line += "|" + key + ":" + value;
  return line + "|version:2.6.0 = " + fixed(score, decimals);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(chrf)

BOOST_AUTO_TEST_CASE(empty_hypothesis_has_no_ngrams) {
  const Chrf chrf({{"ab"}}, {});
  // Orders 1 and 2 have reference n-grams; the hypothesis counts stay 0.
  const std::vector<double> expected = {0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const auto row = row_of(chrf, "");
  BOOST_TEST(row == expected, boost::test_tools::per_element());
  BOOST_TEST(chrf.score_from_stats(row.data()).score == 0.0);

  // eps smoothing: orders 3-6 have neither side, each adds (1+4)*eps*eps/(4*eps+eps).
  ChrfOptions eps;
  eps.eps_smoothing = true;
  const Chrf smoothed({{"ab"}}, eps);
  BOOST_TEST(smoothed.score_from_stats(row.data()).score == 6.6666666666666664e-15);
}

BOOST_AUTO_TEST_CASE(effective_order_and_eps_smoothing_by_hand) {
  // hyp "a" vs ref "abc", orders 1-3: only order 1 has hypothesis n-grams: P = 1, R = 1/3.
  // Effective order: F2 = 5 * (1/3) / (4 + 1/3) = 5/13.
  // eps: orders 2 and 3 add 5 * eps * 0 / (4 * eps) = 0, so the mean is (5/13) / 3.
  ChrfOptions options;
  options.char_order = 3;
  const Chrf effective({{"abc"}}, options);
  const auto row = row_of(effective, "a");
  const std::vector<double> expected = {1, 3, 1, 0, 2, 0, 0, 1, 0};
  BOOST_TEST(row == expected, boost::test_tools::per_element());
  BOOST_TEST(effective.score_from_stats(row.data()).score == 38.46153846153846);  // 500/13

  options.eps_smoothing = true;
  const Chrf smoothed({{"abc"}}, options);
  BOOST_TEST(smoothed.score_from_stats(row.data()).score == 12.82051282051282);  // 500/39

  // "ab" vs "ac", orders 1-2: order 1 P = R = 1/2 (F2 = 1/2); order 2 P = R = 0.
  // Effective order averages P = R = 1/4: 25.0. eps: 100 * (0.5 + 1e-16) / 2 rounds up.
  options.char_order = 2;
  options.eps_smoothing = false;
  const Chrf two({{"ac"}}, options);
  BOOST_TEST(corpus_score(two, {"ab"}).score == 25.0);
  options.eps_smoothing = true;
  const Chrf two_eps({{"ac"}}, options);
  BOOST_TEST(corpus_score(two_eps, {"ab"}).score == 25.000000000000007);
}

BOOST_AUTO_TEST_CASE(whitespace_is_dropped_unless_asked) {
  const Chrf plain({{"a b"}}, {});
  BOOST_TEST(row_of(plain, "a b")[0] == 2.0);  // "a", "b"
  // Python's str.split() whitespace: ideographic space, no-break space, \x1c.
  BOOST_TEST(corpus_score(plain, {"a\u3000b"}).score == 100.0);
  BOOST_TEST(corpus_score(plain, {"\u00a0a\x1c b"}).score == 100.0);

  ChrfOptions options;
  options.whitespace = true;
  const Chrf spaced({{"a b"}}, options);
  const std::vector<double> expected = {3, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const auto row = row_of(spaced, "a b");
  BOOST_TEST(row == expected, boost::test_tools::per_element());
  BOOST_TEST(corpus_score(spaced, {"ab"}).score < 100.0);
  BOOST_TEST(spaced.signature_fields().back().second == "yes");
}

BOOST_AUTO_TEST_CASE(lowercase_is_python_str_lower) {
  ChrfOptions options;
  options.lowercase = true;
  const Chrf lower({{"the CAT"}}, options);
  BOOST_TEST(corpus_score(lower, {"THE cat"}).score == 100.0);
  // U+0130 lowercases to "i" + U+0307, two code points.
  const Chrf dotted({{"i\u0307"}}, options);
  BOOST_TEST(row_of(dotted, "\u0130")[0] == 2.0);
  BOOST_TEST(corpus_score(dotted, {"\u0130"}).score == 100.0);
  BOOST_TEST(lower.signature_fields().front().second == "lc");
  const Chrf mixed({{"the CAT"}}, {});
  BOOST_TEST(corpus_score(mixed, {"THE cat"}).score < 100.0);
}

BOOST_AUTO_TEST_CASE(chrf_plus_plus_splits_one_punctuation_mark_per_word) {
  // "(hi)" -> "(hi" ")" (only the last mark); "(hi )" -> "(" "hi" ")".
  ChrfOptions options;
  options.word_order = 2;
  const Chrf chrf({{"(hi )"}}, options);
  const auto row = row_of(chrf, "(hi)");
  const std::vector<double> words(row.begin() + 18, row.end());
  const std::vector<double> expected = {2, 3, 1, 1, 2, 0};
  BOOST_TEST(words == expected, boost::test_tools::per_element());
  BOOST_TEST(chrf.score_from_stats(row.data()).score == 72.76119402985076);

  // "!x" -> "!" "x"; "..." -> ".." "." while ".." -> "." "."; one character stays whole.
  const Chrf tokens({{"! x ... a"}}, options);
  BOOST_TEST(row_of(tokens, "!x ... a")[18] == 5.0);
  const Chrf dots({{"! x .. . . a"}}, options);
  BOOST_TEST(corpus_score(dots, {"!x ... a"}).score < 100.0);
  BOOST_TEST(corpus_score(tokens, {"!x ... a"}).score == 100.0);
}

BOOST_AUTO_TEST_CASE(several_references_keep_the_best_one) {
  const Chrf chrf({{"a dog", "x"}, {"the cat", "y"}}, {});
  const StatsMatrix stats = chrf.segment_stats({"the cat", "x"});
  BOOST_TEST(chrf.score_from_stats(stats.row(0)).score == 100.0);
  BOOST_TEST(chrf.score_from_stats(stats.row(1)).score == 100.0);
  BOOST_TEST(stats.row(0)[0] == 6.0);  // "thecat", against the second reference
  BOOST_TEST(chrf.num_refs() == 2);
}

BOOST_AUTO_TEST_CASE(an_empty_reference_counts_nothing_and_scores_0) {
  // sacreBLEU drops only None references: "" stays, every count 0, sentence score 0.
  const Chrf chrf({{"", "b c"}, {"a b", ""}}, {});
  BOOST_TEST(chrf.num_refs() == 2);
  BOOST_TEST(corpus_score(chrf, {"a b", "b c"}).score == 100.0);
  // "x" matches neither reference, so both score 0 and the first one is kept: first
  // "", whose counts (the hypothesis's included) are all 0; first "a b", whose are not.
  BOOST_TEST(row_of(Chrf({{""}, {"a b"}}, {}), "x") == std::vector<double>(18, 0.0));
  const std::vector<double> against_ab = {1, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  BOOST_TEST(row_of(Chrf({{"a b"}, {""}}, {}), "x") == against_ab);
  // A segment with only empty references is no error: it adds nothing.
  const Chrf all_empty({{"a", ""}, {"b", ""}}, {});
  BOOST_TEST(corpus_score(all_empty, {"a", "x"}).score == 100.0);
}

BOOST_AUTO_TEST_CASE(bad_input_throws) {
  BOOST_CHECK_THROW(Chrf({{"a", "b"}, {"c"}}, {}), rnnsearch::util::Error);
  BOOST_CHECK_THROW(Chrf({{"a\xff"}}, {}), rnnsearch::util::Error);
  ChrfOptions none;
  none.char_order = 0;
  BOOST_CHECK_THROW(Chrf({{"a"}}, none), rnnsearch::util::Error);
  const Chrf chrf({{"a", "b"}}, {});
  BOOST_CHECK_THROW(chrf.segment_stats({"a"}), rnnsearch::util::Error);
  BOOST_CHECK_THROW(chrf.segment_stats({"a", "\xc3"}), rnnsearch::util::Error);
}

BOOST_AUTO_TEST_CASE(names_and_signature) {
  const Chrf chrf({{"a"}}, {});
  const std::vector<double> zeros(chrf.width(), 0.0);
  BOOST_TEST(chrf.score_from_stats(zeros.data()).name == "chrF2");
  BOOST_TEST(chrf.score_from_stats(zeros.data()).verbose.empty());
  BOOST_TEST(text_line(chrf, 57.72270314, 1) ==
             "chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 57.7");
  const auto short_names = chrf.short_names();
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"case", "c"}, {"eff", "e"}, {"nc", "nc"}, {"nw", "nw"}, {"space", "s"}};
  BOOST_TEST((short_names == expected));

  ChrfOptions options;
  options.word_order = 2;
  options.eps_smoothing = true;
  const Chrf plus(ReferenceSet{{"a"}}, options);
  BOOST_TEST(plus.score_from_stats(std::vector<double>(plus.width(), 0.0).data()).name == "chrF2++");
  BOOST_TEST(text_line(plus, 0, 1) ==
             "chrF2++|nrefs:1|case:mixed|eff:no|nc:6|nw:2|space:no|version:2.6.0 = 0.0");
  options.word_order = 1;
  options.beta = 1;
  const Chrf one(ReferenceSet{{"a"}}, options);
  BOOST_TEST(one.score_from_stats(std::vector<double>(one.width(), 0.0).data()).name == "chrF1+");
}

// Every chrF row of cases.tsv: corpus lines (-f text, all widths, also the chrF line of
// "-m bleu chrf ter"), sentence-level files (-sl; -sl -w 4 -b), and the length mismatch.
BOOST_AUTO_TEST_CASE(sacrebleu_goldens) {
  if (!require_shared(shared_path("golden/bleu/cases.tsv"))) return;
  int corpus_checked = 0, sentence_files = 0, sentence_lines = 0, errors_checked = 0;
  for (const GoldenCase& row : read_golden_cases(shared_path("golden/bleu/cases.tsv"))) {
    const std::string& o = row.options;
    if (o.find("chrf") == std::string::npos) continue;
    const bool sentence = has_option(o, "-sl");
    if (!sentence && has_option(o, "-f") && o.find("-f json") != std::string::npos) continue;
    ChrfOptions options;
    options.word_order = option_value(o, "--chrf-word-order", 0);
    const int width = option_value(o, "-w", 1);
    const std::string dir = shared_path("golden/bleu/");
    const auto hyps = read_stripped_lines(dir + row.hyp);
    ReferenceSet refs;
    for (const auto& ref : row.refs) refs.push_back(read_stripped_lines(dir + ref));
    const Chrf chrf(refs, options);

    if (row.exit_code != 0) {
      BOOST_CHECK_THROW(chrf.segment_stats(hyps), rnnsearch::util::Error);
      ++errors_checked;
      continue;
    }
    const StatsMatrix stats = chrf.segment_stats(hyps);
    if (!sentence) {
      const auto sums = stats.column_sums();
      const std::string got = text_line(chrf, chrf.score_from_stats(sums.data()).score, width);
      // The chrF line of the output, without the alignment padding of several metrics.
      std::string want;
      for (std::string line : split(row.stdout_text, '\n')) {
        line.erase(0, line.find_first_not_of(' '));
        if (line.rfind("chrF", 0) == 0) want = line;
      }
      BOOST_TEST(got == want, row.case_id << " " << o);
      ++corpus_checked;
      continue;
    }
    const bool score_only = has_option(o, "-b");
    const auto lines = read_stripped_lines(dir + row.stdout_file);
    BOOST_TEST_REQUIRE(lines.size() == stats.rows(), row.stdout_file);
    for (std::size_t i = 0; i < stats.rows(); ++i) {
      const double score = chrf.score_from_stats(stats.row(i)).score;
      const std::string got = score_only ? fixed(score, width) : text_line(chrf, score, width);
      BOOST_TEST(got == lines[i], row.stdout_file << ":" << i + 1);
      ++sentence_lines;
    }
    ++sentence_files;
  }
  BOOST_TEST_MESSAGE("chrF goldens: " << corpus_checked << " corpus lines, " << sentence_files
                                      << " sentence files (" << sentence_lines << " lines), "
                                      << errors_checked << " error rows");
  // 21 cases: 4 chrF rows and 1 "-m bleu chrf ter" row each; 2 -sl -w 4 -b files each
  // and 2 -sl files for each of the 9 edge cases; the mismatch case's 9 rows.
  BOOST_TEST(corpus_checked == 105);
  BOOST_TEST(sentence_files == 60);
  BOOST_TEST(errors_checked == 9);
}

BOOST_AUTO_TEST_SUITE_END()
