// nmt-glossary as users run it: match on stdin and files, its options, extract writing a
// glossary that match reads back, errors naming file and line, exit codes.
#include <boost/test/unit_test.hpp>

#include <filesystem>

#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
namespace rt = rnnsearch::testing;

namespace {

rt::ProcessResult glossary(std::vector<std::string> args, const std::string& input = "") {
  args.insert(args.begin(), rt::tool_path("nmt-glossary"));
  return rt::run_process(args, "", input);
}

const std::string kGlossary = "cat\tKatze\nNew York\tNew York\nNew York City\tNYC\nheart attack\tHerz@@ infarkt\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(glossary_cli)

BOOST_AUTO_TEST_CASE(match_appends_the_target_terms_as_fields) {
  const rt::TempDir dir;
  const auto g = dir.write("glossary", kGlossary);
  const std::string input = "the cat in New York City\ntwo cats\n\nThe Cat had a heart attack\n";
  const auto r = glossary({"match", "-g", g}, input);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out == "the cat in New York City\tKatze\tNYC\ntwo cats\n\nThe Cat had a heart attack\tHerz@@ infarkt\n");
  BOOST_TEST(r.err.empty());
  const auto ignore_case = glossary({"match", "-g", g, "--ignore-case"}, input);
  BOOST_TEST(ignore_case.out ==
             "the cat in New York City\tKatze\tNYC\ntwo cats\n\nThe Cat had a heart attack\tKatze\tHerz@@ infarkt\n");
  const auto terms = glossary({"match", "-g", g, "--terms-only"}, input);
  BOOST_TEST(terms.out == "Katze\tNYC\n\n\nHerz@@ infarkt\n");
  const std::string out = (dir.path() / "out").string();
  const auto to_file = glossary({"match", "-g", g, "-i", dir.write("in", input), "-o", out});
  BOOST_TEST_REQUIRE(to_file.exit_code == 0, to_file.err);
  BOOST_TEST(to_file.out.empty());
  BOOST_TEST(rt::read_file(out) == r.out);
}

BOOST_AUTO_TEST_CASE(match_errors) {
  const rt::TempDir dir;
  const auto bad = dir.write("bad", "cat\tKatze\ndog Hund\n");
  auto r = glossary({"match", "-g", bad}, "a cat\n");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err == "nmt-glossary: " + bad + ":2: expected \"source term<TAB>target term\", found no tab\n");
  const std::string missing = (dir.path() / "missing").string();
  r = glossary({"match", "-g", missing}, "a cat\n");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.rfind("nmt-glossary: " + missing + ": cannot open", 0) == 0u, r.err);
  r = glossary({"match"}, "a cat\n");
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.rfind("nmt-glossary: -g GLOSSARY is required\n", 0) == 0u, r.err);
  r = glossary({"match", "-g", "-"}, "a cat\n");
  BOOST_TEST(r.exit_code == 2);
  r = glossary({"translate"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.rfind("nmt-glossary: unknown command 'translate' (match or extract)\n", 0) == 0u, r.err);
  const auto g = dir.write("glossary", kGlossary);
  r = glossary({"match", "-g", g}, "a cat\n\xff\n");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err == "nmt-glossary: <stdin>:2: invalid UTF-8 at byte 1\n");
}

BOOST_AUTO_TEST_CASE(extract_writes_a_glossary_that_match_reads) {
  const rt::TempDir dir;
  std::string source, target, links;
  for (int i = 0; i < 25; ++i) {
    source += "the red house is small .\n";
    target += "la maison rouge est petite .\n";
    links += "0-0 1-2 2-1 3-3 4-4 5-5\n";
  }
  for (int i = 0; i < 5; ++i) {
    source += "a red car\n";
    target += "une voiture rouge\n";
    links += "0-0 1-2 2-1\n";
  }
  const auto s = dir.write("src", source), t = dir.write("tgt", target), a = dir.write("links", links);
  const std::string out = (dir.path() / "glossary").string();
  const auto r = glossary({"extract", "-s", s, "-t", t, "-a", a, "-o", out, "--max-length", "2"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  // "red" occurs 30 times, always "rouge"; the rest 25 times. "the"/"la", "is"/"est" and
  // "."/"." have no side with a word of 3 letters; "the red" no consistent pair.
  BOOST_TEST(rt::read_file(out) ==
             "red\trouge\nhouse\tmaison\nis small\test petite\nred house\tmaison rouge\n"
             "small\tpetite\nsmall .\tpetite .\n");
  const auto matched = glossary({"match", "-g", out}, "the red car is small\n");
  BOOST_TEST(matched.out == "the red car is small\trouge\test petite\n");
  const auto strict = glossary({"extract", "-s", s, "-t", t, "-a", a, "--min-count", "26", "--max-length", "2"});
  BOOST_TEST(strict.out == "red\trouge\n");
}

BOOST_AUTO_TEST_CASE(extract_errors) {
  const rt::TempDir dir;
  const auto s = dir.write("src", "a b\na b\n"), t = dir.write("tgt", "x y\nx y\n");
  const auto a = dir.write("links", "0-0 1-1\n0-0 1-7\n");
  auto r = glossary({"extract", "-s", s, "-t", t, "-a", a});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err == "nmt-glossary: " + a + ":2: link 1-7 is outside the pair of 2 source and 2 target words\n");
  r = glossary({"extract", "-s", s, "-t", t});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.rfind("nmt-glossary: -s SOURCE, -t TARGET and -a ALIGNMENT are required\n", 0) == 0u, r.err);
  r = glossary({"extract", "-s", s, "-t", t, "-a", a, "--min-share", "2"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.rfind("nmt-glossary: --min-share must be in [0, 1], got 2\n", 0) == 0u, r.err);
  r = glossary({"extract", "-s", s, "-t", dir.write("short", "x y\n"), "-a", a});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("has 1 line, but " + s + " has 2") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
