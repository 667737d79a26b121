// nmt-decode's target prefixes and phrase constraints as users run them, on the reversal
// model: every n-best entry holds the positive phrases (in order when ordered), none holds
// a phrase to avoid, every entry starts with the prefix, a prefix of the whole reference and
// </s> scores what nmt-score gives, lines without constraints print a plain run's bytes,
// the bytes do not depend on batches, threads or the input format (fp32, int8, bf16 where the CPU has it), shortlists, ensembles
// and alignments work with constraints, and bad lines are one-line errors naming the line.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "math/precision.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/text_lines.h"
#include "util/rng.h"

namespace rt = rnnsearch::testing;
using rt::lines_of;

namespace {

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The translation of a Moses n-best line.
std::string translation_of(const std::string& n_best_line) {
  const auto begin = n_best_line.find(" ||| ") + 5;
  return n_best_line.substr(begin, n_best_line.find(" ||| ", begin) - begin);
}

double f0_of(const std::string& n_best_line) {
  return std::stod(n_best_line.substr(n_best_line.find(" ||| F0= ") + 9));
}

// Where `phrase` first occurs in `words` at or after `from` (npos: nowhere).
std::size_t find_phrase(const std::vector<std::string>& words, const std::vector<std::string>& phrase,
                        std::size_t from = 0) {
  if (phrase.size() > words.size()) return std::string::npos;
  for (std::size_t i = from; i + phrase.size() <= words.size(); ++i) {
    if (std::equal(phrase.begin(), phrase.end(), words.begin() + static_cast<std::ptrdiff_t>(i))) return i;
  }
  return std::string::npos;
}

// Held-out sources, each with 1-3 phrases of 1-2 words over w0..w9 (seeded).
struct ConstrainedLines {
  std::vector<std::string> sources;
  std::vector<std::vector<std::string>> phrases;

