// BPE learn / apply / undo against subword-nmt 92d6139 (shared/golden/bpe, byte for byte),
// plus small readable cases.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <sstream>
#include <thread>

#include "support/golden_cases.h"
#include "support/gzip_text.h"
#include "support/shared_data.h"
#include "text/bpe_apply.h"
#include "text/bpe_codes.h"
#include "text/bpe_learn.h"
#include "text/bpe_undo.h"
#include "text/vocab_counts.h"
#include "util/error.h"

using namespace rnnsearch::text;
namespace rt = rnnsearch::testing;

namespace {

std::string golden(const std::string& relative) { return rt::shared_path("golden/bpe/" + relative); }


std::vector<std::string> file_lines(const std::string& path) {
  std::vector<std::string> lines = rt::split(rt::read_file(path), '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

std::string codes_text(const BpeCodes& codes) {
  std::ostringstream out;
  write_bpe_codes(out, codes);
  return out.str();
}

BpeCodes learn_from_lines(const std::vector<std::string>& lines, int symbols) {
  WordCounter counter;
  for (const auto& line : lines) counter.add_line(line);
  BpeLearnOptions options;
  options.symbols = symbols;
  return learn_bpe(counter.counts(), options);
}

std::string apply_lines(const BpeApplier& bpe, const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += bpe.apply(line) + "\n";
  return out;
}

std::string vocab_text(const std::string& bpe_text) {
  WordCounter counter(LineBreaks::kSplitlines);
  for (const auto& line : rt::split(bpe_text, '\n')) counter.add_line(line);
  std::ostringstream out;
  write_vocab(out, sorted_vocab(counter.counts()));
  return out.str();
}

// The classic toy corpus of Sennrich et al.: low x5, lower x2, newest x6, widest x3.
std::vector<std::string> toy_lines() {
  std::vector<std::string> lines;
  for (int i = 0; i < 5; ++i) lines.push_back("low");
  for (int i = 0; i < 2; ++i) lines.push_back("lower");
  for (int i = 0; i < 6; ++i) lines.push_back("newest");
  for (int i = 0; i < 3; ++i) lines.push_back("widest");
  return lines;
}

BpeCodes toy_codes() { return learn_from_lines(toy_lines(), 100); }

}  // namespace

BOOST_AUTO_TEST_SUITE(bpe)

BOOST_AUTO_TEST_CASE(toy_corpus_merges) {
  // Ties go to the greater pair: (s, t</w>) before (e, s) at 9, (w, est</w>) before
  // (n, e) and (e, w) at 6. Stops when no pair occurs twice.
  BOOST_TEST(codes_text(toy_codes()) ==
             "#version: 0.2\n"
             "s t</w>\ne st</w>\nl o\nw est</w>\nn e\nne west</w>\nlo w</w>\n"
             "w i\nwi d\nwid est</w>\nw e\nwe r</w>\nlo wer</w>\n");
}

BOOST_AUTO_TEST_CASE(min_frequency_and_total_symbols) {
  WordCounter counter;
  for (const auto& line : toy_lines()) counter.add_line(line);
  BpeLearnOptions options;
  options.min_frequency = 6;
  BOOST_TEST(learn_bpe(counter.counts(), options).merges.size() == 6u);
  // 11 distinct characters: l o w e n s i d inside words, w</w> r</w> t</w> at the end.
  options = {};
  options.symbols = 14;
  options.total_symbols = true;
  BOOST_TEST(learn_bpe(counter.counts(), options).merges.size() == 3u);
}

BOOST_AUTO_TEST_CASE(apply_toy_codes) {
  BpeApplier bpe(toy_codes());
  BOOST_TEST(bpe.apply("lowest newer low x") == "lo@@ west ne@@ wer low x");
  BOOST_TEST(bpe.apply("") == "");
  BOOST_TEST(bpe.apply("   ") == "   ");
  // Leading and trailing spaces stay; inner runs of spaces collapse to one.
  BOOST_TEST(bpe.apply("  lowest   low ") == "  lo@@ west low ");
  // A "\r" is a character like any other, no line break (as Python's universal newlines
  // would make it): one line out, the "\r" kept in its word.
  BOOST_TEST(bpe.apply("lowest \r lowest") == "lo@@ west \r lo@@ west");
  BOOST_TEST(bpe.apply("lowest\rlowest") == "lo@@ we@@ s@@ t@@ \r@@ lo@@ west");
}

BOOST_AUTO_TEST_CASE(tab_separated_fields_are_segmented_each_on_its_own) {
  BpeApplier bpe(toy_codes());
  // nmt-decode --constraints' line: the source, then its terms, each field as its own line.
  BOOST_TEST(bpe.apply("lowest newer\tnewest\tlow x") == "lo@@ west ne@@ wer\tnewest\tlow x");
  // subword-nmt takes the tab for a character of the word: "lo@@ we@@ s@@ t@@ \t@@ lo@@ west".
  BOOST_TEST(bpe.apply("lowest\tlowest") == "lo@@ west\tlo@@ west");
  // Each field keeps its spaces at either end; empty fields stay.
  BOOST_TEST(bpe.apply(" lowest \t\t low\t") == " lo@@ west \t\t low\t");
  BOOST_TEST(bpe.apply("\t") == "\t");
  const std::vector<std::string> fields = {"lowest newer low x", "widest", "", "  lowers ", "übermäßig neu"};
  for (const auto& a : fields) {
    for (const auto& b : fields) {
      BOOST_TEST(bpe.apply(a + "\t" + b) == bpe.apply(a) + "\t" + bpe.apply(b));
      BOOST_TEST(undo_bpe(bpe.apply(a + "\t" + b)) == undo_bpe(bpe.apply(a)) + "\t" + undo_bpe(bpe.apply(b)));
    }
  }
  // A line without a tab keeps the bytes it had before fields were read.
  BOOST_TEST(bpe.apply("lowest newer low x") == "lo@@ west ne@@ wer low x");
}

// Tab-joined golden lines give the golden segmentations tab-joined: each field is segmented
// exactly as subword-nmt segments it as a line.
BOOST_AUTO_TEST_CASE(golden_fields_joined_by_tabs) {
  if (!rt::require_shared(golden("small/codes.500.val-en"))) return;
  BpeApplier bpe(read_bpe_codes(golden("small/codes.500.val-en")));
  const auto input = file_lines(golden("input/val.tok.en")), expected = file_lines(golden("small/val.tok.bpe500.en"));
  BOOST_TEST_REQUIRE(input.size() == expected.size());
  for (std::size_t i = 0; i + 2 < input.size(); i += 3) {
    BOOST_TEST(bpe.apply(input[i] + "\t" + input[i + 1] + "\t" + input[i + 2]) ==
               expected[i] + "\t" + expected[i + 1] + "\t" + expected[i + 2]);
  }
}

BOOST_AUTO_TEST_CASE(undo_is_sed) {
  BOOST_TEST(undo_bpe("lo@@ west n@@ e@@ w") == "lowest new");
  BOOST_TEST(undo_bpe("a@@") == "a");
  BOOST_TEST(undo_bpe("a@@ ") == "a");
  BOOST_TEST(undo_bpe("a@@@ b") == "a@b");
  BOOST_TEST(undo_bpe("a@@b") == "a@@b");
  BOOST_TEST(undo_bpe("x## y", "##") == "xy");
}

BOOST_AUTO_TEST_CASE(undo_apply_round_trip) {
  BpeApplier bpe(toy_codes());
  for (const std::string line : {"lowest newer low x", "widest lowers", "", "a b c", "übermäßig neu"}) {
    BOOST_TEST(undo_bpe(bpe.apply(line)) == line);
  }
}

BOOST_AUTO_TEST_CASE(glossary_never_split) {
  BpeApplyOptions options;
  options.glossaries = {"lowest", "USA"};
  BpeApplier bpe(toy_codes(), options);
  BOOST_TEST(bpe.apply("lowest wider") == "lowest wid@@ e@@ r");
  BOOST_TEST(bpe.apply("1934USAlowest") == "1@@ 9@@ 3@@ 4@@ USA@@ lowest");
  // The rest of the word after the last glossary is kept and segmented, never dropped.
  BOOST_TEST(bpe.apply("USAxyz") == "USA@@ x@@ y@@ z");
  BOOST_TEST(undo_bpe(bpe.apply("lowestUSAwider")) == "lowestUSAwider");
  options.glossaries = {""};
  BOOST_CHECK_THROW(BpeApplier(toy_codes(), options), rnnsearch::util::Error);
  // Found by fuzzing: a glossary ending inside a character cut "\xe0\xbd\x8e" in two.
  options.glossaries = {"USA", "\xe0\xbd"};
  BOOST_CHECK_THROW(BpeApplier(toy_codes(), options), rnnsearch::util::Error);
}

BOOST_AUTO_TEST_CASE(vocabulary_filter) {
  BpeApplyOptions options;
  // "west" is unknown as a final piece: it is split back by reversing its merges,
  // (w, est</w>) then (e, st</w>), until the parts are known.
  options.vocabulary = {{"lo@@", 5}, {"w@@", 3}, {"e@@", 1}, {"st", 4}, {"est", 1}};
  BpeApplier bpe(toy_codes(), options);
  BOOST_TEST(bpe.apply("lowest") == "lo@@ w@@ est");
  options.vocabulary_threshold = 2;  // now "est" (1) and "e@@" (1) are unknown
  BpeApplier strict(toy_codes(), options);
  BOOST_TEST(strict.apply("lowest") == "lo@@ w@@ e@@ st");
  // An empty vocabulary filters nothing, as in apply_bpe.
  options.vocabulary_threshold = 100;
  BpeApplier none(toy_codes(), options);
  BOOST_TEST(none.apply("lowest") == "lo@@ west");
}

BOOST_AUTO_TEST_CASE(codes_file_errors_name_the_line) {
  BOOST_TEST(parse_bpe_codes("#version: 0.2\na b\nc d\n", "c").merges.size() == 2u);
  BOOST_TEST(parse_bpe_codes("a b\n", "c").version_minor == 1);
  try {
    parse_bpe_codes("#version: 0.2\na b\nc d e\n", "codes");
    BOOST_FAIL("no error");
  } catch (const rnnsearch::util::Error& e) {
    BOOST_TEST(std::string(e.what()).rfind("codes:3: ", 0) == 0);
  }
  BOOST_CHECK_THROW(parse_bpe_codes("#version: 0.3\n", "codes"), rnnsearch::util::Error);
}

BOOST_AUTO_TEST_CASE(threads_share_one_applier) {
  if (!rt::require_shared(golden("small/codes.500.val-en"))) return;
  const BpeApplier bpe(read_bpe_codes(golden("small/codes.500.val-en")));
  const auto lines = file_lines(golden("input/val.tok.de"));
  std::vector<std::string> outputs(4);
  std::vector<std::thread> threads;
  for (auto& out : outputs) threads.emplace_back([&] { out = apply_lines(bpe, lines); });
  for (auto& t : threads) t.join();
  for (const auto& out : outputs) BOOST_TEST(out == rt::read_file(golden("small/val.tok.bpe500.de")));
}

BOOST_AUTO_TEST_CASE(golden_small_val_en) {
  if (!rt::require_shared(golden("small/codes.500.val-en"))) return;
  const auto en = file_lines(golden("input/val.tok.en"));
  BpeLearnOptions options;
  options.symbols = 500;
  options.min_frequency = 2;
  const BpeCodes codes = learn_bpe(count_words({golden("input/val.tok.en")}), options);
  BOOST_TEST(codes_text(codes) == rt::read_file(golden("small/codes.500.val-en")));
  BpeApplier bpe(read_bpe_codes(golden("small/codes.500.val-en")));
  const std::string out_en = apply_lines(bpe, en);
  BOOST_TEST(out_en == rt::read_file(golden("small/val.tok.bpe500.en")));
  BOOST_TEST(apply_lines(bpe, file_lines(golden("input/val.tok.de"))) ==
             rt::read_file(golden("small/val.tok.bpe500.de")));
  BOOST_TEST(vocab_text(out_en) == rt::read_file(golden("small/vocab.val.bpe500.en")));
}

BOOST_AUTO_TEST_CASE(golden_learn_8000_joint) {
  if (!rt::require_shared(golden("codes.8000"))) return;
  auto lines = rnnsearch::testing::gunzip_lines(golden("input/train.tok.de.gz"));
  for (auto& line : rnnsearch::testing::gunzip_lines(golden("input/train.tok.en.gz"))) lines.push_back(std::move(line));
  BOOST_TEST(lines.size() == 58000u);
  BOOST_TEST(codes_text(learn_from_lines(lines, 8000)) == rt::read_file(golden("codes.8000")));
}

BOOST_AUTO_TEST_CASE(golden_apply_8000) {
  if (!rt::require_shared(golden("codes.8000"))) return;
  BpeApplier bpe(read_bpe_codes(golden("codes.8000")));
  for (const std::string lang : {"de", "en"}) {
    BOOST_TEST(apply_lines(bpe, file_lines(golden("input/val.tok." + lang))) ==
               rt::read_file(golden("val.tok.bpe8000." + lang)));
    const std::string train = apply_lines(bpe, rnnsearch::testing::gunzip_lines(golden("input/train.tok." + lang + ".gz")));
    BOOST_TEST(vocab_text(train) == rt::read_file(golden("vocab.train.bpe8000." + lang)));
  }
  BOOST_TEST(apply_lines(bpe, file_lines(golden("input/tricky.tok-en.noesc"))) ==
             rt::read_file(golden("tricky.tok-en.noesc.bpe8000")));
}

BOOST_AUTO_TEST_SUITE_END()
