// nmt-terms as users run it: the term lines, then BLEU and chrF exactly as nmt-bleu prints
// them for the same files; JSON; -o; errors naming the file, exit codes.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <sstream>

#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
namespace rt = rnnsearch::testing;

namespace {

rt::ProcessResult run(const std::string& tool, std::vector<std::string> args) {
  args.insert(args.begin(), rt::tool_path(tool));
  return rt::run_process(args, "", "", {"SACREBLEU_FORMAT", "SACREBLEU_SEED"});
}

const std::string kRef =
    "The cat sat on the New York mat.\nTwo cats play in the snow.\nA dog and a cat.\nNothing to see.\n";
const std::string kHyp =
    "The cat sat on a New York mat.\nTwo cats are playing in snow.\nA cat and a dog.\nNothing to see here.\n";
// Line 1: both terms; line 2: "cat" is not in "cats"; line 3: "cat" once of twice, "dog";
// line 4: none expected. Usage 2 + 0 + 2 of 6; exact match the same.
const std::string kTerms = "cat\tNew York\ncat\ncat\tcat\tdog\n\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(terms_cli)

BOOST_AUTO_TEST_CASE(term_lines_then_nmt_bleus_lines) {
  const rt::TempDir dir;
  const auto ref = dir.write("ref", kRef), hyp = dir.write("hyp", kHyp), terms = dir.write("terms", kTerms);
  const auto r = run("nmt-terms", {"-r", ref, "-i", hyp, "-t", terms});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto bleu = run("nmt-bleu", {ref, "-i", hyp, "-m", "bleu", "chrf", "-f", "text"});
  BOOST_TEST_REQUIRE(bleu.exit_code == 0, bleu.err);
  BOOST_TEST(r.out == "term usage: 66.7% (4 of 6 terms in 3 lines)\nexact match: 66.7% (4 of 6 terms)\n" + bleu.out);
  BOOST_TEST(r.err.empty());
  const auto wide = run("nmt-terms", {"-r", ref, "-i", hyp, "-t", terms, "-w", "3"});
  const auto bleu_wide = run("nmt-bleu", {ref, "-i", hyp, "-m", "bleu", "chrf", "-f", "text", "-w", "3"});
  BOOST_TEST(wide.out == "term usage: 66.667% (4 of 6 terms in 3 lines)\nexact match: 66.667% (4 of 6 terms)\n" +
                             bleu_wide.out);
}

BOOST_AUTO_TEST_CASE(lowercase_matches_terms_case_insensitively_and_leaves_bleu_alone) {
  const rt::TempDir dir;
  const auto ref = dir.write("ref", kRef), hyp = dir.write("hyp", kHyp);
  const auto terms = dir.write("terms", "the\tnew york\n\n\nnothing\n");
  const auto exact = run("nmt-terms", {"-r", ref, "-i", hyp, "-t", terms});
  const auto lower = run("nmt-terms", {"-r", ref, "-i", hyp, "-t", terms, "--lowercase"});
  const auto bleu = run("nmt-bleu", {ref, "-i", hyp, "-m", "bleu", "chrf", "-f", "text"});
  BOOST_TEST(exact.out == "term usage: 0.0% (0 of 3 terms in 2 lines)\nexact match: 0.0% (0 of 3 terms)\n" + bleu.out);
  BOOST_TEST(lower.out == "term usage: 100.0% (3 of 3 terms in 2 lines)\nexact match: 100.0% (3 of 3 terms)\n" +
                              bleu.out);
}

BOOST_AUTO_TEST_CASE(bleu_and_chrf_equal_nmt_bleus_on_a_real_test_set) {
  const std::string data = rt::shared_path("golden/bleu/data");
  if (!rt::require_shared(data + "/wmt17.en-de.ref.de")) return;
  const rt::TempDir dir;
  const std::string ref = data + "/wmt17.en-de.ref.de", hyp = data + "/wmt17.en-de.uedin-nmt.de";
  // The reference's third word of each line as its term (none for a shorter line).
  std::string terms;
  std::istringstream lines(rt::read_file(ref));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string w1, w2, w3;
    words >> w1 >> w2 >> w3;
    terms += w3 + "\n";
  }
  const auto r = run("nmt-terms", {"-r", ref, "-i", hyp, "-t", dir.write("terms", terms), "-f", "json"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto bleu = run("nmt-bleu", {ref, "-i", hyp, "-m", "bleu", "chrf"});
  BOOST_TEST_REQUIRE(bleu.exit_code == 0, bleu.err);
  const std::string scores = " \"scores\": " + bleu.out.substr(0, bleu.out.size() - 1) + "\n}\n";
  BOOST_TEST(r.out.size() > scores.size());
  BOOST_TEST(r.out.substr(r.out.size() - scores.size()) == scores);
  BOOST_TEST(r.out.rfind("{\n \"term_usage\": ", 0) == 0u, r.out.substr(0, 200));
  BOOST_TEST(r.out.find("\n \"lines\": 3004,\n") != std::string::npos, r.out.substr(0, 400));
}

BOOST_AUTO_TEST_CASE(json_holds_the_counts_and_nmt_bleus_json) {
  const rt::TempDir dir;
  const auto ref = dir.write("ref", kRef), hyp = dir.write("hyp", kHyp), terms = dir.write("terms", kTerms);
  const auto r = run("nmt-terms", {"-r", ref, "-i", hyp, "-t", terms, "-f", "json"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto bleu = run("nmt-bleu", {ref, "-i", hyp, "-m", "bleu", "chrf"});
  BOOST_TEST(r.out == "{\n \"term_usage\": 66.7,\n \"exact_match\": 66.7,\n \"terms\": 6,\n \"terms_used\": 4,\n"
                      " \"terms_matched\": 4,\n \"lines\": 4,\n \"lines_with_terms\": 3,\n \"case\": \"mixed\",\n"
                      " \"scores\": " + bleu.out.substr(0, bleu.out.size() - 1) + "\n}\n");
}

BOOST_AUTO_TEST_CASE(output_file_is_written_and_nothing_on_stdout) {
  const rt::TempDir dir;
  const auto ref = dir.write("ref", kRef), hyp = dir.write("hyp", kHyp), terms = dir.write("terms", kTerms);
  const std::string out = (dir.path() / "report").string();
  const auto r = run("nmt-terms", {"-r", ref, "-i", hyp, "-t", terms, "-o", out});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(rt::read_file(out) == run("nmt-terms", {"-r", ref, "-i", hyp, "-t", terms}).out);
}

BOOST_AUTO_TEST_CASE(errors_name_the_file_and_exit_1) {
  const rt::TempDir dir;
  const auto ref = dir.write("ref", kRef), hyp = dir.write("hyp", kHyp);
  const auto short_terms = dir.write("short", "cat\n\n");
  auto r = run("nmt-terms", {"-r", ref, "-i", hyp, "-t", short_terms});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err == "nmt-terms: " + short_terms + ": has 2 lines, but " + hyp + " has 4; the files must be line-aligned\n");

  const auto short_ref = dir.write("short_ref", "The cat.\n");
  r = run("nmt-terms", {"-r", short_ref, "-i", hyp, "-t", dir.write("terms", kTerms)});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err.find(short_ref) != std::string::npos, r.err);

  const std::string missing = (dir.path() / "no-such-terms").string();
  r = run("nmt-terms", {"-r", ref, "-i", hyp, "-t", missing});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.rfind("nmt-terms: " + missing + ": cannot open", 0) == 0u, r.err);

  const auto bad = dir.write("bad", "cat\n\xff\n\n\n");
  r = run("nmt-terms", {"-r", ref, "-i", hyp, "-t", bad});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err == "nmt-terms: " + bad + ":2: invalid UTF-8 at byte 1\n");
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
  const rt::TempDir dir;
  const auto ref = dir.write("ref", kRef), hyp = dir.write("hyp", kHyp), terms = dir.write("terms", kTerms);
  auto r = run("nmt-terms", {"-r", ref, "-i", hyp});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.rfind("nmt-terms: -t TERMS is required\n", 0) == 0u, r.err);
  r = run("nmt-terms", {"-i", hyp, "-t", terms});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.rfind("nmt-terms: -r REFERENCE is required\n", 0) == 0u, r.err);
  r = run("nmt-terms", {"-r", ref, "-i", "-", "-t", terms});
  BOOST_TEST(r.exit_code == 2);
  r = run("nmt-terms", {"-r", ref, "-i", hyp, "-t", terms, "-w", "21"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.rfind("nmt-terms: --width must be in [0, 20], got 21\n", 0) == 0u, r.err);
  r = run("nmt-terms", {"-r", ref, "-i", hyp, "-t", terms, "-f", "xml"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("--format must be json or text, got 'xml'") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
