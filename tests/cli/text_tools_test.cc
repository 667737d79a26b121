// nmt-tokenize and nmt-detokenize as users run them: the Moses goldens through the
// command line (aliases included), the Multi30k preprocessing, threads, and bad input.
#include <boost/test/unit_test.hpp>

#include <iterator>
#include <sstream>
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "support/golden_cases.h"
#include "support/gzip_text.h"
#include "support/run_process.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

namespace {


rt::ProcessResult run(const std::string& tool, std::vector<std::string> args, const std::string& input) {
  args.insert(args.begin(), rt::tool_path(tool));
  return rt::run_process(args, "", input);
}

std::size_t count_lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

BOOST_AUTO_TEST_CASE(tokenize_reproduces_tokenizer_perl_through_the_cli) {
  const std::string moses = rt::shared_path("golden/moses/");
  if (!rt::require_shared(moses + "input/val.fr")) return;
  const std::string input = rt::read_file(moses + "input/val.fr");
  const std::string prefixes = moses + "nonbreaking_prefixes/nonbreaking_prefix.fr";
  const auto plain = run("nmt-tokenize", {"-l", "fr", "--nonbreaking-prefixes", prefixes}, input);
  BOOST_TEST(plain.exit_code == 0);
  BOOST_TEST(plain.out == rt::read_file(moses + "tok/val.fr.tok.plain"));
  // tokenizer.perl's own spellings, and two threads with small batches.
  const auto a_noesc = run("nmt-tokenize", {"-l", "fr", "-a", "-no-escape", "-threads", "2", "--batch-lines", "50",
                                            "--nonbreaking-prefixes", prefixes},
                           input);
  BOOST_TEST(a_noesc.out == rt::read_file(moses + "tok/val.fr.tok.a.noesc"));
}

BOOST_AUTO_TEST_CASE(multi30k_preprocessing_is_reproduced) {
  const std::string raw = rt::shared_path("data/multi30k/val.de.gz");
  if (!rt::require_shared(raw)) return;
  const auto r = run("nmt-tokenize", {"-l", "de", "--lowercase", "--normalize-punctuation", "--threads", "2"},
                     rt::gunzip_text(raw));
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out == rt::read_file(rt::shared_path("golden/moses/multi30k_tok/val.lc.norm.tok.de")));
}

// The word-alignment preparation: tokenized text only lowercased and accent-folded, its
// tokens (and so the gold links' indices) unchanged; the Hansards gold French comes back
// in the corpus' unaccented spelling.
BOOST_AUTO_TEST_CASE(tokenized_text_is_lowercased_and_accent_folded_token_for_token) {
  const auto r = run("nmt-tokenize", {"--tokenized", "--lowercase", "--fold-accents"},
                     "\u00c9T\u00c9 \u00e0 l' \u00e9cole , na\u00efve \ufb01n\n\nd\u00e9j\u00e0 (vu)\n");
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out == "ete a l' ecole , naive fin\n\ndeja (vu)\n");
  const std::string gold = rt::shared_path("data/hansards/wpt03/test.fr");
  if (!rt::require_shared(gold)) return;
  const std::string text = rt::read_file(gold);
  const auto folded = run("nmt-tokenize", {"--tokenized", "--lowercase", "--fold-accents"}, text);
  BOOST_TEST_REQUIRE(count_lines(folded.out) == count_lines(text));
  std::istringstream before(text), after(folded.out);
  std::size_t same_count = 0, lines = 0;
  for (std::string a, b; std::getline(before, a) && std::getline(after, b); ++lines) {
    std::istringstream x(a), y(b);
    std::vector<std::string> wa{std::istream_iterator<std::string>(x), {}}, wb{std::istream_iterator<std::string>(y), {}};
    same_count += wa.size() == wb.size() ? 1 : 0;
  }
  BOOST_TEST(same_count == lines);
  BOOST_TEST(folded.out.find("\u00e9") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(detokenize_reproduces_detokenizer_perl_through_the_cli) {
  const std::string moses = rt::shared_path("golden/moses/");
  if (!rt::require_shared(moses + "tok/val.en.tok.a")) return;
  const auto r = run("nmt-detokenize", {"-l", "en"}, rt::read_file(moses + "tok/val.en.tok.a"));
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out == rt::read_file(moses + "detok/val.en.tok.a.detok"));
}

