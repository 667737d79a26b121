// The Moses detokenizer: rule-by-rule cases, a hand-tokenized round trip, and the goldens
// of shared/golden/moses/detok (detokenizer.perl -l L on shared/golden/moses/tok).
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "support/golden_cases.h"
#include "support/shared_data.h"
#include "text/detokenizer.h"

using rnnsearch::text::Detokenizer;
using rnnsearch::text::DetokenizerOptions;
namespace rt = rnnsearch::testing;

namespace {

std::string detok(const std::string& language, const std::string& line, bool unescape = true) {
  DetokenizerOptions options;
  options.language = language;
  options.unescape = unescape;
  return Detokenizer(options).detokenize(line);
}

void check_detok(const std::string& language, const std::string& in, const std::string& expected) {
  BOOST_TEST(detok(language, in) == expected, "-l " << language << " on [" << in << "]");
}

// Lines of a file that ends with a newline, kept byte for byte.
std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines = rt::split(rt::read_file(path), '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// "val.fr.tok.a.detok" -> fr, "tricky.tok-de.plain.detok" -> de.
std::string golden_language(const std::string& name) {
  if (name.rfind("val.", 0) == 0) return name.substr(4, 2);
  const std::size_t dash = name.find("tok-");
  return dash == std::string::npos ? "" : name.substr(dash + 4, 2);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(detokenizer)

BOOST_AUTO_TEST_CASE(unescapes_the_tokenizer_entities) {
  check_detok("en", "a &amp; b &#124; c &lt; d &gt; e", "a & b | c < d > e");
  check_detok("en", "&#91; x &#93;", "[x]");
  check_detok("en", "&amp;lt; stays escaped once", "&lt; stays escaped once");
  check_detok("en", "&bar; &bra; &ket;", "| []");
  BOOST_TEST(detok("en", "a &amp; b &quot;", false) == "a &amp; b &quot;");
}

BOOST_AUTO_TEST_CASE(joins_aggressive_hyphens) {
  check_detok("en", "a well @-@ known state @-@ of @-@ the @-@ art car", "a well-known state-of-the-art car");
  check_detok("de", "@-@ x", "-x");
  check_detok("en", "a @-@ @-@ b", "a-@-@ b");  // non-overlapping, as s///g
}

BOOST_AUTO_TEST_CASE(attaches_punctuation_and_currency) {
  check_detok("en", "Hello , world !", "Hello, world!");
  check_detok("en", "costs $ 5 ( or € 4 ) .", "costs $5 (or €4).");
  check_detok("en", "¿ Qué ? ¡ Sí !", "¿Qué? ¡Sí!");
  check_detok("en", "100 % , { a } [ b ]", "100%, {a} [b]");
  check_detok("de", "Er sagt : Nein .", "Er sagt: Nein.");
}

BOOST_AUTO_TEST_CASE(pairs_quotes) {
  check_detok("en", "\" Hello , \" she said , \" yes . \"", "\"Hello,\" she said, \"yes.\"");
  check_detok("en", "\" a \" b \" c \"", "\"a\" b \"c\"");
  // A lone apostrophe token opens a pair too, as in Moses: it shifts the pairing after it.
  check_detok("en", "it &apos; s a &apos; quoted &apos; word", "it 's a' quoted 'word");
  check_detok("de", "Er sagte „ gut “ und ging .", "Er sagte „gut“ und ging.");
  check_detok("en", "` a ` b", "`a` b");
}

BOOST_AUTO_TEST_CASE(english_contractions_and_possessives) {
  check_detok("en", "I don 't think they 'll come", "I don't think they'll come");
  check_detok("en", "the Joneses ' house", "the Joneses' house");
  check_detok("de", "don 't", "don 't");  // no English rules for de
}

BOOST_AUTO_TEST_CASE(french_and_italian_rules) {
  check_detok("fr", "L' homme qu' il a vu", "L'homme qu'il a vu");
  check_detok("fr", "Quoi ? Oui ! Non : 5 % ; a \\ b", "Quoi ? Oui ! Non : 5 % ; a \\ b");
  check_detok("fr", "Bon , d' accord .", "Bon, d'accord.");
  check_detok("it", "l' uomo ?", "l'uomo?");
  check_detok("en", "l' uomo", "l' uomo");
}

BOOST_AUTO_TEST_CASE(czech_rules) {
  check_detok("cs", "je to 3 , 5 km", "je to 3,5 km");
  check_detok("cs", "pokud - li to , e - mail mi pošli", "pokud-li to, e-mail mi pošli");
  check_detok("cs", "Řekl „ ano “ .", "Řekl „ano“.");
}

BOOST_AUTO_TEST_CASE(cjk_words_join) {
  check_detok("en", "中文 测试 。 ok", "中文测试。 ok");
  check_detok("en", "한국어 문장 .", "한국어문장.");
}

BOOST_AUTO_TEST_CASE(tag_and_blank_lines_pass_through) {
  check_detok("en", "<seg id=\"1\"> a , b </seg>", "<seg id=\"1\"> a , b </seg>");
  check_detok("en", "", "");
  check_detok("en", " \t ", " \t ");
  check_detok("en", "  a  ,  b  ", "a , b");  // an empty token blocks the shift
}

BOOST_AUTO_TEST_CASE(round_trip_on_hand_tokenized_sentences) {
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"en", "A man in a blue shirt is standing on a ladder , cleaning a window .",
       "A man in a blue shirt is standing on a ladder, cleaning a window."},
      {"en", "Two dogs &apos; owners aren &apos;t happy ( really ) !",
       "Two dogs' owners aren't happy (really)!"},
      {"de", "Ein Mann mit einem orangefarbenen Hut , der etwas anstarrt .",
       "Ein Mann mit einem orangefarbenen Hut, der etwas anstarrt."},
      {"fr", "Un homme à l&apos; extérieur , près d&apos; un arbre ?",
       "Un homme à l'extérieur, près d'un arbre ?"},
      {"en", "A so @-@ called &quot; self @-@ driving &quot; car costs $ 1,000 .",
       "A so-called \"self-driving\" car costs $1,000."},
  };
  for (const auto& [language, tokenized, original] : cases) check_detok(language, tokenized, original);
}

BOOST_AUTO_TEST_CASE(matches_moses_goldens) {
  const std::string dir = rt::shared_path("golden/moses/detok");
  if (!rt::require_shared(dir)) return;

  // file -> line numbers allowed to differ, from the known-differences table.
  std::map<std::string, std::set<int>> known;
  const std::string table = rt::source_dir() + "/tests/text/detokenizer_known_differences.tsv";
  const std::vector<std::string> rows = read_lines(table);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const std::vector<std::string> fields = rt::split(rows[r], '\t');
    BOOST_TEST_REQUIRE(fields.size() == 3u, table << ":" << r + 1 << ": expected file, line, reason");
    known[fields[0]].insert(std::stoi(fields[1]));
  }

  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const std::string suffix = ".detok";
    if (name.size() <= suffix.size() || name.substr(name.size() - suffix.size()) != suffix) continue;
    const std::string source = name.substr(0, name.size() - suffix.size());
    const std::string language = golden_language(name);
    BOOST_TEST_REQUIRE(!language.empty(), "no language in " << name);

