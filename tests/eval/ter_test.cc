// TER against sacreBLEU 2.6.0: every TER score of the golden cases.tsv (corpus, text
// format) and every sentence-level TER file, the tercom normalizer on hand-made
// strings, and the shift search's limits on constructed pairs (expected values from
// sacreBLEU's algorithm).
#include "eval/ter.h"

#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "eval/ter_alignment.h"
#include "eval/ter_normalizer.h"
#include "support/shared_data.h"
#include "text/whitespace.h"
#include "util/error.h"

namespace rnnsearch::eval {
namespace {

std::string golden(const std::string& relative) { return testing::shared_path("golden/bleu/" + relative); }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  BOOST_TEST_REQUIRE(static_cast<bool>(in), "cannot open " << path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Lines split at '\n' only, as sacreBLEU reads them; `strip` applies rstrip().
std::vector<std::string> read_lines(const std::string& path, bool strip = true) {
  const std::string text = read_file(path);
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    lines.push_back(strip ? std::string(text::rstrip(line)) : line);
    pos = end + 1;
  }
  return lines;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t end = s.find(sep, pos);
    parts.push_back(s.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
    if (end == std::string::npos) return parts;
    pos = end + 1;
  }
}

// cases.tsv escapes: \\ \n \t \r.
std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out.push_back(s[i]);
      continue;
    }
    const char c = s[++i];
    out.push_back(c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c);
  }
  return out;
}

struct GoldenCase {
  std::string id, hyp, options, stdout_text, stdout_file;
  std::vector<std::string> refs;
  int exit_code = 0;
};

std::vector<GoldenCase> read_cases() {
  std::vector<GoldenCase> cases;
  const auto lines = read_lines(golden("cases.tsv"), false);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto fields = split(lines[i], '\t');
    BOOST_TEST_REQUIRE(fields.size() == 8u, "cases.tsv:" << i + 1);
    GoldenCase c;
    c.id = fields[0];
    c.hyp = fields[1];
    c.refs = split(fields[2], ',');
    c.options = fields[3];
    c.exit_code = std::stoi(fields[4]);
    c.stdout_text = unescape(fields[5]);
    c.stdout_file = fields[6];
    cases.push_back(c);
  }
  return cases;
}

// The TER metric and its statistics for one golden case.
struct Computed {
  std::unique_ptr<Ter> ter;
  StatsMatrix stats;
};

const Computed& compute(const GoldenCase& c) {
  static std::map<std::string, Computed> cache;
  auto it = cache.find(c.id);
  if (it != cache.end()) return it->second;
  ReferenceSet refs;
  for (const auto& r : c.refs) refs.push_back(read_lines(golden(r)));
  Computed computed;
  computed.ter = std::make_unique<Ter>(refs, TerOptions());
  computed.stats = computed.ter->segment_stats(read_lines(golden(c.hyp)));
  return cache.emplace(c.id, std::move(computed)).first->second;
}

std::string format(double score, int width) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", width, score);
  return buffer;
}

// The signature as sacreBLEU prints it for TER (global items around the metric's).
std::string signature(const Ter& ter) {
  std::string s = "nrefs:" + std::to_string(ter.num_refs());
  for (const auto& [key, value] : ter.signature_fields()) s += "|" + key + ":" + value;
  return s + "|version:2.6.0";
}

std::string text_line(const Ter& ter, double score, int width) {
  return "TER|" + signature(ter) + " = " + format(score, width);
}

double sentence_ter(const std::string& hyp, const std::vector<std::string>& refs, TerOptions options = {}) {
  ReferenceSet set;
  for (const auto& r : refs) set.push_back({r});
  const Ter ter(set, options);
  const StatsMatrix stats = ter.segment_stats({hyp});
  return ter.score_from_stats(stats.row(0)).score;
}

// The [edits, reference length] row of one segment.
std::vector<double> row_of(const std::string& hyp, const std::vector<std::string>& refs, TerOptions options = {}) {
  ReferenceSet set;
  for (const auto& r : refs) set.push_back({r});
  const StatsMatrix stats = Ter(set, options).segment_stats({hyp});
  return {stats.row(0)[0], stats.row(0)[1]};
}

std::string words(int n, const std::function<std::string(int)>& word) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? " " : "") + word(i);
  return s;
}

void check_norm(TerOptions options, const std::string& in, const std::string& expected) {
  BOOST_TEST(tercom_normalize(in, options) == expected, "tercom_normalize(\"" << in << "\")");
}

