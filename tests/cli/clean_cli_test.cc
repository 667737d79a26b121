// nmt-clean as users run it: every rule of clean-corpus-n.perl on small hand-made corpora,
// its option spellings, the .gz fallback and RETAINED; then nmt-clean's own additions:
// nothing written on an error, invalid UTF-8, --drop-identical, --aligned and the summary.
// The expected outputs of the script's rules were checked once against the real script,
// clean-corpus-n.perl at mosesdecoder commit 34452895f350bf097b21ee514a529a1dc542243c
// (perl 5.36), run on the same files with the same arguments: these tests need neither.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;
namespace fs = std::filesystem;

namespace {

// `n` words "w1 w2 ...".
std::string words(int n) {
  std::string s;
  for (int i = 1; i <= n; ++i) s += (i == 1 ? "w" : " w") + std::to_string(i);
  return s;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A corpus c.en / c.fr in `dir`; returns the CORPUS prefix.
std::string corpus(const rt::TempDir& dir, const std::string& en, const std::string& fr,
                   const std::string& stem = "c") {
  dir.write(stem + ".en", en);
  dir.write(stem + ".fr", fr);
  return (dir.path() / stem).string();
}

// nmt-clean OPTIONS... CORPUS en fr CLEAN MIN MAX [RETAINED].
rt::ProcessResult clean(const std::vector<std::string>& options, const std::string& corpus, const std::string& out,
                        const std::string& min, const std::string& max, const std::string& retained = "") {
  std::vector<std::string> argv = {rt::tool_path("nmt-clean")};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {corpus, "en", "fr", out, min, max});
  if (!retained.empty()) argv.push_back(retained);
  return rt::run_process(argv);
}

// The file names in `dir`.
std::set<std::string> files_in(const rt::TempDir& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path())) names.insert(entry.path().filename().string());
  return names;
}


// The main corpus: one pair per rule (MIN 2, MAX 20, ratio 9).
const std::string kEn = std::string("Hello  world\n") +        // 1 kept, spaces squeezed
                        "  a | b\t c \n" +                     // 2 kept, pipes removed
                        "\n" +                                 // 3 empty
                        "x y\n" +                              // 4 empty (the French side)
                        "A\xC2\xA0" "B\xE3\x80\x80" "C\n" +    // 5 kept: NBSP and U+3000 are \s
                        words(21) + "\n" +                     // 6 too long
                        words(20) + "\n" +                     // 7 kept: MAX words
                        "one\n" +                              // 8 too short
                        words(18) + "\n" +                     // 9 kept: ratio exactly 9
                        words(19) + "\n" +                     // 10 ratio 9.5
                        "a b\n" +                              // 11 ratio 9.5 the other way
                        "crlf line\r\n" +                      // 12 kept
                        "x\vy\fz\n" +                          // 13 kept: VT and FF are \s
                        "same words\n";                        // 14 kept (identical sides)
const std::string kFr = std::string("Bonjour le monde\n") + "d|e f\n" + "x y\n" + "\t \xC2\xA0 \n" +
                        "a\xE2\x80\xA8" "b\xC2\x85\n" + words(3) + "\n" + words(3) + "\n" + "un deux\n" + "a b\n" +
                        "a b\n" + words(19) + "\n" + "ligne crlf\r\n" + "p q\n" + "same words\n";
const std::string kCleanEn = "Hello world\na b c\nA B C\n" + words(20) + "\n" + words(18) +
                             "\ncrlf line\nx y z\nsame words\n";
const std::string kCleanFr = "Bonjour le monde\nde f\na b\n" + words(3) + "\na b\nligne crlf\np q\nsame words\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(clean_cli)

