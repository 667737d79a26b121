// The source profile of data/source_profile.h and the language check of
// data/language_check.h: the text as the profile reads it, the counts it keeps, stored
// tables that it could not have written refused, and a check that warns for another
// language and stays silent on the training language.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "data/language_check.h"
#include "data/source_profile.h"
#include "support/error_message.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

const std::vector<std::string> kEnglish = {
    "a man in a blue shirt is stand@@ ing on a ladder .",
    "two dogs are playing in the snow .",
    "a woman with a red hat is walking down the street .",
    "the children are sitting on the grass in the park .",
    "a group of people are watching a man play the guitar .",
    "a little girl is running on the beach with her dog .",
};

data::SourceProfile english_profile() {
  data::ProfileBuilder builder;
  for (const auto& line : kEnglish) builder.add_line(line);
  return builder.build("train.en");
}

data::NgramTable table(std::vector<std::uint64_t> keys, std::vector<std::uint32_t> counts) {
  return data::NgramTable{std::move(keys), std::move(counts)};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(source_profile)

BOOST_AUTO_TEST_CASE(reads_text_lowercased_with_the_bpe_joins_undone) {
  BOOST_TEST((data::profile_text("Fuß@@ ball ist  TOLL@@") == U"\x02\x02" U"fußball ist toll\x03"));
  BOOST_TEST((data::profile_text("") == U"\x02\x02\x03"));
  BOOST_TEST((data::profile_text("e@@mail @ x") == U"\x02\x02" U"e@@mail @ x\x03"));  // not joins
  BOOST_TEST((data::profile_text("a\xff" "b") == U"\x02\x02" U"a\uFFFDb\x03"));
}

BOOST_AUTO_TEST_CASE(counts_the_words_bpe_split) {
  const auto splits = data::word_splits("a stand@@ ing man@@ go@@ es  home @@ x@@");
  BOOST_TEST(splits.words == 6u);  // a, standing, mangoes, home, @@, x
  BOOST_TEST(splits.split == 3u);  // standing, mangoes, x
  BOOST_TEST(data::word_splits("").words == 0u);
  data::ProfileBuilder builder;
  builder.add_line("a stand@@ ing man");
  builder.add_line("two dogs");
  BOOST_TEST(builder.build("t.en").figures().split_share == 0.2);
}

BOOST_AUTO_TEST_CASE(keeps_the_counts_of_every_order) {
  data::ProfileBuilder builder;
  builder.add_line("ab@@ a");  // reads "aba": (^ ^ a) (^ a b) (a b a) (b a $)
  const data::SourceProfile profile = builder.build("t.en");
  BOOST_TEST(!profile.empty());
  BOOST_TEST(profile.training_source() == "t.en");
  BOOST_TEST(profile.table(1).keys.size() == 3u);  // a, b, $
  BOOST_TEST(profile.table(2).keys.size() == 4u);  // ^a, ab, ba, a$
  BOOST_TEST(profile.table(3).keys.size() == 4u);
  const auto& unigrams = profile.table(1);
  BOOST_TEST(unigrams.keys[0] == 0x03u);  // keys ascending
  BOOST_TEST(unigrams.keys[1] == U'a');
  BOOST_TEST(unigrams.counts[1] == 2u);
  // Each trigram seen once after a context seen once: P3 = (1 + 1 * P2) / (1 + 1).
  const double p2 = std::exp2(-profile.bits(0x02, U'b', U'a'));  // the context "^ b" is unseen: P2(a | b)
  BOOST_TEST(std::exp2(-profile.bits(U'a', U'b', U'a')) == (1.0 + p2) / 2.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(profile.training_bits() > 0.0);
  BOOST_TEST(data::ProfileBuilder().build("empty").empty());
}

BOOST_AUTO_TEST_CASE(keeps_only_the_most_frequent_of_each_order) {
  data::ProfileBuilder builder;
  std::u32string line;
  for (char32_t c = 0x4E00; c < 0x4E00 + 3000; ++c) line += c;  // 3,000 characters, 3,002 trigrams
  std::string utf8;
  for (char32_t c : line) {
    utf8 += static_cast<char>(0xE0 | (c >> 12));
    utf8 += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    utf8 += static_cast<char>(0x80 | (c & 0x3F));
    utf8 += ' ';
  }
  builder.add_line(utf8);
  builder.add_line(utf8);
  const auto profile = builder.build("cjk");
  BOOST_TEST(profile.table(1).keys.size() == data::SourceProfile::kMaxEntries[0]);
  BOOST_TEST(profile.table(2).keys.size() == data::SourceProfile::kMaxEntries[1]);
  BOOST_TEST(profile.table(3).keys.size() == data::SourceProfile::kMaxEntries[2]);
}

BOOST_AUTO_TEST_CASE(refuses_tables_it_could_not_have_written) {
  const auto make = [](data::NgramTable one, data::NgramTable two, data::NgramTable three, double bits,
                        double split = 0.1) {
    return [=] { data::SourceProfile({one, two, three}, data::ProfileFigures{"t.en", bits, split}, "m.bin"); };
  };
  const auto good1 = table({'a'}, {1}), good2 = table({('a' << 21) | 'a'}, {1});
  const auto good3 = table({(std::uint64_t{'a'} << 42) | ('a' << 21) | 'a'}, {1});
  BOOST_TEST(rt::error_message(make(good1, good2, good3, 1.0)) == "no error");
  BOOST_TEST(rt::error_message(make(table({'a', 'b'}, {1}), good2, good3, 1.0)) ==
             "m.bin: damaged: the source profile's 1-gram table has 2 keys and 1 counts");
  BOOST_TEST(rt::error_message(make(table({'b', 'a'}, {1, 1}), good2, good3, 1.0)) ==
             "m.bin: damaged: the source profile's 1-gram table has its keys out of order or out of range at entry 1");
  BOOST_TEST(rt::error_message(make(table({std::uint64_t{1} << 21}, {1}), good2, good3, 1.0)) ==
             "m.bin: damaged: the source profile's 1-gram table has its keys out of order or out of range at entry 0");
  BOOST_TEST(rt::error_message(make(good1, good2, table({7}, {0}), 1.0)) ==
             "m.bin: damaged: the source profile's 3-gram table has a count of 0 at entry 0");
  std::vector<std::uint64_t> keys(data::SourceProfile::kMaxEntries[1] + 1);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = i + 1;
  BOOST_TEST(rt::error_message(make(good1, table(keys, std::vector<std::uint32_t>(keys.size(), 1)), good3, 1.0)) ==
             "m.bin: damaged: the source profile's 2-gram table has 4097 entries, more than 4096");
  BOOST_TEST(rt::error_message(make(good1, {}, good3, 1.0)) ==
             "m.bin: damaged: the source profile has some of its tables empty, not all");
  BOOST_TEST(rt::error_message(make(good1, good2, good3, std::numeric_limits<double>::quiet_NaN())) ==
             "m.bin: damaged: the source profile's own cross-entropy is nan bits per character");
  BOOST_TEST(rt::error_message(make(good1, good2, good3, 1.0, 1.5)) ==
             "m.bin: damaged: the source profile's share of split words is 1.5");
  BOOST_TEST(rt::error_message(make({}, {}, {}, 0.0, 0.0)) == "no error");  // no profile
}

BOOST_AUTO_TEST_CASE(warns_for_another_language_and_not_for_its_own) {
  const data::SourceProfile profile = english_profile();
  data::LanguageCheck english(profile), german(profile);
  data::LanguageCheck short_german(profile);
  short_german.add("zwei Kinder sitzen auf einer blauen Lei@@ ter .");
  BOOST_TEST(short_german.ratio() > 2.0);
  BOOST_TEST(short_german.warning(1.0, "input.de").empty());  // fewer than kMinCharacters: not judged
  for (int i = 0; i < 3; ++i) {
    english.add("a man is playing the guitar in the street .");
    english.add("two children are sitting on a blue ladder .");
    german.add("zwei Kinder sitzen auf einer blauen Lei@@ ter .");
    german.add("ein Mann spielt Gitarre auf der Straße .");
  }
  BOOST_TEST(german.characters() >= data::kMinCharacters);
  BOOST_TEST(english.ratio() < 1.6);
  BOOST_TEST(german.ratio() > 2.0);
  BOOST_TEST(english.warning(data::kLanguageWarningRatio, "input.en").empty());
  BOOST_TEST(german.warning(0.0, "input.de").empty());  // 0: never
  const std::string warning = german.warning(data::kLanguageWarningRatio, "input.de");
  BOOST_TEST(warning.find("input.de does not look like the model's source language (train.en): ") == 0u);
  BOOST_TEST(warning.find(" bits per character under the model's character trigrams of train.en, ") != std::string::npos);
  BOOST_TEST(warning.find("; is it the right file, language and preprocessing?") != std::string::npos);
  std::vector<std::string> lines;
  german.warn({{}, [&](const std::string& line) { lines.push_back(line); }}, 1.0, "input.de");
  BOOST_TEST_REQUIRE(lines.size() == 1u);
  BOOST_TEST(lines[0] == german.warning(1.0, "input.de"));
}

BOOST_AUTO_TEST_CASE(warns_for_text_of_its_language_not_bpe_d) {
  data::ProfileBuilder builder;
  for (int i = 0; i < 10; ++i) {
    builder.add_line("a man is stand@@ ing on a lad@@ der .");  // 2 of 8 words split
  }
  const data::SourceProfile profile = builder.build("train.en");
  data::LanguageCheck unsplit(profile), split(profile);
  for (int i = 0; i < 12; ++i) unsplit.add("a man is standing on a ladder .");  // 96 words
  BOOST_TEST(!unsplit.looks_unsplit());  // too few words to tell
  unsplit.add("a man is standing on a ladder .");
  BOOST_TEST(unsplit.looks_unsplit());
  BOOST_TEST(unsplit.warning(data::kLanguageWarningRatio, "input.en") ==
             "input.en does not look BPE'd with the model's codes: 0.0% of its 104 words are split into pieces, "
             "train.en splits 25.0% of its own; is it the right file, language and preprocessing?");
  BOOST_TEST(unsplit.warning(0.0, "input.en").empty());
  for (int i = 0; i < 13; ++i) split.add("a man is stand@@ ing on a ladder .");  // 1 of 8 words: half the share
  BOOST_TEST(split.warning(data::kLanguageWarningRatio, "input.en").empty());
}

BOOST_AUTO_TEST_CASE(a_model_without_a_profile_is_not_checked) {
  const data::SourceProfile none;
  data::LanguageCheck check(none);
  check.add("zwei Kinder sitzen auf einer Leiter .");
  BOOST_TEST(check.characters() == 0u);
  BOOST_TEST(check.ratio() == 0.0);
  BOOST_TEST(check.warning(1.0, "input.de").empty());
  const data::SourceProfile profile = english_profile();
  data::LanguageCheck nothing_read(profile);
  BOOST_TEST(nothing_read.warning(1.0, "empty.en").empty());
}

BOOST_AUTO_TEST_CASE(the_threshold_is_a_ratio) {
  data::check_language_warning(0.0);
  data::check_language_warning(100.0);
  BOOST_TEST(testing::usage_message([] { data::check_language_warning(150); }) ==
             "--language-warning must be in [0, 100], got 150");
  BOOST_TEST(testing::usage_message([] { data::check_language_warning(-1); }) ==
             "--language-warning must be in [0, 100], got -1");
}

BOOST_AUTO_TEST_SUITE_END()
