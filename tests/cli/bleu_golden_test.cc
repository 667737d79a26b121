// Every case sacreBLEU 2.6.0 was run on (shared/golden/bleu/cases.tsv): nmt-bleu given
// the same arguments must print the same stdout, byte for byte, and exit the same way.
// Then cases with empty reference lines, which cases.tsv lacks, derived from sacreBLEU's
// rules.
#include <boost/test/unit_test.hpp>

#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

BOOST_AUTO_TEST_CASE(every_sacrebleu_golden_case_matches) {
  const std::string dir = rt::shared_path("golden/bleu");
  if (!rt::require_shared(dir + "/cases.tsv")) return;
  const auto cases = rt::read_golden_cases(dir + "/cases.tsv");
  BOOST_TEST(cases.size() == 930u);

  std::size_t passed = 0;
  for (const auto& c : cases) {
    std::vector<std::string> argv = {rt::tool_path("nmt-bleu")};
    for (const auto& ref : c.refs) argv.push_back(ref);
    argv.push_back("-i");
    argv.push_back(c.hyp);
    for (const auto& opt : rt::split(c.options, ' ')) {
      if (!opt.empty()) argv.push_back(opt);
    }
    const auto result = rt::run_process(argv, dir, "", {"SACREBLEU_FORMAT", "SACREBLEU_SEED"});
    const std::string expected = c.stdout_file.empty() ? c.stdout_text : rt::read_file(dir + "/" + c.stdout_file);
    const bool ok = result.exit_code == c.exit_code && result.out == expected;
    BOOST_CHECK_MESSAGE(ok, c.case_id << " [" << c.options << "]: exit " << result.exit_code << " (want " << c.exit_code
                                 << ")\n--- got ---\n" << result.out.substr(0, 600) << "--- want ---\n"
                                 << expected.substr(0, 600) << "--- stderr ---\n" << result.err);
    passed += ok;
  }
  BOOST_TEST_MESSAGE(passed << " of " << cases.size() << " sacreBLEU golden cases match");
}