BOOST_AUTO_TEST_CASE(each_rule_of_the_script_with_retained_lines_and_a_summary) {
  const rt::TempDir dir;
  const auto c = corpus(dir, kEn, kFr);
  const auto out = (dir.path() / "out").string(), kept = (dir.path() / "kept").string();
  const auto summary = (dir.path() / "summary.tsv").string();
  const auto r = clean({"--summary-file", summary}, c, out, "2", "20", kept);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(read(out + ".en") == kCleanEn);
  BOOST_TEST(read(out + ".fr") == kCleanFr);
  BOOST_TEST(read(kept) == "1\n2\n5\n7\n9\n12\n13\n14\n");
  BOOST_TEST(read(summary) ==
             "read\t14\nkept\t8\ndropped\t6\ninvalid-utf8\t0\nempty\t2\ntoo-long\t1\ntoo-short\t1\nratio\t2\n"
             "long-word\t0\nidentical\t0\n");
  BOOST_TEST(r.err.rfind("nmt-clean: 14 pairs read, 8 kept, 6 dropped\n", 0) == 0u, r.err);
  BOOST_TEST(r.err.find("  ratio          2  (one side more than 9 times as long)\n") != std::string::npos, r.err);
  // -q: nothing on stderr; the same files.
  const auto quiet = clean({"-q"}, c, out, "2", "20");
  BOOST_TEST(quiet.exit_code == 0);
  BOOST_TEST(quiet.err.empty());
  BOOST_TEST(read(out + ".en") == kCleanEn);
}

BOOST_AUTO_TEST_CASE(ratio_options_in_every_spelling) {
  const rt::TempDir dir;
  const auto c = corpus(dir, kEn, kFr);
  const auto out = (dir.path() / "out").string(), kept = (dir.path() / "kept").string();
  // -ignore-ratio keeps lines 10 and 11.
  BOOST_TEST_REQUIRE(clean({"-ignore-ratio"}, c, out, "2", "20", kept).exit_code == 0);
  BOOST_TEST(read(kept) == "1\n2\n5\n7\n9\n10\n11\n12\n13\n14\n");
  // A ratio of 1.5 as Getopt::Long takes it: -ratio R, -ratio=R, --ratio R, --ratio=R.
  for (const auto& spelling : std::vector<std::vector<std::string>>{
           {"-ratio", "1.5"}, {"-ratio=1.5"}, {"--ratio", "1.5"}, {"--ratio=1.5"}}) {
    const auto r = clean(spelling, c, out, "2", "20", kept);
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(read(kept) == "1\n2\n5\n12\n13\n14\n", spelling[0]);
  }
}

BOOST_AUTO_TEST_CASE(a_factored_corpus_keeps_its_pipes_and_refuses_blank_factors) {
  const rt::TempDir dir;
  const auto out = (dir.path() / "out").string();
  // The first line has a "|": factored. Line 2 has an empty side: dropped before the
  // blank-factor check.
  auto c = corpus(dir, "das|ART  Haus|NN\na||b\nein|ART Hund|NN\n", "the|DT house|NN\n\na|DT dog|NN\n");
  auto r = clean({}, c, out, "1", "80");
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(read(out + ".en") == "das|ART Haus|NN\nein|ART Hund|NN\n");
  BOOST_TEST(read(out + ".fr") == "the|DT house|NN\na|DT dog|NN\n");
  // A kept line with " |" or "||" stops the run (the script dies there), naming file and line.
  c = corpus(dir, "das|ART Haus|NN\nein|ART Hund||NN\n", "the|DT house|NN\na|DT dog|NN\n", "b");
  r = clean({}, c, out + "b", "1", "80");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err == "nmt-clean: " + c + ".en:2: a blank factor (\" |\" or \"||\"): ein|ART Hund||NN\n");
  BOOST_TEST(!fs::exists(out + "b.en"));
  BOOST_TEST(!fs::exists(out + "b.fr"));
}

