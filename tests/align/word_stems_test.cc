// Rare words read as their stems (align/word_stems.h): prefixes by code point, the training's
// rule against the same rule applied word by word to the text, and the rule replayed from the
// words the trained tables name.
#include <boost/test/unit_test.hpp>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "align/word_stems.h"

using namespace rnnsearch;

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

align::Ibm2Corpus corpus_of(const Pairs& pairs) {
  align::Ibm2CorpusBuilder builder;
  for (const auto& [source, target] : pairs) builder.add(source, target);
  return builder.take();
}

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The pairs with each word replaced by rename(side, word), side 0 source, 1 target.
template <typename Rename>
Pairs renamed(const Pairs& pairs, Rename rename) {
  Pairs out;
  for (const auto& [source, target] : pairs) {
    std::string s, t;
    for (const auto& w : words_of(source)) s += (s.empty() ? "" : " ") + rename(0, w);
    for (const auto& w : words_of(target)) t += (t.empty() ? "" : " ") + rename(1, w);
    out.emplace_back(s, t);
  }
  return out;
}

void check_same_corpus(const align::Ibm2Corpus& got, const align::Ibm2Corpus& expected, const std::string& name) {
  BOOST_TEST(got.source == expected.source, name);
  BOOST_TEST(got.target == expected.target, name);
  BOOST_TEST(got.source_begin == expected.source_begin, name);
  BOOST_TEST(got.target_begin == expected.target_begin, name);
  BOOST_TEST(got.source_words == expected.source_words, name);
  BOOST_TEST(got.target_words == expected.target_words, name);
  BOOST_TEST(got.source_types == expected.source_types, name);
  BOOST_TEST(got.target_types == expected.target_types, name);
}

const Pairs kPairs = {
    {"the government governs", "le gouvernement gouverne"},
    {"the governments", "les gouvernements"},
    {"the government", "le gouvernement"},
    {"été a day", "un jour d' été"},
    {"the governor", "le gouverneur"},
};

}  // namespace

BOOST_AUTO_TEST_SUITE(word_stems)

BOOST_AUTO_TEST_CASE(prefixes_count_code_points) {
  BOOST_TEST(align::word_prefix("gouvernement", 4) == "gouv");
  BOOST_TEST(align::word_prefix("été", 2) == "ét");  // é is two bytes
  BOOST_TEST(align::word_prefix("été", 3) == "été");
  BOOST_TEST(align::word_prefix("abc", 4) == "abc");
  BOOST_TEST(align::word_prefix("", 4) == "");
  BOOST_TEST(align::word_prefix("日本語です", 2) == "日本");
  BOOST_TEST(align::word_prefix("\xff\xfe\xfd", 2) == "\xff\xfe");  // not UTF-8: a byte each
  BOOST_TEST(align::word_prefix("ab\xc3", 4) == "ab\xc3");          // a sequence cut off at the end
}

// stem_rare_words gives the corpus the builder makes of the text with each rare, long word
// replaced by its prefix: the same ids (order of first sight), words and pair boundaries.
BOOST_AUTO_TEST_CASE(rare_long_words_become_their_stems) {
  for (const int length : {2, 4, 6}) {
    for (const int below : {1, 2, 3, 10}) {
      std::map<std::string, int> seen[2];
      renamed(kPairs, [&](int side, const std::string& w) { return std::to_string(++seen[side][w]); });
      const Pairs expected = renamed(kPairs, [&](int side, const std::string& w) {
        return seen[side][w] < below ? std::string(align::word_prefix(w, length)) : w;
      });
      const std::string name = "length " + std::to_string(length) + ", below " + std::to_string(below);
      check_same_corpus(align::stem_rare_words(corpus_of(kPairs), {length, below}), corpus_of(expected), name);
    }
  }
  // Words seen twice stay, words seen once of more than 4 code points are read as stems.
  const align::Ibm2Corpus stemmed = align::stem_rare_words(corpus_of(kPairs), {4, 2});
  const std::set<std::string> targets(stemmed.target_words.begin(), stemmed.target_words.end());
  BOOST_TEST((targets == std::set<std::string>{"le", "gouvernement", "gouv", "les", "un", "jour", "d'", "été"}));
  // The rule off: nothing changes.
  check_same_corpus(align::stem_rare_words(corpus_of(kPairs), {0, 5}), corpus_of(kPairs), "length 0");
  check_same_corpus(align::stem_rare_words(corpus_of(kPairs), {4, 0}), corpus_of(kPairs), "below 0");
}

// Replayed from the words the stemmed tables name, the rule gives the training's words on
// the training pairs; on new text, an unseen long word is read as its stem, a word the tables
// name and a short unseen word stay.
BOOST_AUTO_TEST_CASE(the_rule_replays_from_the_named_words) {
  for (const int length : {2, 4, 6}) {
    for (const int below : {1, 2, 3, 10}) {
      const align::StemRule rule{length, below};
      const align::Ibm2Corpus stemmed = align::stem_rare_words(corpus_of(kPairs), rule);
      const std::set<std::string> named[2] = {{stemmed.source_words.begin() + 1, stemmed.source_words.end()},
                                              {stemmed.target_words.begin(), stemmed.target_words.end()}};
      const auto source_named = [&](std::string_view w) { return named[0].count(std::string(w)) > 0; };
      const auto target_named = [&](std::string_view w) { return named[1].count(std::string(w)) > 0; };
      const std::string name = "length " + std::to_string(length) + ", below " + std::to_string(below);
      check_same_corpus(align::stem_unnamed_words(corpus_of(kPairs), length, source_named, target_named), stemmed, name);
    }
  }
  const align::Ibm2Corpus stemmed = align::stem_rare_words(corpus_of(kPairs), {4, 2});
  const std::set<std::string> named(stemmed.target_words.begin(), stemmed.target_words.end());
  const auto target_named = [&](std::string_view w) { return named.count(std::string(w)) > 0; };
  const auto nothing = [](std::string_view) { return false; };
  const align::Ibm2Corpus replayed =
      align::stem_unnamed_words(corpus_of({{"x", "gouvernementales gouvernement zut"}}), 4, nothing, target_named);
  BOOST_TEST((replayed.target_words == std::vector<std::string>{"gouv", "gouvernement", "zut"}));
}

BOOST_AUTO_TEST_SUITE_END()