TerOptions opts(bool case_sensitive, bool normalized, bool no_punct, bool asian_support) {
  TerOptions o;
  o.case_sensitive = case_sensitive;
  o.normalized = normalized;
  o.no_punct = no_punct;
  o.asian_support = asian_support;
  return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ter)

BOOST_AUTO_TEST_CASE(golden_corpus_scores) {
  if (!testing::require_shared(golden("cases.tsv"))) return;
  std::size_t checked = 0;
  for (const auto& c : read_cases()) {
    const bool ter_only = c.options == "-m ter -f text" || c.options == "-m ter -w 4 -f text";
    if (c.exit_code != 0 || !(ter_only || c.options == "-m bleu chrf ter -f text")) continue;
    // The expected TER line (with several metrics, the one that starts with "TER|").
    std::string expected;
    for (const auto& line : split(c.stdout_text, '\n')) {
      const std::size_t at = line.find("TER|");
      if (at != std::string::npos && line.find_first_not_of(' ') == at) expected = line.substr(at);
    }
    BOOST_TEST_REQUIRE(!expected.empty(), c.id << " " << c.options);
    const Computed& computed = compute(c);
    const auto sums = computed.stats.column_sums();
    const Score score = computed.ter->score_from_stats(sums.data());
    const int width = c.options.find("-w 4") != std::string::npos ? 4 : 1;
    BOOST_TEST(text_line(*computed.ter, score.score, width) == expected, c.id << " " << c.options);
    BOOST_TEST(score.name == "TER");
    BOOST_TEST(score.verbose.empty());
    ++checked;
  }
  BOOST_TEST_MESSAGE("TER corpus golden rows checked: " << checked);
  BOOST_TEST(checked == 63u);
}

BOOST_AUTO_TEST_CASE(golden_sentence_scores) {
  if (!testing::require_shared(golden("cases.tsv"))) return;
  std::size_t files = 0;
  std::size_t lines = 0;
  for (const auto& c : read_cases()) {
    if (c.exit_code != 0 || c.stdout_file.find(".ter.") == std::string::npos) continue;
    const bool bare = c.options == "-m ter -sl -w 4 -b";  // score only, 4 decimals
    BOOST_TEST_REQUIRE((bare || c.options == "-m ter -sl"), c.options);
    const auto expected = read_lines(golden(c.stdout_file), false);
    const Computed& computed = compute(c);
    BOOST_TEST_REQUIRE(expected.size() == computed.stats.rows(), c.stdout_file);
    std::size_t matching = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const double score = computed.ter->score_from_stats(computed.stats.row(i)).score;
      const std::string got = bare ? format(score, 4) : text_line(*computed.ter, score, 1);
      BOOST_TEST(got == expected[i], c.stdout_file << ":" << i + 1);
      if (got == expected[i]) ++matching;
    }
    BOOST_TEST_MESSAGE(c.stdout_file << ": " << matching << "/" << expected.size() << " lines match");
    ++files;
    lines += expected.size();
  }
  BOOST_TEST_MESSAGE("TER sentence golden files checked: " << files << " (" << lines << " lines)");
  BOOST_TEST(files == 30u);
}

BOOST_AUTO_TEST_CASE(normalizer_default_lowercases_and_splits_at_unicode_whitespace) {
  const TerOptions d;
  check_norm(d, "Hello  World\t!", "hello world !");
  check_norm(d, "", "");
  check_norm(d, " \t ", "");
  check_norm(d, "a\u00a0b\u3000c\u2028d\x1c" "e", "a b c d e");
  check_norm(d, "a\u200b" "b", "a\u200b" "b");  // ZERO WIDTH SPACE is no whitespace in Python
  check_norm(d, "İSTANBUL ΟΔΟΣ ΣΑ", "i̇stanbul οδος σα");  // full lowercasing, final sigma
  check_norm(d, "Straße ÀÉÎ", "straße àéî");
  check_norm(d, "It's 3.5, (ok)!", "it's 3.5, (ok)!");  // no tokenization by default
  check_norm(opts(true, false, false, false), "Hello  World", "Hello World");
}