// Empty reference lines, which the shared goldens lack. sacreBLEU 2.6.0 drops only None
// references (metrics/base.py, _cache_references) and its command line reads every line
// as a string, so an empty line is an empty reference: nrefs counts it, BLEU sees length
// 0 and no n-grams, chrF all-zero counts (score 0; the first reference wins ties), TER
// edits = hypothesis words and length 0 in the mean. Each expected stdout below is
// derived from those rules (the arithmetic is in the comments) and was checked against
// a run of the sacreBLEU 2.6.0 source (commit f615c728; empty stand-ins for portalocker,
// tabulate and lxml, which only downloads and tables use).
namespace {

struct DerivedCase {
  std::vector<std::string> args;  // after the tool name, files named as in kFiles
  std::string expected;
};

// refs "ref.a"/"ref.b" (line 4 of ref.a, line 2 of ref.b empty) for "hyp";
// "ref.c" (lines 2 and 4 empty) for "hyp.c" (line 4 empty); "refs.tsv" for "hyp.t".
const std::vector<std::pair<std::string, std::string>> kFiles = {
    {"ref.a", "the cat sat on the mat\na man rides a red bicycle\ntwo dogs play in the snow\n\n"},
    {"ref.b", "the cat is on the mat\n\ntwo dogs are playing in snow\nshe reads a book\n"},
    {"hyp", "the cat sat on a mat\na man\ndogs play in snow\nxyz\n"},
    {"ref.c", "the cat sat on the mat\n\ntwo dogs play in the snow\n\n"},
    {"hyp.c", "the cat sat on a mat\na man rides\ndogs play in snow\n\n"},
    {"refs.tsv", "\tthe cat is on the mat\na man rides a red bicycle\ta man rides a bike\n"},
    {"hyp.t", "the cat sat on a mat\na man\n"},
};

const std::vector<DerivedCase> kEmptyReferenceCases = {
    // BLEU: closest reference lengths 6, 0 (hyp "a man", 2 words: |2-6| > |2-0|), 6, 0
    // ("xyz": |1-0| < |1-4|) sum to 12, not the 22 of dropping empty lines; BP = 1.
    // Clipped n-grams 11/13, 7/9, 3/6, 1/4 are those of the non-empty references.
    // chrF: line 4 keeps ref.a's "" (both references score 0, the first wins), which adds
    // nothing, so this is chrF of lines 1-3 alone (44.18). TER: edits 1 + min(4, 2) + 2 +
    // min(1, 4) = 6 over mean lengths 6 + 3 + 6 + 2 = 17: 35.3 (50.0 = 11/22 when dropped).
    {{"ref.a", "ref.b", "-i", "hyp", "-m", "bleu", "chrf", "ter", "-f", "text"},
     "        BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 53.6 84.6/77.8/50.0/25.0 "
     "(BP = 1.000 ratio = 1.083 hyp_len = 13 ref_len = 12)\n"
     "      chrF2|nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 44.2\n"
     "TER|nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 35.3\n"},
    // The JSON form carries nrefs as a field too.
    {{"ref.a", "ref.b", "-i", "hyp", "-m", "ter"},
     "{\n \"name\": \"TER\",\n \"score\": 35.3,\n"
     " \"signature\": \"nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0\",\n"
     " \"nrefs\": \"2\",\n \"case\": \"lc\",\n \"tok\": \"tercom\",\n \"norm\": \"no\",\n"
     " \"punct\": \"yes\",\n \"asian\": \"no\",\n \"version\": \"2.6.0\"\n}\n"},
    // chrF++: the empty reference has no word n-grams either; line 4 again adds nothing,
    // so this equals chrF++ of lines 1-3 (46.80).
    {{"ref.a", "ref.b", "-i", "hyp", "-m", "chrf", "--chrf-word-order", "2", "-f", "text"},
     "chrF2++|nrefs:2|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0 = 46.8\n"},
    // Sentence BLEU (effective order): line 2 has reference length 0, so BP = 1 and both
    // of its orders match: 100; ratio prints 0.000 when the reference length is 0. Line 4
    // matches nothing: 0.0 with BP 1.
    {{"ref.a", "ref.b", "-i", "hyp", "-sl"},
     "BLEU|nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 53.7 83.3/60.0/50.0/33.3 "
     "(BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)\n"
     "BLEU|nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 100.0 100.0/100.0/0.0/0.0 "
     "(BP = 1.000 ratio = 0.000 hyp_len = 2 ref_len = 0)\n"
     "BLEU|nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 42.9 100.0/100.0/50.0/50.0 "
     "(BP = 0.607 ratio = 0.667 hyp_len = 4 ref_len = 6)\n"
     "BLEU|nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 0.0 0.0/0.0/0.0/0.0 "
     "(BP = 1.000 ratio = 0.000 hyp_len = 1 ref_len = 0)\n"},
    // Sentence chrF: lines 1-3 pick their non-empty reference (score > 0 beats the empty
    // one's 0); line 4 has no match anywhere: 0.0.
    {{"ref.a", "ref.b", "-i", "hyp", "-m", "chrf", "-sl"},
     "chrF2|nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 66.0\n"
     "chrF2|nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 16.0\n"
     "chrF2|nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 54.8\n"
     "chrF2|nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 0.0\n"},
    {{"ref.a", "ref.b", "-i", "hyp", "-m", "chrf", "--chrf-word-order", "2", "-sl"},
     "chrF2++|nrefs:2|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0 = 67.4\n"
     "chrF2++|nrefs:2|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0 = 21.2\n"
     "chrF2++|nrefs:2|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0 = 55.5\n"
     "chrF2++|nrefs:2|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0 = 0.0\n"},
    // Sentence TER: 1/6; line 2 min(4, 2) edits over (6 + 0)/2 = 3: 66.7; 2/6; line 4
    // min(1, 4) over (0 + 4)/2 = 2: 50.0 (100.0 = 4/4 when the empty line is dropped).
    {{"ref.a", "ref.b", "-i", "hyp", "-m", "ter", "-sl"},
     "TER|nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 16.7\n"
     "TER|nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 66.7\n"
     "TER|nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 33.3\n"
     "TER|nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 50.0\n"},
    // One reference with empty lines is scored, not refused. BLEU: lengths 13 vs 6+0+6+0 =
    // 12; n-grams 9/13, 5/10, 3/7, 1/4 ("a man rides" and the empty line 4 match nothing).
    // chrF: lines 2 and 4 add all-zero counts (no reference n-grams also zero the
    // hypothesis count), so this is chrF of lines 1 and 3 alone (59.98). TER: edits
    // 1 + 3 + 2 + 0 over lengths 6 + 0 + 6 + 0: 6/12.
    {{"ref.c", "-i", "hyp.c", "-m", "bleu", "chrf", "ter", "-f", "text"},
     "        BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 43.9 69.2/50.0/42.9/25.0 "
     "(BP = 1.000 ratio = 1.083 hyp_len = 13 ref_len = 12)\n"
     "      chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 60.0\n"
     "TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 50.0\n"},
    // Sentence BLEU against an empty reference: no match, so 0.0 with BP 1 (the
    // hypothesis is not shorter than 0 words) and ratio 0.000; empty against empty too.
    {{"ref.c", "-i", "hyp.c", "-sl"},
     "BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 53.7 83.3/60.0/50.0/33.3 "
     "(BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)\n"
     "BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 0.0 0.0/0.0/0.0/0.0 "
     "(BP = 1.000 ratio = 0.000 hyp_len = 3 ref_len = 0)\n"
     "BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 38.8 100.0/66.7/50.0/50.0 "
     "(BP = 0.607 ratio = 0.667 hyp_len = 4 ref_len = 6)\n"
     "BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 0.0 0.0/0.0/0.0/0.0 "
     "(BP = 1.000 ratio = 0.000 hyp_len = 0 ref_len = 0)\n"},
    // Sentence chrF and chrF++: no effective order against an empty reference: 0.0.
    {{"ref.c", "-i", "hyp.c", "-m", "chrf", "-sl"},
     "chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 66.0\n"
     "chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 0.0\n"
     "chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 54.8\n"
     "chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 0.0\n"},
    {{"ref.c", "-i", "hyp.c", "-m", "chrf", "--chrf-word-order", "2", "-sl"},
     "chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0 = 67.4\n"
     "chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0 = 0.0\n"
     "chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0 = 55.5\n"
     "chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0 = 0.0\n"},
    // Sentence TER: edits over a reference length of 0 score 1 (100) when there are
    // any (3 on line 2), else 0 (line 4, both empty).
    {{"ref.c", "-i", "hyp.c", "-m", "ter", "-sl"},
     "TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 16.7\n"
     "TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 100.0\n"
     "TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 33.3\n"
     "TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 0.0\n"},
    // -nr 2 with an empty first field (a leading tab survives rstrip; a trailing one does
    // not): line 1's references are "" and "the cat is on the mat". BLEU lengths 6
    // (|6-0| > |6-6|) + 5 (|2-5| < |2-6|) = 11 against 8 words: BP exp(1 - 11/8); n-grams
    // 6/8, 2/6, then 0/4 and 0/3 smoothed to 1/(2*4) and 1/(4*3). chrF: line 1 keeps the
    // non-empty reference (score > 0). TER: min(6, 2) + min(4, 3) over (0 + 6)/2 +
    // (6 + 5)/2: 5/8.5 = 58.8.
    {{"refs.tsv", "-nr", "2", "-i", "hyp.t", "-m", "bleu", "chrf", "ter", "-f", "text"},
     "        BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 15.5 75.0/33.3/12.5/8.3 "
     "(BP = 0.687 ratio = 0.727 hyp_len = 8 ref_len = 11)\n"
     "      chrF2|nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 27.9\n"
     "TER|nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0 = 58.8\n"},
};

}  // namespace

BOOST_AUTO_TEST_CASE(empty_reference_lines_score_as_sacrebleu_derives) {
  rt::TempDir dir;
  for (const auto& [name, contents] : kFiles) dir.write(name, contents);
  for (const auto& c : kEmptyReferenceCases) {
    std::vector<std::string> argv = {rt::tool_path("nmt-bleu")};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    const auto result = rt::run_process(argv, dir.path().string(), "", {"SACREBLEU_FORMAT", "SACREBLEU_SEED"});
    std::string joined;
    for (const auto& a : c.args) joined += " " + a;
    BOOST_TEST(result.exit_code == 0, joined << "\n" << result.err);
    BOOST_TEST(result.out == c.expected, joined << "\n--- got ---\n" << result.out << "--- want ---\n" << c.expected);
  }
}