BOOST_AUTO_TEST_CASE(line_count_is_preserved_for_empty_crlf_and_huge_lines) {
  std::string huge;
  for (int i = 0; i < 400000; ++i) huge += "word, ";  // 2.4 MB
  const std::string input = "first line.\r\n\r\n\n" + huge + "\nlast line without newline";
  for (const std::string tool : {"nmt-tokenize", "nmt-detokenize"}) {
    const auto r = run(tool, {"--threads", "2"}, input);
    BOOST_TEST(r.exit_code == 0, tool);
    BOOST_TEST(count_lines(r.out) == 5u, tool);
    BOOST_TEST(r.out.find('\r') == std::string::npos, tool);
  }
  const auto tok = run("nmt-tokenize", {}, input);
  BOOST_TEST(tok.out.substr(0, 15) == "first line .\n\n\n");
}

BOOST_AUTO_TEST_CASE(invalid_utf8_names_the_line_unless_replaced) {
  const std::string input = "good\nbad \xC3\x28 byte\n";
  for (const std::string tool : {"nmt-tokenize", "nmt-detokenize"}) {
    const auto r = run(tool, {}, input);
    BOOST_TEST(r.exit_code == 1, tool);
    BOOST_TEST(r.err == tool + ": <stdin>:2: invalid UTF-8 at byte 5\n", tool);
    const auto replaced = run(tool, {"--replace-invalid"}, input);
    BOOST_TEST(replaced.exit_code == 0, tool);
    BOOST_TEST(count_lines(replaced.out) == 2u, tool);
    BOOST_TEST(replaced.out.find("\xEF\xBF\xBD") != std::string::npos, tool);
  }
}

BOOST_AUTO_TEST_CASE(output_file_is_written_whole_or_not_at_all) {
  rt::TempDir dir;
  const auto in = dir.write("in", "one.\nbad \xFF\n");
  const auto out = (dir.path() / "out").string();
  const auto r = run("nmt-tokenize", {"-i", in, "-o", out}, "");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(!std::filesystem::exists(out));
  const auto good = run("nmt-tokenize", {"-i", dir.write("in2", "one.\ntwo!\n"), "-o", out}, "");
  BOOST_TEST(good.exit_code == 0);
  BOOST_TEST(rt::read_file(out) == "one .\ntwo !\n");
}

BOOST_AUTO_TEST_CASE(text_tool_usage_errors_exit_2) {
  BOOST_TEST(run("nmt-tokenize", {"--no-such-option"}, "").exit_code == 2);
  BOOST_TEST(run("nmt-tokenize", {"--threads", "-1"}, "").exit_code == 2);
  BOOST_TEST(run("nmt-detokenize", {"-x"}, "").exit_code == 2);
  BOOST_TEST(run("nmt-tokenize", {"--nonbreaking-prefixes", "/nonexistent"}, "a").exit_code == 1);
}

// A language without rules ("french" for fr) is tokenized with the English nonbreaking
// prefixes and the language-independent rules, after one warning line that -q keeps; the
// output is what any other language without rules gives. fr, xa and xb (the demo corpus's
// languages) have rules: no word.
BOOST_AUTO_TEST_CASE(a_language_without_rules_warns_once_and_names_the_ones_with_rules) {
  const std::string input = "Mr. Smith's car.\nL'homme est l\xC3\xA0.\n";
  const std::string known = "(languages with rules: ca, cs, de, en, fi, fr, ga, it, sv, xa, xb; codes are ISO 639-1, "
                            "e.g. fr)\n";
  const auto french = run("nmt-tokenize", {"-l", "french"}, input);
  BOOST_TEST_REQUIRE(french.exit_code == 0);
  BOOST_TEST(french.err == "nmt-tokenize: warning: no rules for language 'french'; tokenizing with the English "
                           "nonbreaking prefixes and the language-independent rules " + known);
  BOOST_TEST(run("nmt-tokenize", {"-l", "french", "-q"}, input).err == french.err);
  BOOST_TEST(run("nmt-tokenize", {"-l", "zz", "-q"}, input).out == french.out);
  BOOST_TEST(french.out.find("Mr. Smith") == 0u, french.out);  // the English prefix "Mr"
  for (const std::string language : {"fr", "xa", "xb", "en"}) {
    const auto r = run("nmt-tokenize", {"-l", language}, input);
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.err.empty(), language << ": " << r.err);
  }
  // xa and xb have no nonbreaking prefixes: "Mr." is a word and a period.
  BOOST_TEST(run("nmt-tokenize", {"-l", "xa"}, "Mr. Ek .\n").out == "Mr . Ek .\n");
  const auto detok = run("nmt-detokenize", {"-l", "french", "-q"}, "a , b\n");
  BOOST_TEST(detok.out == "a, b\n");
  BOOST_TEST(detok.err == "nmt-detokenize: warning: no rules for language 'french'; detokenizing with the generic "
                          "rules " + known);
  for (const std::string language : {"de", "xb", "cs"}) {
    BOOST_TEST(run("nmt-detokenize", {"-l", language}, "a , b\n").err.empty(), language);
  }
}
