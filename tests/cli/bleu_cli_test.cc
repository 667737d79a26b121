// nmt-bleu as users run it: stdin, several systems, errors and exit codes, help and
// man page agreeing, significance tests behaving.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "support/run_process.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
namespace rt = rnnsearch::testing;

namespace {

using Files = rt::TempDir;

rt::ProcessResult bleu(std::vector<std::string> args, const std::string& stdin_data = "") {
  args.insert(args.begin(), rt::tool_path("nmt-bleu"));
  return rt::run_process(args, "", stdin_data, {"SACREBLEU_FORMAT", "SACREBLEU_SEED"});
}

const std::string kRef =
    "The cat sat on the mat.\nA man is riding a bicycle.\nTwo dogs play in the snow.\n"
    "The weather is nice today.\nShe reads a book in the garden.\n";
const std::string kHyp =
    "The cat sat on a mat.\nA man rides a bicycle.\nTwo dogs are playing in snow.\n"
    "Nice weather today.\nShe is reading a book in the garden.\n";

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

BOOST_AUTO_TEST_CASE(stdin_and_file_input_give_the_same_score) {
  Files f;
  const auto ref = f.write("ref", kRef);
  const auto from_file = bleu({ref, "-i", f.write("hyp", kHyp), "-f", "text"});
  const auto from_stdin = bleu({ref, "-f", "text"}, kHyp);
  BOOST_TEST(from_file.exit_code == 0);
  BOOST_TEST(from_stdin.exit_code == 0);
  BOOST_TEST(from_file.out == from_stdin.out);
  BOOST_TEST(from_file.out.rfind("BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = ", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(crlf_input_scores_like_lf_input) {
  Files f;
  const auto ref = f.write("ref", kRef);
  std::string crlf;
  for (char c : kHyp) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  BOOST_TEST(bleu({ref, "-f", "text"}, crlf).out == bleu({ref, "-f", "text"}, kHyp).out);
}

BOOST_AUTO_TEST_CASE(line_count_mismatch_is_an_error_naming_both_files) {
  Files f;
  const auto ref = f.write("ref", kRef);
  const auto hyp = f.write("hyp", "only one line\n");
  const auto r = bleu({ref, "-i", hyp});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err == "nmt-bleu: " + hyp + ": 1 line, but the reference " + ref +
                          " has 5 lines; every line needs its reference\n");
}

BOOST_AUTO_TEST_CASE(invalid_utf8_names_file_and_line) {
  Files f;
  const auto ref = f.write("ref", kRef);
  const auto hyp = f.write("hyp", "ok\nok\nbad \xFF byte\nok\nok\n");
  const auto r = bleu({ref, "-i", hyp});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err == "nmt-bleu: " + hyp + ":3: invalid UTF-8 at byte 5\n");
}

BOOST_AUTO_TEST_CASE(unreadable_file_is_an_error) {
  const auto r = bleu({"/nonexistent/ref.txt", "-i", "/nonexistent/hyp.txt"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("nmt-bleu: /nonexistent/ref.txt: cannot open") == 0u);
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
  Files f;
  const auto ref = f.write("ref", kRef);
  BOOST_TEST(bleu({ref, "--no-such-option"}, kHyp).exit_code == 2);
  BOOST_TEST(bleu({ref, "-m", "meteor"}, kHyp).exit_code == 2);
  BOOST_TEST(bleu({ref, "-tok", "moses"}, kHyp).exit_code == 2);
  BOOST_TEST(bleu({ref, "-m", "bleu", "chrf", "-sl"}, kHyp).exit_code == 2);
  BOOST_TEST(bleu({ref, "--paired-bs"}, kHyp).exit_code == 2);
  BOOST_TEST(bleu({ref, "-t", "wmt17", "-l", "en-de"}, kHyp).exit_code == 2);
  BOOST_TEST(bleu({}, kHyp).exit_code == 2);
  const auto r = bleu({ref, "-w", "-3"}, kHyp);
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("--width must be in [0, 20], got -3") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_empty_last_tab_field_is_missing_as_in_sacrebleu) {
  // Lines lose trailing whitespace before the split, so "e f\t" has one field: sacreBLEU
  // stops there too ("FATAL: line 2: expected 2 fields, but found 1.", exit 17).
  Files f;
  const auto refs = f.write("refs", "a b\tc d\ne f\t\n");
  const auto r = bleu({refs, "-nr", "2", "-f", "text"}, "a b\ne f\n");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err == "nmt-bleu: " + refs + ":2: expected 2 tab-separated references, found 1\n");
}

BOOST_AUTO_TEST_CASE(tab_separated_references_equal_two_reference_files) {
  Files f;
  const auto ref1 = f.write("ref1", "a b c d\ne f g h\n");
  const auto ref2 = f.write("ref2", "a b x d\ne f g y\n");
  const auto joined = f.write("refs", "a b c d\ta b x d\ne f g h\te f g y\n");
  const std::string hyp = "a b x d\ne f g y\n";
  const auto two_files = bleu({ref1, ref2, "-f", "text"}, hyp);
  const auto one_file = bleu({joined, "-nr", "2", "-f", "text"}, hyp);
  BOOST_TEST(two_files.exit_code == 0);
  BOOST_TEST(two_files.out == one_file.out);
  BOOST_TEST(two_files.out.find("nrefs:2") != std::string::npos);
  BOOST_TEST(bleu({joined, "-nr", "3"}, hyp).exit_code == 1);
}

BOOST_AUTO_TEST_CASE(stdin_tab_columns_are_systems_in_a_table) {
  Files f;
  const auto ref = f.write("ref", kRef);
  std::string two;
  std::istringstream a(kHyp), b(kRef);
  for (std::string x, y; std::getline(a, x) && std::getline(b, y);) two += x + "\t" + y + "\n";
  const auto r = bleu({ref, "-f", "text"}, two);
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out.find("System 1") != std::string::npos);
  BOOST_TEST(r.out.find("System 2") != std::string::npos);
  BOOST_TEST(r.out.find("100.0") != std::string::npos);  // system 2 is the reference
}

BOOST_AUTO_TEST_CASE(paired_bootstrap_is_seeded_and_separates_systems) {
  Files f;
  const std::string dir = rt::shared_path("golden/bleu/data");
  if (!rt::require_shared(dir + "/wmt17.en-de.ref.de")) return;
  const std::vector<std::string> args = {dir + "/wmt17.en-de.ref.de", "-i", dir + "/wmt17.en-de.uedin-nmt.de",
                                         dir + "/wmt17.en-de.online-F.de", dir + "/wmt17.en-de.uedin-nmt.de",
                                         "--paired-bs", "-m", "bleu", "chrf", "-f", "json", "--threads", "2"};
  const auto r1 = bleu(args);
  const auto r2 = bleu(args);
  BOOST_REQUIRE(r1.exit_code == 0);
  BOOST_TEST(r1.out == r2.out);  // same seed, same figures
  // uedin-nmt (28.3) against online-F (15.5): the difference is significant.
  const std::regex p_value("\"p_value\": ([0-9.e-]+)");
  std::smatch m;
  BOOST_REQUIRE(std::regex_search(r1.out, m, p_value));
  BOOST_TEST(std::stod(m[1]) < 0.01);
  BOOST_TEST(r1.out.find("\"system\": \"Baseline: " + dir + "/wmt17.en-de.uedin-nmt.de\"") != std::string::npos);
  // The baseline given again is skipped, as sacreBLEU does: two systems remain.
  BOOST_TEST(std::count(r1.out.begin(), r1.out.end(), '{') == 2 + 2 * 2);
  const auto text = bleu({dir + "/wmt17.en-de.ref.de", "-i", dir + "/wmt17.en-de.uedin-nmt.de",
                          dir + "/wmt17.en-de.online-F.de", "--paired-bs", "-f", "text"});
  BOOST_TEST(text.out.find(" - BLEU       nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0") !=
             std::string::npos);
  BOOST_TEST(text.out.find("(p = 0.0010)*") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(paired_bootstrap_of_a_nearly_identical_system_is_not_significant) {
  Files f;
  const std::string dir = rt::shared_path("golden/bleu/data");
  if (!rt::require_shared(dir + "/wmt17.en-de.uedin-nmt.de")) return;
  // The baseline with its first line changed: a tiny difference chance explains.
  std::ifstream in(dir + "/wmt17.en-de.uedin-nmt.de");
  std::string line, changed;
  for (int i = 0; std::getline(in, line); ++i) changed += (i == 0 ? "Ein ganz anderer Satz." : line) + "\n";
  const auto variant = f.write("variant", changed);
  const auto r = bleu({dir + "/wmt17.en-de.ref.de", "-i", dir + "/wmt17.en-de.uedin-nmt.de", variant, "--paired-bs",
                       "-f", "json"});
  BOOST_REQUIRE(r.exit_code == 0);
  const std::regex p_value("\"p_value\": ([0-9.e-]+)");
  std::smatch m;
  BOOST_REQUIRE(std::regex_search(r.out, m, p_value));
  BOOST_TEST(std::stod(m[1]) > 0.05);
}

BOOST_AUTO_TEST_CASE(confidence_interval_of_one_system) {
  Files f;
  const auto ref = f.write("ref", kRef);
  const auto r = bleu({ref, "-ci", "-f", "text", "--seed", "7"}, kHyp);
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out.find("|bs:1000|seed:7|") != std::string::npos);
  BOOST_TEST(r.out.find("(\xce\xbc = ") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(version_names_the_toolchain_and_sacrebleu) {
  const auto r = bleu({"--version"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(first_line(r.out).find("nmt-bleu (rnnsearch) ") == 0u);
  BOOST_TEST(bleu({"-V"}).out == r.out);
}