  std::string tab_input() const {
    std::string text;
    for (std::size_t i = 0; i < sources.size(); ++i) {
      text += sources[i];
      for (const auto& p : phrases[i]) text += "\t" + p;
      text += '\n';
    }
    return text;
  }
};

ConstrainedLines constrained_lines(int count, std::uint64_t seed) {
  const auto held_out = rt::held_out_reversals(count, seed);
  rnnsearch::util::Rng rng(seed + 1);
  ConstrainedLines lines;
  lines.sources = lines_of(held_out.source);
  for (std::size_t i = 0; i < lines.sources.size(); ++i) {
    lines.phrases.emplace_back();
    for (std::uint64_t k = 1 + rng.below(3); k > 0; --k) {
      std::string phrase = "w" + std::to_string(rng.below(10));
      if (rng.below(2) == 0) phrase += " w" + std::to_string(rng.below(10));
      lines.phrases.back().push_back(phrase);
    }
  }
  return lines;
}

const std::string& first_error_line(const rt::ProcessResult& r) {
  static std::string line;
  line = r.err.substr(0, r.err.find('\n'));
  return line;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(decode_constraints_cli)

BOOST_AUTO_TEST_CASE(every_n_best_entry_holds_the_phrases_unordered_and_ordered) {
  rt::ReversalModel m;
  const auto lines = constrained_lines(40, 5);
  for (const std::string order : {"unordered", "ordered"}) {
    const auto r = m.decode({"-b", "5", "--n-best", "5", "--constraints", order}, lines.tab_input());
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const auto out = lines_of(r.out);
    BOOST_TEST_REQUIRE(out.size() == 5 * lines.sources.size());
    for (std::size_t n = 0; n < out.size(); ++n) {
      const auto words = words_of(translation_of(out[n]));
      std::size_t from = 0;
      for (const auto& phrase : lines.phrases[n / 5]) {
        const auto at = find_phrase(words, words_of(phrase), order == "ordered" ? from : 0);
        BOOST_TEST(at != std::string::npos, order << " line " << n / 5 << ": '" << phrase << "' not in '"
                                                  << translation_of(out[n]) << "'");
        if (at != std::string::npos) from = at + words_of(phrase).size();
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(constraints_if_missing_keep_a_translation_that_holds_them_already) {
  rt::ReversalModel m;
  const auto held_out = rt::held_out_reversals(30, 17);
  const auto sources = lines_of(held_out.source);
  const auto plain = lines_of(m.decode({"-b", "4", "--n-best", "2"}, held_out.source).out);
  // Even lines ask for a word of their own best translation, odd lines for w9 w9.
  std::string input;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    input += sources[i] + "\t" + (i % 2 ? "w9 w9" : words_of(translation_of(plain[2 * i])).front()) + "\n";
  }
  const std::vector<std::string> options = {"-b", "4", "--n-best", "2", "--constraints", "unordered",
                                            "--constraints-if-missing"};
  const auto r = m.decode(options, input);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto out = lines_of(r.out);
  BOOST_TEST_REQUIRE(out.size() == plain.size());
  for (std::size_t n = 0; n < out.size(); ++n) {
    const std::size_t i = n / 2;
    const std::string phrase = i % 2 ? "w9 w9" : words_of(translation_of(plain[2 * i])).front();
    const auto words = words_of(translation_of(out[n]));
    BOOST_TEST(find_phrase(words, words_of(phrase)) != std::string::npos, out[n]);
    const auto plain_words = words_of(translation_of(plain[n]));
    // A line whose plain entries all hold the phrase prints them as they were.
    const auto other = words_of(translation_of(plain[n % 2 ? n - 1 : n + 1]));
    if (find_phrase(plain_words, words_of(phrase)) != std::string::npos &&
        find_phrase(other, words_of(phrase)) != std::string::npos) {
      BOOST_TEST(out[n] == plain[n]);
    }
  }
  std::vector<std::string> one = options;
  one.insert(one.end(), {"--mini-batch", "1", "--threads", "2"});
  BOOST_TEST(m.decode(one, input).out == r.out);
}

BOOST_AUTO_TEST_CASE(phrases_to_avoid_never_appear) {
  rt::ReversalModel m;
  const auto held_out = rt::held_out_reversals(30, 9);
  const auto sources = lines_of(held_out.source);
  const auto plain = lines_of(m.decode({"-b", "5"}, held_out.source).out);
  std::string json;
  std::vector<std::vector<std::string>> avoided;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const auto best = words_of(plain[i]);  // the plain run's first word, and its last two words
    avoided.push_back({best.front(), best[best.size() - 2] + " " + best.back()});
    json += "{\"text\": \"" + sources[i] + "\", \"avoid\": [\"" + avoided[i][0] + "\", \"" + avoided[i][1] + "\"]}\n";
  }
  const auto r = m.decode({"-b", "5", "--n-best", "5", "--json-input"}, json);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto out = lines_of(r.out);
  BOOST_TEST_REQUIRE(out.size() == 5 * sources.size());
  for (std::size_t n = 0; n < out.size(); ++n) {
    const auto words = words_of(translation_of(out[n]));
    for (const auto& phrase : avoided[n / 5]) BOOST_TEST(find_phrase(words, words_of(phrase)) == std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(the_same_bytes_in_any_batch_thread_count_precision_and_input_format) {
  rt::ReversalModel m;
  auto lines = constrained_lines(48, 11);
  for (std::size_t i = 0; i < lines.sources.size(); i += 2) lines.phrases[i].clear();  // every other line: none
  const auto plain = lines_of(m.decode({"-b", "4", "--n-best", "2"}, rt::held_out_reversals(48, 11).source).out);
  std::vector<std::string> precisions = {"fp32", "int8"};
  if (rnnsearch::math::precision_supported(rnnsearch::math::Precision::kBf16)) precisions.push_back("bf16");
  for (const auto& precision : precisions) {
    const std::vector<std::string> options = {"-b", "4", "--n-best", "2", "--precision", precision, "--constraints",
                                              "unordered"};
    auto with = [&](std::vector<std::string> more) {
      more.insert(more.begin(), options.begin(), options.end());
      return m.decode(more, lines.tab_input());
    };
    const auto one = with({"--mini-batch", "1"});
    BOOST_TEST_REQUIRE(one.exit_code == 0, one.err);
    BOOST_TEST(with({"--mini-batch", "32"}).out == one.out);
    BOOST_TEST(with({"--mini-batch", "32", "--threads", "2"}).out == one.out);
    std::string json;
    for (std::size_t i = 0; i < lines.sources.size(); ++i) {
      json += "{\"text\": \"" + lines.sources[i] + "\", \"constraints\": [";
      for (std::size_t k = 0; k < lines.phrases[i].size(); ++k) json += (k ? ", \"" : "\"") + lines.phrases[i][k] + "\"";
      json += "]}\n";
    }
    std::vector<std::string> json_options = {"-b", "4", "--n-best", "2", "--precision", precision, "--json-input"};
    BOOST_TEST(m.decode(json_options, json).out == one.out);
    if (precision != "fp32") continue;
    const auto out = lines_of(one.out);
    for (std::size_t i = 0; i < lines.sources.size(); i += 2) {  // the lines without phrases: a plain run's bytes
      BOOST_TEST(out[2 * i] == plain[2 * i]);
      BOOST_TEST(out[2 * i + 1] == plain[2 * i + 1]);
    }
  }
}

BOOST_AUTO_TEST_CASE(prefixes_start_every_entry_and_a_whole_reference_scores_as_nmt_score) {
  rt::ReversalModel m;
  const auto held_out = rt::held_out_reversals(20, 13);
  const auto sources = lines_of(held_out.source), references = lines_of(held_out.reversed);
  // An empty prefix, or none, is a plain run.
  const auto plain = m.decode({"-b", "3", "--n-best", "3"}, held_out.source);
  std::string empty_prefixes;
  for (std::size_t i = 0; i < sources.size(); ++i) empty_prefixes += sources[i] + (i % 2 ? "\t\n" : "\n");
  BOOST_TEST(m.decode({"-b", "3", "--n-best", "3", "--force-decode"}, empty_prefixes).out == plain.out);
  // A prefix other than the model's choice: w9 w9, then the search goes on.
  std::string tabbed, prefixes, whole, whole_prefixes;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    tabbed += sources[i] + "\tw9 w9\n";
    prefixes += "w9 w9\n";
    whole += sources[i] + "\t" + references[i] + " </s>\n";
    whole_prefixes += references[i] + " </s>\n";
  }
  const auto r = m.decode({"-b", "3", "--n-best", "3", "--force-decode"}, tabbed);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto out = lines_of(r.out);
  BOOST_TEST_REQUIRE(out.size() == 3 * sources.size());
  for (const auto& line : out) {
    const auto words = words_of(translation_of(line));
    BOOST_TEST_REQUIRE(words.size() >= 2u);
    BOOST_TEST((words[0] == "w9" && words[1] == "w9"), line);
  }
  const std::string prefix_file = m.dir.write("prefixes", prefixes);
  BOOST_TEST(m.decode({"-b", "3", "--n-best", "3", "--prefix", prefix_file}, held_out.source).out == r.out);
  // The whole reference and </s>: its score is nmt-score's for the pair.
  const auto forced = m.decode({"-b", "3", "--n-best", "3", "--force-decode"}, whole);
  BOOST_TEST_REQUIRE(forced.exit_code == 0, forced.err);
  const auto forced_lines = lines_of(forced.out);
  BOOST_TEST_REQUIRE(forced_lines.size() == sources.size());  // one hypothesis each: the prefix ended it
  const auto scored = rt::run_process({rt::tool_path("nmt-score"), "-m", m.model, "-s", m.dir.write("src", held_out.source),
                                       "-t", m.dir.write("ref", held_out.reversed)});
  BOOST_TEST_REQUIRE(scored.exit_code == 0, scored.err);
  const auto scores = lines_of(scored.out);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    BOOST_TEST(translation_of(forced_lines[i]) == references[i]);
    BOOST_TEST(std::abs(f0_of(forced_lines[i]) - std::stod(scores[i])) < 1e-5);
  }
  BOOST_TEST(m.decode({"-b", "3", "--n-best", "3", "--prefix", m.dir.write("whole", whole_prefixes)}, held_out.source).out ==
             forced.out);
}

BOOST_AUTO_TEST_CASE(shortlists_ensembles_and_alignments_keep_the_constraints) {
  rt::ReversalModel m;
  // A shortlist where each source piece allows only itself: w9, absent from the source, is
  // allowed because a constraint asks for it.
  std::string shortlist = "nmt-shortlist 1 first=0 best=1 threshold=0\n";
  for (int k = 0; k < 10; ++k) shortlist += "w" + std::to_string(k) + "\tw" + std::to_string(k) + "\n";
  const std::string list = m.dir.write("shortlist", shortlist);
  const std::string input = "w1 w2 w3\tw9\nw4 w5 w6 w7\tw8 w0\n";
  for (const std::vector<std::string>& extra : std::vector<std::vector<std::string>>{
           {"--shortlist", list}, {"-m", m.model, m.model}, {"--alignment", "hard", "--replace-unk"}}) {
    std::vector<std::string> options = {"-b", "4", "--constraints", "unordered"};
    if (extra.front() == "-m") options.insert(options.begin(), m.model);  // the model twice: an ensemble
    options.insert(options.end(), extra.begin() + (extra.front() == "-m" ? 2 : 0), extra.end());
    const auto r = m.decode(options, input);
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const auto out = lines_of(r.out);
    BOOST_TEST_REQUIRE(out.size() == 2u);
    const auto first = words_of(out[0].substr(0, out[0].find(" |||")));
    const auto second = words_of(out[1].substr(0, out[1].find(" |||")));
    BOOST_TEST(find_phrase(first, {"w9"}) != std::string::npos, out[0]);
    BOOST_TEST(find_phrase(second, {"w8", "w0"}) != std::string::npos, out[1]);
    if (extra.front() == "--alignment") BOOST_TEST(out[0].find(" ||| ") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(bad_lines_are_errors_naming_the_line) {
  rt::ReversalModel m;
  auto error_of = [&](const std::vector<std::string>& options, const std::string& input) {
    const auto r = m.decode(options, input);
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.out.empty());
    return first_error_line(r);
  };
  BOOST_TEST(error_of({"--constraints", "unordered"}, "w1 w2\tw1\nw3 w4\tw1 zz\n") ==
             "nmt-decode: <stdin>:2: the constraint 'w1 zz' has a piece the model's target vocabulary lacks: 'zz'");
  std::string tall = "w1\t";
  for (int k = 0; k < 13; ++k) tall += "w2 ";
  BOOST_TEST(error_of({"--constraints", "ordered"}, tall + "\n") ==
             "nmt-decode: <stdin>:1: the prefix and constraints need 13 target tokens, more than the 12 the length limit "
             "allows (--max-length-ratio x source length + 10)");
  BOOST_TEST(error_of({"--json-input"}, "{\"text\": \"w1\"}\n{\"text\": w1}\n").rfind("nmt-decode: <stdin>:2: not JSON", 0) == 0);
  BOOST_TEST(error_of({"--force-decode"}, "w1 w2\tw1 </s> w2\n") ==
             "nmt-decode: <stdin>:1: the prefix 'w1 </s> w2' has the special token '</s>' before its end");
  BOOST_TEST(error_of({"--constraints", "unordered"}, "\tw1\n") ==
             "nmt-decode: <stdin>:1: an empty source has no translation to constrain");
  const std::string short_file = m.dir.write("one_prefix", "w1\n");
  BOOST_TEST(error_of({"--prefix", short_file}, "w1 w2\nw3\n") ==
             "nmt-decode: " + short_file + ": ends after 1 lines, before <stdin> does (--prefix needs a line per input line)");
  BOOST_TEST(error_of({"--prefix", short_file}, "") ==
             "nmt-decode: " + short_file + ":1: more lines than <stdin> has (0)");
  const auto both = m.decode({"--prefix", short_file, "--force-decode"}, "w1\n");
  BOOST_TEST(both.exit_code == 2);
  BOOST_TEST(both.err.find("--prefix and --force-decode both give the prefix") != std::string::npos, both.err);
  const auto order = m.decode({"--constraints", "sorted"}, "w1\n");
  BOOST_TEST(order.exit_code == 2);
  BOOST_TEST(order.err.find("--constraints must be ordered or unordered, got 'sorted'") != std::string::npos, order.err);
}

BOOST_AUTO_TEST_SUITE_END()
