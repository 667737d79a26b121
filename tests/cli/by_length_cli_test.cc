// nmt-by-length on the command line: the pooled row equals nmt-bleu on the whole set
// (BLEU and chrF, two systems), the SVG is written, and bad input fails clearly.
#include <boost/test/unit_test.hpp>
#include <sstream>

#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

namespace {

const char* kSource =
    "ein Hund läuft\nzwei Männer spielen Schach im Park\nes regnet\n"
    "eine Frau mit einem roten Hut geht über eine sehr lange Brücke in der Stadt am Abend nach Hause\n"
    "Kinder spielen\n";
const char* kReference =
    "a dog runs\ntwo men play chess in the park\nit rains\n"
    "a woman with a red hat walks home over a very long bridge in the city in the evening\nchildren play\n";
const char* kSystemA =
    "a dog is running\ntwo men play chess in a park\nit is raining\n"
    "a woman in a red hat walks over a long bridge in the city at night\nkids play\n";
const char* kSystemB =
    "the dog runs\nmen play chess\nit rains\na woman walks home over a very long bridge in the evening\n"
    "children are playing\n";

// The last field of the "all" row.
std::string pooled(const std::string& table, std::size_t column) {
  std::istringstream lines(table);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("all ", 0) != 0) continue;
    std::istringstream fields(line);
    std::vector<std::string> row;
    for (std::string f; fields >> f;) row.push_back(f);
    return row.at(column);
  }
  return "";
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(by_length_cli)

BOOST_AUTO_TEST_CASE(all_buckets_pooled_equal_nmt_bleu_on_the_whole_set) {
  const rt::TempDir dir;
  const auto src = dir.write("test.de", kSource), ref = dir.write("test.en", kReference);
  const auto a = dir.write("a.en", kSystemA), b = dir.write("b.en", kSystemB);
  for (const std::string metric : {"bleu", "chrf"}) {
    const auto r = rt::run_process({rt::tool_path("nmt-by-length"), "-s", src, "-r", ref, "-i", a, b, "-n", "A", "B",
                                    "-m", metric, "--bucket-width", "5", "--max-length", "15", "--decimals", "4",
                                    "--svg", (dir.path() / "chart.svg").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("0-5 ") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("15+ ") != std::string::npos, r.out);
    for (const auto& [system, column] : {std::pair{a, std::size_t{2}}, {b, std::size_t{3}}}) {
      const auto whole = rt::run_process({rt::tool_path("nmt-bleu"), ref, "-i", system, "-m", metric, "-b", "-w", "4"});
      BOOST_TEST_REQUIRE(whole.exit_code == 0, whole.err);
      BOOST_TEST(pooled(r.out, column) == trim(whole.out), metric << ": " << r.out);
    }
    BOOST_TEST(rt::read_file((dir.path() / "chart.svg").string()).find("<polyline") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(bad_input_and_usage_fail_with_one_line) {
  const rt::TempDir dir;
  const auto src = dir.write("test.de", kSource), ref = dir.write("test.en", kReference);
  const auto short_system = dir.write("short.en", "a dog runs\n");
  const auto tool = rt::tool_path("nmt-by-length");
  auto r = rt::run_process({tool, "-s", src, "-r", ref, "-i", short_system});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("short.en") != std::string::npos, r.err);
  const auto short_source = dir.write("short.de", "ein Hund\n");
  r = rt::run_process({tool, "-s", short_source, "-r", ref, "-i", ref});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("short.de: has 1 lines, but") != std::string::npos, r.err);
  r = rt::run_process({tool, "-r", ref, "-i", ref});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("--source is required") != std::string::npos, r.err);
  r = rt::run_process({tool, "-s", src, "-r", ref, "-i", ref, "-n", "x", "y"});
  BOOST_TEST(r.exit_code == 2);
  r = rt::run_process({tool, "-s", src, "-r", ref, "-i", ref, "--max-length", "33"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("--max-length must be a positive multiple") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