    const std::vector<std::string> input = read_lines(rt::shared_path("golden/moses/tok/" + source));
    const std::vector<std::string> expected = read_lines(entry.path().string());
    BOOST_TEST_REQUIRE(input.size() == expected.size(), name);

    DetokenizerOptions options;
    options.language = language;
    const Detokenizer detokenizer(options);
    const std::set<int>& allowed = known[name];
    std::size_t same = 0;
    for (std::size_t i = 0; i < input.size(); ++i) {
      const int line = static_cast<int>(i) + 1;
      const std::string got = detokenizer.detokenize(input[i]);
      const bool listed = allowed.count(line) != 0;
      if (got == expected[i]) {
        ++same;
        BOOST_TEST(!listed, name << ":" << line << " is listed as a known difference but matches");
      } else {
        BOOST_TEST(listed, name << ":" << line << ": got [" << got << "], Moses [" << expected[i] << "]");
      }
    }
    const double rate = input.empty() ? 1.0 : static_cast<double>(same) / input.size();
    BOOST_TEST_MESSAGE(name << ": " << same << "/" << input.size() << " lines identical");
    BOOST_TEST(rate >= 0.995, name << ": " << rate);
    ++files;
  }
  BOOST_TEST(files == 24);
}

BOOST_AUTO_TEST_SUITE_END()
