// nmt-align as users run it: attention alignments of a reversal model's pairs scored by
// `nmt-align eval` against the mirrored gold links (additive, general and dot attention),
// symmetrization identical to atools on the golden file, and errors naming file and line
// (a model without attention among them).
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>

#include "support/end_warnings.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/shared_data.h"
#include "util/rng.h"

namespace rt = rnnsearch::testing;

namespace {

double field(const std::string& report, const std::string& name) {
  const auto at = report.find(name + " ");
  BOOST_TEST_REQUIRE(at != std::string::npos, report);
  return std::stod(report.substr(at + name.size() + 1));
}

// AER of nmt-align's hard alignments of 200 held-out reversals under `m`, scored by
// nmt-align eval against the mirrored gold links.
double reversal_aer(const rt::ReversalModel& m) {
  rnnsearch::util::Rng rng(77);
  std::ostringstream source, target, gold;
  for (int i = 0; i < 200; ++i) {
    const int length = 3 + static_cast<int>(rng.below(4));
    std::vector<std::string> words;
    for (int k = 0; k < length; ++k) words.push_back("w" + std::to_string(rng.below(10)));
    for (int k = 0; k < length; ++k) {
      source << (k ? " " : "") << words[static_cast<std::size_t>(k)];
      target << (k ? " " : "") << words[static_cast<std::size_t>(length - 1 - k)];
      gold << (k ? " " : "") << k << "-" << length - 1 - k;
    }
    source << '\n';
    target << '\n';
    gold << '\n';
  }
  const auto src = m.dir.write("test.src", source.str()), tgt = m.dir.write("test.tgt", target.str());
  const auto gold_file = m.dir.write("test.gold", gold.str());
  const auto out = (m.dir.path() / "test.align").string();
  const auto aligned = rt::run_process({rt::tool_path("nmt-align"), "-m", m.model, "-s", src, "-t", tgt, "-o", out});
  BOOST_TEST_REQUIRE(aligned.exit_code == 0, aligned.err);
  // Threads force-decode whole mini-batches each: the same links, byte for byte.
  const auto threaded = rt::run_process({rt::tool_path("nmt-align"), "-m", m.model, "-s", src, "-t", tgt, "--threads",
                                         "3", "--mini-batch", "7", "--mode", "soft"});
  const auto single = rt::run_process({rt::tool_path("nmt-align"), "-m", m.model, "-s", src, "-t", tgt, "--mini-batch",
                                       "7", "--mode", "soft"});
  BOOST_TEST_REQUIRE(threaded.exit_code == 0, threaded.err);
  BOOST_TEST((threaded.out == single.out));
  const auto scored = rt::run_process({rt::tool_path("nmt-align"), "eval", "-g", gold_file, "-a", out});
  BOOST_TEST_REQUIRE(scored.exit_code == 0, scored.err);
  BOOST_TEST_MESSAGE(scored.out);
  return field(scored.out, "AER");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(align_cli)

BOOST_AUTO_TEST_CASE(hard_attention_alignments_of_a_reordering_task_reach_low_aer) {
  rt::ReversalModel m;
  BOOST_TEST(reversal_aer(m) <= 0.10);
}

BOOST_AUTO_TEST_CASE(multiplicative_attention_aligns_without_any_option) {
  // The model file says which attention to use: general and dot align like additive.
  for (const std::string form : {"general", "dot"}) {
    rt::ReversalModel m(form);
    BOOST_TEST(reversal_aer(m) <= 0.10, form);
  }
}

BOOST_AUTO_TEST_CASE(a_model_without_attention_is_refused_naming_the_file) {
  rt::ReversalModel m("none");
  const auto src = m.dir.write("s", "w1 w2 w3\n"), tgt = m.dir.write("t", "w3 w2 w1\n");
  const std::string expected =
      "nmt-align: " + m.model + ": trained with --attention none, the model has no attention weights for ";
  const auto aligned = rt::run_process({rt::tool_path("nmt-align"), "-m", m.model, "-s", src, "-t", tgt});
  BOOST_TEST(aligned.exit_code == 1);
  BOOST_TEST(aligned.out.empty());
  BOOST_TEST(aligned.err == expected + "alignments\n");
  const auto svg = (m.dir.path() / "a.svg").string();
  const auto drawn =
      rt::run_process({rt::tool_path("nmt-align"), "heatmap", "-m", m.model, "-s", src, "-t", tgt, "-o", svg});
  BOOST_TEST(drawn.exit_code == 1);
  BOOST_TEST(drawn.err == expected + "a heatmap\n");
  BOOST_TEST(!std::ifstream(svg).good());
}

BOOST_AUTO_TEST_CASE(subword_pieces_are_merged_to_words) {
  rt::ReversalModel m;
  // "w1@@ w2" is one source word: every link refers to words 0..1, never to index 2.
  const auto src = m.dir.write("s", "w1@@ w2 w3\n\nw4 w5 w6\n"), tgt = m.dir.write("t", "w3 w2 w1\nw1\nw6 w5 w4\n");
  const auto r = rt::run_process({rt::tool_path("nmt-align"), "-m", m.model, "-s", src, "-t", tgt});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  std::istringstream lines(r.out);
  std::string first, second, third;
  std::getline(lines, first);
  std::getline(lines, second);
  std::getline(lines, third);
  BOOST_TEST(first.find("2-") == std::string::npos, first);
  BOOST_TEST(second.empty());
  BOOST_TEST(third == "0-2 1-1 2-0");
  const auto inverted = rt::run_process({rt::tool_path("nmt-align"), "-m", m.model, "-s", src, "-t", tgt, "--invert"});
  // Inverted, the first pair's 2 source words are the second index: never "-2".
  const std::string inverted_first = inverted.out.substr(0, inverted.out.find('\n'));
  BOOST_TEST(!inverted_first.empty());
  BOOST_TEST(inverted_first.find("-2") == std::string::npos, inverted_first);
  const auto soft = rt::run_process({rt::tool_path("nmt-align"), "-m", m.model, "-s", src, "-t", tgt, "--mode", "soft"});
  BOOST_TEST(soft.exit_code == 0);
}

// Aligning text the model does not know (here 4 of 6 source pieces) ends with one warning
// per side over the share, whatever the batches and threads, the links unchanged; heatmap
// counts the pairs it draws.
BOOST_AUTO_TEST_CASE(unknown_pieces_warn_once_at_the_end) {
  rt::ReversalModel m;
  const auto src = m.dir.write("s", "w1 Das ist\ngut . w2\n"), tgt = m.dir.write("t", "w2 w1\nw2 w1\n");
  const auto warning_of = [&](const std::string& counts) {
    return "nmt-align: warning: " + counts + " source tokens (66.7%) in " + src +
           " are unknown to the model; is the text tokenized, BPE'd with the model's codes, and in the model's source "
           "language?";
  };
  const std::string warning = warning_of("4 of 6");
  const auto r = rt::check_end_warning({rt::tool_path("nmt-align"), "-m", m.model, "-s", src, "-t", tgt}, "", warning,
                                       {}, {"--unknown-warning", "1"});
  BOOST_TEST(r.plain.err == warning + "\n");  // the target side is clean
  BOOST_TEST(r.silent.out == r.plain.out);
  BOOST_TEST(r.silent.err.empty(), r.silent.err);
  const auto svg = (m.dir.path() / "a.svg").string();
  const auto drawn = rt::run_process({rt::tool_path("nmt-align"), "heatmap", "-m", m.model, "-s", src, "-t", tgt,
                                      "--lines", "2", "-o", svg, "-q"});
  BOOST_TEST(drawn.err == warning_of("2 of 3") + "\n");
}

BOOST_AUTO_TEST_CASE(heatmap_draws_one_cell_per_token_pair_with_escaped_labels) {
  rt::ReversalModel m;
  const auto src = m.dir.write("s", "w1 w2 w3\nw4 & w5\n"), tgt = m.dir.write("t", "w3 w2 w1\nw5 <x> w4\n");
  const auto svg = (m.dir.path() / "a.svg").string();
  const auto r = rt::run_process({rt::tool_path("nmt-align"), "heatmap", "-m", m.model, "-s", src, "-t", tgt, "--lines",
                                  "2,1", "-o", svg, "-q"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  std::ifstream file(svg);
  std::ostringstream text;
  text << file.rdbuf();
  const std::string picture = text.str();
  BOOST_TEST(picture.rfind("<svg ", 0) == 0u);
  BOOST_TEST(picture.find("</svg>") != std::string::npos);
  std::size_t rects = 0;
  for (std::size_t at = picture.find("<rect "); at != std::string::npos; at = picture.find("<rect ", at + 1)) ++rects;
  BOOST_TEST(rects == 2u + 2u * 4u * 4u);  // the background and the colour scale, then (3 + </s>)^2 cells a pair
  BOOST_TEST(picture.find("<g id=\"colour-scale\">") < picture.find("line 2"));
  BOOST_TEST(picture.find(">&amp;<") != std::string::npos);
  BOOST_TEST(picture.find(">&lt;x&gt;<") != std::string::npos);
  BOOST_TEST(picture.find("line 2") < picture.find("line 1"));
  const auto beyond = rt::run_process({rt::tool_path("nmt-align"), "heatmap", "-m", m.model, "-s", src, "-t", tgt,
                                       "--lines", "3", "-o", svg});
  BOOST_TEST(beyond.exit_code == 1);
  BOOST_TEST(beyond.err.find(src + ": has 2 lines; --lines asks for line 3") != std::string::npos, beyond.err);
  BOOST_TEST(rt::run_process({rt::tool_path("nmt-align"), "heatmap", "-m", m.model, "-s", src, "-t", tgt, "--lines",
                              "0"}).exit_code == 2);
}

BOOST_AUTO_TEST_CASE(heatmap_merge_words_draws_words_without_joins) {
  rt::ReversalModel m;
  const auto src = m.dir.write("s", "w1@@ w2 w3\n"), tgt = m.dir.write("t", "w3 w2@@ w1\n");
  const auto draw = [&](std::vector<std::string> extra) {
    const auto svg = (m.dir.path() / "a.svg").string();
    std::vector<std::string> args{rt::tool_path("nmt-align"), "heatmap", "-m", m.model, "-s", src, "-t", tgt,
                                  "-o", svg, "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = rt::run_process(args);
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    std::ifstream file(svg);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
  };
  const auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  const std::string pieces = draw({});
  BOOST_TEST(draw({"--merge", "pieces"}) == pieces);  // the default
  BOOST_TEST(pieces.find(">w1@@</text>") != std::string::npos);
  const std::string words = draw({"--merge", "words"});
  BOOST_TEST(words.find("@@") == std::string::npos, words);
  BOOST_TEST(words.find(">w1w2</text>") != std::string::npos);
  BOOST_TEST(words.find(">w2w1</text>") != std::string::npos);
  BOOST_TEST(count(words, ">&lt;/s&gt;</text>") == 2u);  // the source column and the target row
  BOOST_TEST(count(words, "<rect ") == 2u + 3u * 3u);  // the background, the colour scale, (2 words + </s>)^2
  BOOST_TEST(count(words, "<g id=\"colour-scale\">") == 1u);
  const auto never_written = (m.dir.path() / "b.svg").string();
  const auto bad = rt::run_process({rt::tool_path("nmt-align"), "heatmap", "-m", m.model, "-s", src, "-t", tgt,
                                    "--merge", "foo", "-o", never_written});
  BOOST_TEST(bad.exit_code == 2);
  BOOST_TEST(bad.err.find("--merge must be pieces or words, got 'foo'") != std::string::npos, bad.err);
  BOOST_TEST(!std::ifstream(never_written).good());
}

BOOST_AUTO_TEST_CASE(symmetrize_reproduces_atools_grow_diag_final_and) {
  const std::string dir = rt::shared_path("golden/align");
  if (!rt::require_shared(dir + "/gdfa.1000.align")) return;
  const auto r = rt::run_process({rt::tool_path("nmt-align"), "symmetrize", "-i", dir + "/forward.1000.align", "-j",
                                  dir + "/reverse.1000.align", "-c", "grow-diag-final-and"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  std::ifstream expected(dir + "/gdfa.1000.align");
  std::ostringstream text;
  text << expected.rdbuf();
  BOOST_TEST((r.out == text.str()));
}

BOOST_AUTO_TEST_CASE(eval_counts_sure_and_possible_links) {
  rt::TempDir dir;
  const auto gold = dir.write("gold", "0-0 1-2 1?1\n0-1\n"), hyp = dir.write("hyp", "0-0 1-1 2-2\n0-1\n");
  const auto r = rt::run_process({rt::tool_path("nmt-align"), "eval", "-g", gold, "-a", hyp});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out == "precision 0.7500\nrecall 0.6667\nAER 0.2857\nlinks 4, sure 3, matching sure 2, matching possible 3\n");
}

BOOST_AUTO_TEST_CASE(bad_files_name_file_and_line) {
  rt::TempDir dir;
  const auto a = dir.write("a", "0-0\n1-x\n"), b = dir.write("b", "0-0\n1-1\n"), c = dir.write("c", "0-0\n");
  auto r = rt::run_process({rt::tool_path("nmt-align"), "symmetrize", "-i", a, "-j", b});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("nmt-align: " + a + ":2: malformed alignment pair '1-x'") == 0u, r.err);
  r = rt::run_process({rt::tool_path("nmt-align"), "eval", "-g", c, "-a", b});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("nmt-align: " + c + ": has 1 line, but " + b + " has 2") == 0u, r.err);
  r = rt::run_process({rt::tool_path("nmt-align"), "symmetrize", "-i", b, "-j", b, "-c", "grow"});
  BOOST_TEST(r.exit_code == 2);
}

BOOST_AUTO_TEST_CASE(eval_reads_the_shared_task_format_as_its_pharaoh_form) {
  rt::TempDir dir;
  const auto pharaoh = dir.write("gold.txt", "0-0 1-2 1?1\n\n0-1\n");
  const auto task = dir.write("gold.wa", "0001 1 1 S\n0001 2 3 S\n0001 2 2 P\n0001 0 3 S\n0003 1 2 S\n");
  const auto hyp = dir.write("hyp", "0-0 1-1 2-2\n0-0\n0-1\n");
  const auto expected = rt::run_process({rt::tool_path("nmt-align"), "eval", "-g", pharaoh, "-a", hyp});
  const auto r = rt::run_process({rt::tool_path("nmt-align"), "eval", "-g", task, "-a", hyp});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out == expected.out);
  // The NULL link (position 0) is left out, and said so; -q keeps quiet.
  BOOST_TEST(r.err == "nmt-align: note: " + task + ": 1 link to position 0 (NULL) left out, as in the no-null evaluation\n");
  const auto quiet = rt::run_process({rt::tool_path("nmt-align"), "eval", "-q", "-g", task, "-a", hyp});
  BOOST_TEST(quiet.err == "");
  // A hypothesis with lines after the last numbered sentence is scored with a warning.
  const auto longer = dir.write("longer", "0-0 1-1 2-2\n0-0\n0-1\n1-1\n");
  const auto warned = rt::run_process({rt::tool_path("nmt-align"), "eval", "-g", task, "-a", longer});
  BOOST_TEST(warned.exit_code == 0);
  BOOST_TEST(warned.err.find("numbers 3 sentences") != std::string::npos, warned.err);
  const auto bad = dir.write("bad.wa", "0001 1 1 S\n0001 1 x S\n");
  const auto error = rt::run_process({rt::tool_path("nmt-align"), "eval", "-g", bad, "-a", hyp});
  BOOST_TEST(error.exit_code == 1);
  BOOST_TEST(error.err.find(bad + ":2: expected 'SENT SRC_POS TGT_POS [S|P]'") != std::string::npos, error.err);
}

BOOST_AUTO_TEST_CASE(combine_links_where_the_two_soft_directions_agree) {
  rt::TempDir dir;
  // Forward rows: target words over source words; reverse rows: source words over target words.
  const auto forward = dir.write("fwd", "0.9,0.1 0.35,0.65\n1\n");
  const auto reverse = dir.write("rev", "0.8,0.2 0.5,0.5\n1\n");
  auto r = rt::run_process({rt::tool_path("nmt-align"), "combine", "-i", forward, "-j", reverse, "--threshold", "0.29"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out == "0-0 1-0 1-1\n0-0\n");
  const auto wrong = dir.write("wrong", "0.8,0.2 0.5,0.5\n0.5,0.5\n");
  r = rt::run_process({rt::tool_path("nmt-align"), "combine", "-i", forward, "-j", wrong});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find(wrong + ":2: the forward soft alignment is 1 target x 1 source words") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(ibm2_aligns_both_ways_source_first_and_refuses_empty_lines) {
  rt::TempDir dir;
  std::string source, target;
  for (int k = 0; k < 40; ++k) {
    source += "the a" + std::to_string(k % 7) + " b" + std::to_string(k % 5) + "\n";
    target += "le x" + std::to_string(k % 7) + " y" + std::to_string(k % 5) + "\n";
  }
  const auto s = dir.write("s", source), t = dir.write("t", target);
  for (const std::string flag : {"", "--reverse"}) {
    std::vector<std::string> argv{rt::tool_path("nmt-align"), "ibm2", "-s", s, "-t", t, "-q"};
    if (!flag.empty()) argv.push_back(flag);
    const auto r = rt::run_process(argv);
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.substr(0, r.out.find('\n')) == "0-0 1-1 2-2", flag);
  }
  const auto empty = dir.write("empty", "le x0 y0\n\n");
  const auto two = dir.write("two", "the a0 b0\nthe a1 b1\n");
  const auto r = rt::run_process({rt::tool_path("nmt-align"), "ibm2", "-s", two, "-t", empty});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find(empty + ":2: is empty") != std::string::npos, r.err);
}

// ibm2 --threads and --cache-mb change nothing in the output; lines of up to 4,000 words
// are read (real corpora have 1,000-word lines), longer ones are an error naming the line.
BOOST_AUTO_TEST_CASE(ibm2_output_is_the_same_on_any_threads_and_cache_and_reads_long_lines) {
  rt::TempDir dir;
  rnnsearch::util::Rng rng(5);
  std::string source, target;
  for (int k = 0; k < 3000; ++k) {
    const int length = 1 + static_cast<int>(rng.below(k == 1234 ? 1500 : 25));
    for (int w = 0; w < length; ++w) {
      const auto word = rng.below(60);
      source += (w ? " e" : "e") + std::to_string(word);
      target += (w ? " f" : "f") + std::to_string((word * 7) % 60);
    }
    source += '\n';
    target += '\n';
  }
  const auto s = dir.write("s", source), t = dir.write("t", target);
  std::string first;
  for (const std::vector<std::string> options : std::vector<std::vector<std::string>>{
           {"--threads", "1"}, {"--threads", "2"}, {"--threads", "3", "--cache-mb", "0"}, {"--threads", "2", "--cache-mb", "1"}}) {
    std::vector<std::string> argv{rt::tool_path("nmt-align"), "ibm2", "-s", s, "-t", t, "-q"};
    argv.insert(argv.end(), options.begin(), options.end());
    const auto r = rt::run_process(argv);
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    if (first.empty()) first = r.out;
    BOOST_TEST((r.out == first), options[1] + (options.size() > 2 ? " cache " + options[3] : ""));
  }
  std::string long_line;
  for (int w = 0; w < 4001; ++w) long_line += (w ? " x" : "x");
  const auto too_long = dir.write("long", "a b\n" + long_line + "\n"), two = dir.write("two", "a b\nc d\n");
  const auto r = rt::run_process({rt::tool_path("nmt-align"), "ibm2", "-s", too_long, "-t", two});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find(too_long + ":2: 4001 pieces, more than nmt-align reads (4000)") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(extraction_rules_are_checked) {
  rt::TempDir dir;
  const auto f = dir.write("f", "a\n");
  for (const auto& [option, value] : std::vector<std::pair<std::string, std::string>>{
           {"--step", "previous"}, {"--merge", "chars"}, {"--eos", "drop"}}) {
    const auto r = rt::run_process({rt::tool_path("nmt-align"), "-m", f, "-s", f, "-t", f, option, value});
    BOOST_TEST(r.exit_code == 2, option);
    BOOST_TEST(r.err.find(option + " must be") != std::string::npos, r.err);
  }
}

BOOST_AUTO_TEST_SUITE_END()
