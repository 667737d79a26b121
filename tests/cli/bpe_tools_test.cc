// nmt-bpe and nmt-vocab as scripts run them in place of subword-nmt.
#include <boost/test/unit_test.hpp>
#include <cstdio>

#include "support/golden_cases.h"
#include "support/gzip_text.h"
#include "support/run_process.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

namespace {


rt::ProcessResult run(const std::string& tool, std::vector<std::string> args, const std::string& input = "") {
  args.insert(args.begin(), rt::tool_path(tool));
  return rt::run_process(args, "", input);
}

}  // namespace

BOOST_AUTO_TEST_CASE(learn_apply_vocab_match_subword_nmt_through_the_cli) {
  const std::string bpe = rt::shared_path("golden/bpe/");
  if (!rt::require_shared(bpe + "codes.8000")) return;
  rt::TempDir dir;
  const auto de = dir.write("train.tok.de", rt::gunzip_text(bpe + "input/train.tok.de.gz"));
  const auto en = dir.write("train.tok.en", rt::gunzip_text(bpe + "input/train.tok.en.gz"));
  const auto codes = (dir.path() / "codes").string();
  const auto learned = run("nmt-bpe", {"learn", "-i", de, en, "-s", "8000", "-o", codes});
  BOOST_TEST_REQUIRE(learned.exit_code == 0, learned.err);
  BOOST_TEST(rt::read_file(codes) == rt::read_file(bpe + "codes.8000"));

  const auto applied =
      run("nmt-bpe", {"apply-bpe", "-c", codes, "--threads", "2"}, rt::read_file(bpe + "input/val.tok.de"));
  BOOST_TEST(applied.out == rt::read_file(bpe + "val.tok.bpe8000.de"));

  const auto train_bpe = run("nmt-bpe", {"apply", "-c", codes, "-i", en});
  const auto vocab = run("nmt-vocab", {}, train_bpe.out);
  BOOST_TEST(vocab.out == rt::read_file(bpe + "vocab.train.bpe8000.en"));
}

BOOST_AUTO_TEST_CASE(undo_inverts_apply) {
  const std::string bpe = rt::shared_path("golden/bpe/");
  if (!rt::require_shared(bpe + "input/val.tok.en")) return;
  const std::string text = rt::read_file(bpe + "input/val.tok.en");
  const auto applied = run("nmt-bpe", {"apply", "-c", bpe + "small/codes.500.val-en"}, text);
  BOOST_TEST(applied.out != text);
  BOOST_TEST(run("nmt-bpe", {"undo"}, applied.out).out == text);
}

BOOST_AUTO_TEST_CASE(apply_gives_one_line_per_line_with_lone_carriage_returns_kept) {
  // A lone "\r" is a character, no line break (subword-nmt's universal newlines would
  // split "a\rb" in two); a CRLF line end is a line end; undo restores the text.
  rt::TempDir dir;
  const auto codes = dir.write("codes", "#version: 0.2\nl o\nlo w</w>\n");
  const std::string input = "low\rlow low\r\nlow \r low\n\rlow\r\n";
  const auto applied = run("nmt-bpe", {"apply", "-c", codes}, input);
  BOOST_TEST_REQUIRE(applied.exit_code == 0, applied.err);
  BOOST_TEST(applied.out == "lo@@ w@@ \r@@ low low\nlow \r low\n\r@@ low\n");
  BOOST_TEST(run("nmt-bpe", {"undo"}, applied.out).out == "low\rlow low\nlow \r low\n\rlow\n");
}

BOOST_AUTO_TEST_CASE(apply_segments_tab_separated_fields_each_on_its_own) {
  // SOURCE<TAB>TERM lines (nmt-glossary match, for nmt-decode --constraints): the tabs stay
  // and each field is segmented as a line; a line without a tab is as before.
  rt::TempDir dir;
  const auto codes = dir.write("codes", "#version: 0.2\nl o\nlo w</w>\n");
  const auto applied = run("nmt-bpe", {"apply", "-c", codes}, "low lower\tlow\tlowly\nlow lower lowly\n");
  BOOST_TEST_REQUIRE(applied.exit_code == 0, applied.err);
  BOOST_TEST(applied.out == "low lo@@ w@@ e@@ r\tlow\tlo@@ w@@ l@@ y\nlow lo@@ w@@ e@@ r lo@@ w@@ l@@ y\n");
  BOOST_TEST(run("nmt-bpe", {"undo"}, applied.out).out == "low lower\tlow\tlowly\nlow lower lowly\n");
}

BOOST_AUTO_TEST_CASE(vocab_limits) {
  const auto r = run("nmt-vocab", {"--min-count", "2", "--max-size", "2"}, "a b c a b a\nd d\n");
  BOOST_TEST(r.out == "a 3\nb 2\n");
}

BOOST_AUTO_TEST_CASE(bad_codes_and_usage_errors) {
  rt::TempDir dir;
  const auto codes = dir.write("codes", "#version: 0.2\na b\nonly-one-field\n");
  const auto r = run("nmt-bpe", {"apply", "-c", codes}, "a b\n");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find(codes + ":3:") != std::string::npos, r.err);
  BOOST_TEST(run("nmt-bpe", {}).exit_code == 2);
  BOOST_TEST(run("nmt-bpe", {"frobnicate"}).exit_code == 2);
  BOOST_TEST(run("nmt-bpe", {"apply"}).exit_code == 2);
  BOOST_TEST(run("nmt-vocab", {"--min-count", "-1"}).exit_code == 2);
}