BOOST_AUTO_TEST_CASE(normalizer_tercom_rules) {
  const TerOptions n = opts(false, true, false, false);
  check_norm(n, "It's John's book, isn't it?", "it 's john 's book , isn't it ?");
  check_norm(n, "Pi is 3.14, not 3,15; e.g. 1-2 or a-b.", "pi is 3.14 , not 3,15 ; e . g . 1 - 2 or a-b .");
  // Entities are replaced in the order quot, amp, lt, gt.
  check_norm(n, "&amp;lt; &amp;quot; &quot;x&quot; &lt;b&gt;", "< & quot ; \" x \" < b >");
  check_norm(n, "line one\n-continued\nline two", "line onecontinued line two");
  check_norm(n, "(a+b)*c=d [e]{f}~g|h\\i^j_k`l@m#n$o%p&q!r\"s/t:u<v>w?x",
             "( a + b ) * c = d [ e ] { f } ~ g | h \\ i ^ j _ k ` l @ m # n $ o % p & q ! r \" s / t : u < v > "
             "w ? x");
  check_norm(n, "end.,", "end . ,");
  check_norm(n, "é.x ü,3 .5 ,a", "é . x ü , 3 . 5 , a");
  check_norm(n, "漢字かな、テスト。", "漢字かな、テスト。");  // CJK untouched without asian_support
}

BOOST_AUTO_TEST_CASE(normalizer_punctuation_and_asian) {
  check_norm(opts(false, false, true, false), "Hello, (world)! \"Quoted\": yes; no? a.b",
             "hello world quoted yes no ab");
  check_norm(opts(false, false, true, false), "!?", "");
  check_norm(opts(false, false, true, false), "漢字、かな。（注）！", "漢字、かな。（注）！");
  check_norm(opts(false, false, true, true), "漢字、かな。「引用」（注）！", "漢字かな引用注");
  check_norm(opts(false, true, false, true), "漢字かな、テスト。ＡＢ（注）", "漢 字 かな 、 テスト 。 ａｂ （ 注 ）");
  check_norm(opts(false, true, true, true), "Hello, 世界！ It's 3.5.", "hello 世 界 it 's 35");
}

BOOST_AUTO_TEST_CASE(shifts_and_edits) {
  BOOST_TEST(row_of("a b c d", {"b c d a"}) == (std::vector<double>{1, 4}));  // one shift
  BOOST_TEST(row_of("the cat sat on the mat", {"on the mat the cat sat"}) == (std::vector<double>{1, 6}));
  BOOST_TEST(row_of("The Cat", {"the cat"}) == (std::vector<double>{0, 2}));
  BOOST_TEST(row_of("The Cat", {"the cat"}, opts(true, false, false, false)) == (std::vector<double>{2, 2}));
  // Best edits over the references, mean reference length.
  BOOST_TEST(row_of("a b", {"a b c", "x y z w"}) == (std::vector<double>{1, 3.5}));
  BOOST_TEST(sentence_ter("a b c d", {"b c d a"}) == 25.0);
  // Segments are rstripped before the tokenizer, which matters for its "'s " rule.
  const TerOptions normalized = opts(false, true, false, false);
  BOOST_TEST(tercom_normalize("it's\t", normalized) == "it's");
  BOOST_TEST(row_of("it's\t", {"it 's"}, normalized) == (std::vector<double>{0, 2}));
  BOOST_TEST(row_of("It's\u3000", {"it 's"}, normalized) == (std::vector<double>{0, 2}));
}

BOOST_AUTO_TEST_CASE(empty_segments) {
  BOOST_TEST(row_of("", {"a b c"}) == (std::vector<double>{3, 3}));  // empty hypothesis
  BOOST_TEST(sentence_ter("", {"a b c"}) == 100.0);
  // References empty after preprocessing: edits = hypothesis words, length 0.
  const TerOptions no_punct = opts(false, false, true, false);
  BOOST_TEST(row_of("a b", {"!"}, no_punct) == (std::vector<double>{2, 0}));
  BOOST_TEST(sentence_ter("a b", {"!"}, no_punct) == 100.0);
  BOOST_TEST(sentence_ter("?", {"!"}, no_punct) == 0.0);  // everything empty
  const Ter ter({{"x"}}, TerOptions());
  const double none[2] = {0, 0};
  const double edits_only[2] = {3, 0};
  const double some[2] = {1, 3};
  BOOST_TEST(ter.score_from_stats(none).score == 0.0);
  BOOST_TEST(ter.score_from_stats(edits_only).score == 100.0);
  BOOST_TEST(ter.score_from_stats(some).score == 100 * (1.0 / 3.0));
}