BOOST_AUTO_TEST_CASE(word_length_is_counted_in_characters) {
  const rt::TempDir dir;
  const auto out = (dir.path() / "out").string(), kept = (dir.path() / "kept").string();
  // é is 2 bytes, 日 3: the limit counts characters. Not factored: ab|cd is abcd.
  const auto c = corpus(dir, "abc \xC3\xA9\xC3\xA9\xC3\xA9\nab \xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\nx\nabcd\nab|cd\n",
                        "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\ny\n"
                        "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\xE8\xAA\x9E\nz\nw\n");
  for (const auto& spelling : std::vector<std::vector<std::string>>{
           {"-mwl", "3"}, {"-max-word-length", "3"}, {"--max-word-length=3"}, {"--mwl", "3"}}) {
    const auto r = clean(spelling, c, out, "1", "80", kept);
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(read(kept) == "1\n", spelling[0]);
  }
  BOOST_TEST(read(out + ".en") == "abc \xC3\xA9\xC3\xA9\xC3\xA9\n");
  // The default, 1000.
  BOOST_TEST_REQUIRE(clean({}, c, out, "1", "80", kept).exit_code == 0);
  BOOST_TEST(read(kept) == "1\n2\n3\n4\n5\n");
  BOOST_TEST(read(out + ".en").find("abcd\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(lowercasing_is_perls_lc_before_the_checks) {
  const rt::TempDir dir;
  const auto out = (dir.path() / "out").string();
  // İ -> i + U+0307 (one more character), Σ -> σ even at a word's end, ẞ -> ß, Ǆ -> ǆ, É -> é.
  const auto c = corpus(dir,
                        "\xC4\xB0STANBUL \xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3 STRA\xE1\xBA\x9E" "E\n\xC4\xB0\xC4\xB0\n",
                        "\xC7\x84 \xC3\x89" "COLE\nAB\n");
  for (const std::string spelling : {"-lc", "-lowercase", "--lowercase", "--lc"}) {
    const auto r = clean({spelling}, c, out, "1", "80");
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(read(out + ".en") == "i\xCC\x87stanbul \xCE\xBF\xCE\xB4\xCE\xBF\xCF\x83 stra\xC3\x9F" "e\n"
                                    "i\xCC\x87i\xCC\x87\n", spelling);
    BOOST_TEST(read(out + ".fr") == "\xC7\x86 \xC3\xA9" "cole\nab\n");
  }
  // İİ lowercased is 4 characters: -mwl 3 drops it, and keeps it without -lc.
  BOOST_TEST_REQUIRE(clean({"-lc", "-mwl", "3"}, c, out, "1", "80").exit_code == 0);
  BOOST_TEST(read(out + ".fr") == "");
  BOOST_TEST_REQUIRE(clean({"-mwl", "3"}, c, out, "1", "80").exit_code == 0);
  BOOST_TEST(read(out + ".fr") == "AB\n");
}

BOOST_AUTO_TEST_CASE(ignore_xml_counts_words_outside_tags) {
  const rt::TempDir dir;
  const auto out = (dir.path() / "out").string(), kept = (dir.path() / "kept").string();
  // <b> is no tag for the script (it wants two characters inside): a word.
  const auto c = corpus(dir, "<em> a b </em>\n<b>x</b> y\n<em> a </em>\n", "a b\nx y z\nc d\n");
  BOOST_TEST_REQUIRE(clean({"-ignore-xml"}, c, out, "2", "3", kept).exit_code == 0);
  BOOST_TEST(read(kept) == "1\n2\n");
  BOOST_TEST(read(out + ".en") == "<em> a b </em>\n<b>x</b> y\n");  // tags stay in the output
  BOOST_TEST_REQUIRE(clean({}, c, out, "2", "3", kept).exit_code == 0);
  BOOST_TEST(read(kept) == "2\n3\n");
}

BOOST_AUTO_TEST_CASE(compressed_sides_are_read_when_the_plain_files_are_absent) {
  const rt::TempDir dir;
  const auto c = corpus(dir, kEn, kFr);
  const auto gz = rt::run_process({"/bin/sh", "-c", "gzip \"$0.en\" \"$0.fr\"", c});
  BOOST_TEST_REQUIRE(gz.exit_code == 0, gz.err);
  BOOST_TEST_REQUIRE(!fs::exists(c + ".en"));
  const auto out = (dir.path() / "out").string();
  const auto r = clean({"-q"}, c, out, "2", "20");
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(read(out + ".en") == kCleanEn);
  BOOST_TEST(read(out + ".fr") == kCleanFr);
  // A corrupt .gz is an error naming it.
  dir.write("d.en.gz", "not gzip\n");
  dir.write("d.fr", "x\n");
  const auto bad = clean({}, (dir.path() / "d").string(), out + "d", "1", "80");
  BOOST_TEST(bad.exit_code == 1);
  BOOST_TEST(bad.err.rfind("nmt-clean: " + (dir.path() / "d.en.gz").string() + ": gzip -dc failed", 0) == 0u, bad.err);
  const auto missing = clean({}, (dir.path() / "none").string(), out, "1", "80");
  BOOST_TEST(missing.exit_code == 1);
  BOOST_TEST(missing.err ==
             "nmt-clean: " + (dir.path() / "none.en").string() + ": cannot open: No such file or directory\n");
}

BOOST_AUTO_TEST_CASE(sides_of_different_lengths_fail_and_leave_no_file) {
  for (const bool english_longer : {true, false}) {
    const rt::TempDir dir;
    const auto c = english_longer ? corpus(dir, "a\nb\nc\n", "a\nb\n") : corpus(dir, "a\nb\n", "a\nb\nc\n");
    const auto before = files_in(dir);
    const auto r = clean({"--summary-file", (dir.path() / "s").string()}, c, (dir.path() / "out").string(), "1", "80",
                         (dir.path() / "kept").string());
    BOOST_TEST(r.exit_code == 1);
    const std::string shorter = c + (english_longer ? ".fr" : ".en"), longer = c + (english_longer ? ".en" : ".fr");
    BOOST_TEST(r.err == "nmt-clean: " + shorter + ": has 2 lines, but " + longer +
                            " has 3; the files must be line-aligned\n");
    BOOST_TEST((files_in(dir) == before));  // no output, no temporary file
  }
}

BOOST_AUTO_TEST_CASE(invalid_utf8_is_an_error_or_dropped) {
  const rt::TempDir dir;
  const auto c = corpus(dir, "a b\nc d\ne f\n", "g h\ni \xFF j\nk l\n");
  const auto out = (dir.path() / "out").string(), summary = (dir.path() / "s").string();
  const auto before = files_in(dir);
  const auto r = clean({}, c, out, "1", "80");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err == "nmt-clean: " + c + ".fr:2: invalid UTF-8 at byte 3 (--drop-invalid-utf8 drops such pairs)\n");
  BOOST_TEST((files_in(dir) == before));
  const auto dropped = clean({"--drop-invalid-utf8", "--summary-file", summary, "-q"}, c, out, "1", "80");
  BOOST_TEST_REQUIRE(dropped.exit_code == 0, dropped.err);
  BOOST_TEST(read(out + ".en") == "a b\ne f\n");
  BOOST_TEST(read(out + ".fr") == "g h\nk l\n");
  BOOST_TEST(read(summary).find("\ninvalid-utf8\t1\n") != std::string::npos, read(summary));
}

BOOST_AUTO_TEST_CASE(drop_identical_drops_pairs_equal_after_cleaning) {
  const rt::TempDir dir;
  const auto c = corpus(dir, "Same  words\nsame words\nother\n", "Same words\nSame words\nautre\n");
  const auto out = (dir.path() / "out").string(), kept = (dir.path() / "kept").string();
  const auto summary = (dir.path() / "s").string();
  BOOST_TEST_REQUIRE(clean({"--drop-identical", "--summary-file", summary}, c, out, "1", "80", kept).exit_code == 0);
  BOOST_TEST(read(kept) == "2\n3\n");
  BOOST_TEST(read(summary).find("\nidentical\t1\n") != std::string::npos);
  // Compared after -lc: line 2 becomes identical too.
  BOOST_TEST_REQUIRE(clean({"--drop-identical", "-lc"}, c, out, "1", "80", kept).exit_code == 0);
  BOOST_TEST(read(kept) == "3\n");
}

BOOST_AUTO_TEST_CASE(aligned_files_are_kept_in_step) {
  const rt::TempDir dir;
  const auto c = corpus(dir, kEn, kFr);
  std::string links, ids;
  for (int i = 1; i <= 14; ++i) {
    links += "0-0 " + std::to_string(i) + "-" + std::to_string(i) + (i == 12 ? "\r\n" : "\n");
    ids += "doc" + std::to_string(i) + "\n";
  }
  const auto a = dir.write("links", links), b = dir.write("ids", ids);
  const auto a_out = (dir.path() / "links.out").string(), b_out = (dir.path() / "ids.out").string();
  const auto out = (dir.path() / "out").string();
  const auto r = clean({"--aligned", a, a_out, "--aligned", b, b_out, "-q"}, c, out, "2", "20");
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(read(out + ".en") == kCleanEn);
  BOOST_TEST(read(a_out) == "0-0 1-1\n0-0 2-2\n0-0 5-5\n0-0 7-7\n0-0 9-9\n0-0 12-12\r\n0-0 13-13\n0-0 14-14\n");
  BOOST_TEST(read(b_out) == "doc1\ndoc2\ndoc5\ndoc7\ndoc9\ndoc12\ndoc13\ndoc14\n");
  // One line too few or too many: an error naming both files, nothing written.
  for (const std::string& bad_ids : {ids.substr(0, ids.rfind("doc14")), ids + "doc15\n"}) {
    const rt::TempDir other;
    const auto c2 = corpus(other, kEn, kFr);
    const auto ids2 = other.write("ids", bad_ids);
    const auto before = files_in(other);
    const auto bad = clean({"--aligned", ids2, (other.path() / "ids.out").string()}, c2,
                           (other.path() / "out").string(), "2", "20");
    BOOST_TEST(bad.exit_code == 1);
    const std::string expected = bad_ids.size() < ids.size()
                                     ? ids2 + ": has 13 lines, but " + c2 + ".en has 14"
                                     : c2 + ".en: has 14 lines, but " + ids2 + " has 15";
    BOOST_TEST(bad.err == "nmt-clean: " + expected + "; the files must be line-aligned\n");
    BOOST_TEST((files_in(other) == before));
  }
}

BOOST_AUTO_TEST_CASE(bad_command_lines_are_usage_errors) {
  const rt::TempDir dir;
  const auto c = corpus(dir, "a\n", "b\n");
  const auto out = (dir.path() / "out").string();
  const auto few = rt::run_process({rt::tool_path("nmt-clean"), c, "en", "fr", out, "1"});
  BOOST_TEST(few.exit_code == 2);
  BOOST_TEST(few.err.rfind("nmt-clean: expected CORPUS L1 L2 CLEAN MIN MAX [RETAINED], got 5 arguments\n", 0) == 0u);
  const auto ratio = clean({"-ratio", "0"}, c, out, "1", "80");
  BOOST_TEST(ratio.exit_code == 2);
  BOOST_TEST(ratio.err.rfind("nmt-clean: --ratio must be in [1, 1e+06], got 0\n", 0) == 0u, ratio.err);
  const auto aligned = clean({"--aligned", "only-one"}, c, out, "1", "80");
  BOOST_TEST(aligned.exit_code == 2);
  BOOST_TEST(!fs::exists(out + ".en"));
}

BOOST_AUTO_TEST_SUITE_END()
