// The demo corpus: deterministic for a seed, held-out pairs really held out, gold links
// that cover every word and stay inside the pair, raw text that nmt-tokenize turns back
// into the tokens the links count, and the grammar's promises (agreement, verb-final
// clauses, many-to-one and one-to-many words) visible in the pairs.
#include <boost/test/unit_test.hpp>
#include <map>
#include <set>

#include "demo/generated_corpus.h"
#include "demo/lexicon.h"
#include "text/tokenizer.h"

namespace demo = rnnsearch::demo;

namespace {

demo::GeneratedCorpusOptions sizes(long train, long valid, long test, std::uint64_t seed = 1) {
  demo::GeneratedCorpusOptions config;
  config.train = train;
  config.valid = valid;
  config.test = test;
  config.seed = seed;
  return config;
}

const demo::Split& split(const std::vector<demo::Split>& splits, const std::string& name) {
  for (const auto& s : splits) {
    if (s.name == name) return s;
  }
  throw std::runtime_error("no split " + name);
}

std::vector<std::string> texts(const demo::Split& split) {
  std::vector<std::string> out;
  for (const auto& pair : split.pairs) out.push_back(demo::tokenized_text(pair.source) + " ||| " + demo::tokenized_text(pair.target));
  return out;
}

// The target tokens linked to source token s.
std::vector<int> targets_of(const demo::SentencePair& pair, int s) {
  std::vector<int> out;
  for (const auto& link : pair.links) {
    if (link.source == s) out.push_back(link.target);
  }
  return out;
}
std::vector<int> sources_of(const demo::SentencePair& pair, int t) {
  std::vector<int> out;
  for (const auto& link : pair.links) {
    if (link.target == t) out.push_back(link.source);
  }
  return out;
}

bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(demo_corpus)

BOOST_AUTO_TEST_CASE(a_seed_gives_the_same_corpus_and_another_seed_another) {
  const auto a = demo::generate_corpus(sizes(300, 20, 20, 5));
  const auto b = demo::generate_corpus(sizes(300, 20, 20, 5));
  const auto c = demo::generate_corpus(sizes(300, 20, 20, 6));
  BOOST_TEST_REQUIRE(a.size() == 3u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    BOOST_TEST(a[i].name == b[i].name);
    BOOST_TEST(texts(a[i]) == texts(b[i]), boost::test_tools::per_element());
  }
  BOOST_TEST(texts(split(a, "train")) != texts(split(c, "train")));
}

BOOST_AUTO_TEST_CASE(held_out_pairs_are_new_and_the_test_set_ignores_the_training_size) {
  const auto small = demo::generate_corpus(sizes(100, 50, 50));
  const auto large = demo::generate_corpus(sizes(3000, 50, 50));
  BOOST_TEST(texts(split(small, "test")) == texts(split(large, "test")), boost::test_tools::per_element());
  std::set<std::string> held_out;
  for (const char* name : {"valid", "test"}) {
    for (const auto& pair : split(large, name).pairs) {
      BOOST_TEST(held_out.insert(demo::tokenized_text(pair.source)).second, "repeated: " << demo::tokenized_text(pair.source));
    }
  }
  for (const auto& pair : split(large, "train").pairs) {
    BOOST_TEST(held_out.count(demo::tokenized_text(pair.source)) == 0u);
  }
  BOOST_TEST(split(large, "train").pairs.size() == 3000u);
  BOOST_TEST(demo::generate_corpus(sizes(10, 0, 0)).size() == 1u);  // empty splits are left out
}

BOOST_AUTO_TEST_CASE(every_word_has_a_link_and_links_stay_inside_the_pair) {
  const auto corpus = demo::generate_corpus(sizes(2000, 0, 0, 3));
  for (const auto& pair : split(corpus, "train").pairs) {
    std::vector<int> source_links(pair.source.size()), target_links(pair.target.size());
    for (std::size_t k = 0; k < pair.links.size(); ++k) {
      const auto& link = pair.links[k];
      BOOST_TEST_REQUIRE(link.source >= 0);
      BOOST_TEST_REQUIRE(link.source < static_cast<int>(pair.source.size()));
      BOOST_TEST_REQUIRE(link.target >= 0);
      BOOST_TEST_REQUIRE(link.target < static_cast<int>(pair.target.size()));
      if (k > 0) BOOST_TEST((pair.links[k - 1] < link));  // sorted, no duplicates
      ++source_links[link.source];
      ++target_links[link.target];
    }
    for (int n : source_links) BOOST_TEST(n >= 1);
    for (int n : target_links) BOOST_TEST(n >= 1);
  }
}

BOOST_AUTO_TEST_CASE(the_tokenizer_gives_back_the_tokens_the_links_count) {
  namespace tx = rnnsearch::text;
  tx::TokenizerOptions options;
  options.escape = false;
  const auto corpus = demo::generate_corpus(sizes(500, 0, 0, 4));
  for (const char* language : {"xa", "xb"}) {
    options.language = language;
    const tx::Tokenizer tokenizer(options, tx::NonbreakingPrefixes::built_in("en"));
    for (const auto& pair : split(corpus, "train").pairs) {
      const auto& tokens = std::string(language) == "xa" ? pair.source : pair.target;
      const std::string raw = demo::raw_text(tokens);
      BOOST_TEST(raw[0] >= 'A');
      BOOST_TEST(raw[0] <= 'Z');
      BOOST_TEST(tokenizer.tokenize(raw) == demo::tokenized_text(tokens), raw);
    }
  }
  BOOST_TEST(demo::raw_text({"ta", "dala", "kuti", ",", "ke", "ek", "sulo", "."}) == "Ta dala kuti, ke ek sulo.");
}

BOOST_AUTO_TEST_CASE(the_pairs_show_the_grammar) {
  const auto corpus = demo::generate_corpus(sizes(3000, 0, 0, 9));
  const auto& pairs = split(corpus, "train").pairs;
  std::map<std::string, std::string> noun_ending_after = {{"do", "o"}, {"da", "a"}, {"di", "oi"}, {"de", "ai"},
                                                          {"en", "o"}, {"ena", "a"}, {"eni", "oi"}, {"ene", "ai"}};
  int past = 0, very = 0, two_word_nouns = 0;
  for (const auto& pair : pairs) {
    // The full stop ends both sides and links to itself.
    BOOST_TEST(pair.source.back() == ".");
    BOOST_TEST(targets_of(pair, static_cast<int>(pair.source.size()) - 1) ==
               std::vector<int>{static_cast<int>(pair.target.size()) - 1});
    for (int t = 0; t + 1 < static_cast<int>(pair.target.size()); ++t) {
      // Agreement: a determiner's form matches the ending of the noun after it.
      const auto det = noun_ending_after.find(pair.target[t]);
      if (det != noun_ending_after.end()) BOOST_TEST(ends_with(pair.target[t + 1], det->second), pair.target[t + 1]);
    }
    for (int s = 0; s < static_cast<int>(pair.source.size()); ++s) {
      const auto linked = targets_of(pair, s);
      if (pair.source[s] == "wil") {
        // Many-to-one: the past auxiliary and its verb are one Borish form, which ends
        // its clause (followed by the negation "nu", a comma or the full stop).
        ++past;
        BOOST_TEST_REQUIRE(linked.size() == 1u);
        const int t = linked[0];
        BOOST_TEST(sources_of(pair, t).size() == 2u);
        BOOST_TEST((ends_with(pair.target[t], "ut") || ends_with(pair.target[t], "un")), pair.target[t]);
        const std::string& next = pair.target[static_cast<std::size_t>(t) + 1];
        BOOST_TEST((next == "nu" || next == "," || next == "."), next);
      } else if (pair.source[s] == "moro") {
        ++very;
        BOOST_TEST_REQUIRE(linked.size() == 1u);
        BOOST_TEST(pair.target[linked[0]].rfind("ul", 0) == 0u, pair.target[linked[0]]);
      } else if (linked.size() == 2u) {
        // One-to-many: a two-word noun is its head and the modifier right after it.
        ++two_word_nouns;
        BOOST_TEST(linked[1] == linked[0] + 1);
        BOOST_TEST(ends_with(pair.target[linked[1]], "ek"), pair.target[linked[1]]);
      }
    }
  }
  BOOST_TEST(past > 500);
  BOOST_TEST(very > 100);
  BOOST_TEST(two_word_nouns > 300);
}

BOOST_AUTO_TEST_CASE(bad_configurations_name_the_option) {
  auto config = sizes(-1, 0, 0);
  config.output_dir = "corpus";
  BOOST_CHECK_EXCEPTION(config.validate(), std::exception, [](const std::exception& e) {
    return std::string(e.what()).find("--train must be in [0, 10000000], got -1") != std::string::npos;
  });
  config = sizes(1, 1, 1);
  config.output_dir = "corpus";
  config.target_language = config.source_language;
  BOOST_CHECK_THROW(config.validate(), std::exception);
}

BOOST_AUTO_TEST_CASE(writing_needs_an_output_directory) {
  auto config = sizes(1, 1, 1);
  BOOST_CHECK_EXCEPTION(demo::write_generated_corpus(config), std::exception, [](const std::exception& e) {
    return std::string(e.what()) == "--output-dir is required";
  });
}

BOOST_AUTO_TEST_SUITE_END()