BOOST_AUTO_TEST_CASE(references_and_errors) {
  // An empty reference stays one (sacreBLEU drops only None): the edits to it are the
  // hypothesis's words, and its length 0 counts in the mean length.
  const Ter with_empty({{"a b", "c d"}, {"a b", ""}}, TerOptions());
  BOOST_TEST(with_empty.num_refs() == 2);
  const StatsMatrix stats = with_empty.segment_stats({"a b", "x"});
  BOOST_TEST(stats.row(0)[1] == 2.0);
  BOOST_TEST(stats.row(1)[0] == 1.0);  // "x": 2 edits to "c d", 1 to ""
  BOOST_TEST(stats.row(1)[1] == 1.0);  // (2 + 0) / 2
  BOOST_TEST(row_of("y z", {"", ""}) == (std::vector<double>{2, 0}));  // only empty references
  BOOST_CHECK_THROW(Ter({{"a", "b"}, {"c"}}, TerOptions()), util::Error);  // ragged streams
  BOOST_CHECK_THROW(with_empty.segment_stats({"only one"}), util::Error);
  BOOST_TEST(Ter({{"a"}, {"b"}}, TerOptions()).num_refs() == 2);
}

BOOST_AUTO_TEST_CASE(search_limits) {
  const TerOptions cased = opts(true, false, false, false);
  // The round that reaches 1000 shift candidates is dropped although it found a shift.
  const std::string ref = words(40, [](int i) { return std::string(1, "abc"[(i / 4) % 3]); });
  const std::string hyp = words(40, [](int i) { return std::string(1, "abc"[(4 * i + i / 3) % 3]); });
  BOOST_TEST(row_of(hyp, {ref}, cased) == (std::vector<double>{17, 40}));
  // Swapping two 15-word halves: blocks are at most 10 words; the candidate budget ends
  // the search before any shift.
  std::string halves;
  for (int i = 0; i < 30; ++i) halves += (i ? " w" : "w") + std::to_string((i + 15) % 30);
  const std::string ordered = words(30, [](int i) { return "w" + std::to_string(i); });
  BOOST_TEST(row_of(halves, {ordered}, cased) == (std::vector<double>{30, 30}));
  // A rotation by 60 of 120 distinct words: too far for the beam and for shifts.
  const std::string distinct = words(120, [](int i) { return "w" + std::to_string(i); });
  const std::string rotated = words(120, [](int i) { return "w" + std::to_string((i + 60) % 120); });
  BOOST_TEST(row_of(rotated, {distinct}, cased) == (std::vector<double>{120, 120}));
  // A widened beam (2 words against 120) and a hypothesis much longer than its reference.
  const std::string long_ref = words(120, [](int i) { return std::string(1, "abcde"[(7 * i + i / 5) % 5]); });
  BOOST_TEST(row_of("e a", {long_ref}, cased) == (std::vector<double>{118, 120}));
  const std::string long_hyp = words(100, [](int i) { return std::string(1, "abcde"[(3 * i + i / 2) % 5]); });
  BOOST_TEST(row_of(long_hyp, {"c a e"}, cased) == (std::vector<double>{97, 3}));
}

BOOST_AUTO_TEST_CASE(aligner_reuse) {
  TerAligner aligner;
  BOOST_TEST(aligner.edits({1, 2, 3, 4}, {2, 3, 4, 1}) == 1);
  BOOST_TEST(aligner.edits({}, {1, 2}) == 2);
  BOOST_TEST(aligner.edits({1, 2}, {}) == 2);
  BOOST_TEST(aligner.edits({5, 6, 7}, {5, 6, 7}) == 0);
  BOOST_TEST(aligner.edits({1, 2, 3, 4}, {2, 3, 4, 1}) == 1);
}

BOOST_AUTO_TEST_CASE(signature_fields_and_names) {
  const Ter plain({{"a"}}, TerOptions());
  BOOST_TEST(signature(plain) == "nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0");
  const Ter all({{"a"}}, opts(true, true, true, true));
  BOOST_TEST(signature(all) == "nrefs:1|case:mixed|tok:tercom|norm:yes|punct:no|asian:yes|version:2.6.0");
  const auto names = plain.short_names();
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"case", "c"}, {"tok", "t"}, {"norm", "nr"}, {"punct", "pn"}, {"asian", "as"}};
  BOOST_TEST((names == expected));
  BOOST_TEST(!plain.higher_is_better());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace rnnsearch::eval
