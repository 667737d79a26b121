// nmt-align heatmap --merge words on a small hand-made case: a source word of two pieces
// gets the sum of their columns, a target word of two pieces the mean of their rows, the
// labels lose their "@@ " joins, and </s> stays a row and a column of its own. Labels of
// any length are drawn whole and escaped.
#include <boost/test/unit_test.hpp>
#include <string>

#include "align/extract.h"
#include "align/heatmap.h"

using namespace rnnsearch;

namespace {

// Source "écono@@ mique x" and target "y eco@@ nomy", each with </s>, as
// align::attention_heatmaps labels them; [(3 + </s>) x (3 + </s>)], rows summing to 1.
align::HeatmapPair pieces() {
  align::HeatmapPair pair;
  pair.title = "line 3";
  pair.source = {"\xC3\xA9" "cono@@", "mique", "x", "</s>"};
  pair.target = {"y", "eco@@", "nomy", "</s>"};
  pair.weights.resize(4, 4);
  pair.weights << 0.10f, 0.20f, 0.30f, 0.40f,  // y
      0.50f, 0.10f, 0.20f, 0.20f,              // eco@@
      0.30f, 0.30f, 0.10f, 0.30f,              // nomy
      0.05f, 0.15f, 0.20f, 0.60f;              // </s>
  return pair;
}

// How often `part` occurs in `text`.
std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(heatmap)

BOOST_AUTO_TEST_CASE(merging_to_words_sums_source_pieces_and_averages_target_pieces) {
  const auto words = align::heatmap_of_words(pieces());
  BOOST_TEST(words.title == "line 3");
  BOOST_TEST(words.source == (std::vector<std::string>{"\xC3\xA9" "conomique", "x", "</s>"}),
             boost::test_tools::per_element());
  BOOST_TEST(words.target == (std::vector<std::string>{"y", "economy", "</s>"}), boost::test_tools::per_element());
  math::Matrix expected(3, 3);
  expected << 0.30f, 0.30f, 0.40f,  // y: écono@@ + mique
      0.60f, 0.15f, 0.25f,          // economy: the mean of rows eco@@ and nomy
      0.20f, 0.20f, 0.60f;          // </s>: its own row, its columns merged the same way
  BOOST_TEST_REQUIRE(words.weights.rows() == 3);
  BOOST_TEST_REQUIRE(words.weights.cols() == 3);
  for (Eigen::Index t = 0; t < 3; ++t) {
    for (Eigen::Index s = 0; s < 3; ++s) {
      BOOST_TEST(words.weights(t, s) == expected(t, s), boost::test_tools::tolerance(1e-6f));
    }
  }
  const std::string svg = align::attention_svg({words});
  BOOST_TEST(svg.find("@@") == std::string::npos);
  BOOST_TEST(svg.find(">\xC3\xA9" "conomique</text>") != std::string::npos);
  BOOST_TEST(svg.find(">economy</text>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(words_of_one_piece_keep_their_cells_and_a_dangling_join_is_undone) {
  align::HeatmapPair pair = pieces();
  pair.source = {"a", "b", "c@@", "</s>"};  // "c@@" ends the line: undo_bpe drops its "@@"
  pair.target = {"x", "y", "z", "</s>"};
  const auto words = align::heatmap_of_words(pair);
  BOOST_TEST(words.source == (std::vector<std::string>{"a", "b", "c", "</s>"}), boost::test_tools::per_element());
  BOOST_TEST(words.target == pair.target, boost::test_tools::per_element());
  BOOST_TEST(words.weights.isApprox(pair.weights));
}

// A token longer than any fixed buffer (2,000 bytes of two- and three-byte UTF-8 sequences and
// characters XML escapes) is a whole escaped label, in the title too, and the SVG stays
// well-formed: every element opened is closed.
BOOST_AUTO_TEST_CASE(a_2000_byte_token_is_drawn_whole_and_escaped) {
  std::string token, escaped;
  for (int k = 0; k < 200; ++k) {
    token += "\xC3\xA9<\xE2\x82\xAC&>\"x";  // é < € & > " x: 10 bytes
    escaped += "\xC3\xA9&lt;\xE2\x82\xAC&amp;&gt;&quot;x";
  }
  BOOST_TEST_REQUIRE(token.size() == 2000u);
  align::HeatmapPair pair = pieces();
  pair.title = token;
  pair.source[1] = token;
  pair.target[2] = token;
  const std::string svg = align::attention_svg({pair});
  BOOST_TEST(count(svg, ">" + escaped + "</text>\n") == 3u);  // title, column label, row label
  BOOST_TEST(count(svg, "<text") == 13u);  // the scale's caption and 3 weights, 1 title + 4 columns + 4 rows
  BOOST_TEST(count(svg, "</text>") == count(svg, "<text"));
  BOOST_TEST(count(svg, "<rect") == 18u);  // the background, the scale's bar and 4 x 4 cells
  BOOST_TEST(count(svg, "</rect>") == 16u);
  BOOST_TEST(count(svg, "<title>") == count(svg, "</title>"));
  BOOST_TEST(svg.rfind("<svg ", 0) == 0u);
  BOOST_TEST(svg.substr(svg.size() - 7) == "</svg>\n");
  BOOST_TEST(svg.find('\0') == std::string::npos);
}

// Every picture has one colour scale, above the first pair: a bar from the shade of
// weight 0 to that of weight 1, labelled 0, 0.5 and 1 at its start, middle and end, in
// the shades the cells take (a cell of weight 0.5 is the middle of the bar).
BOOST_AUTO_TEST_CASE(every_picture_has_a_colour_scale_of_the_cells_shades) {
  align::HeatmapPair pair = pieces();
  pair.weights(0, 0) = 0.0f;
  pair.weights(0, 1) = 0.5f;
  pair.weights(0, 2) = 1.0f;
  const std::string svg = align::attention_svg({pair, pair});
  BOOST_TEST(count(svg, "<g id=\"colour-scale\">") == 1u);
  BOOST_TEST_REQUIRE(svg.find("<g id=\"colour-scale\">") < svg.find("line 3"));
  BOOST_TEST(svg.find("<stop offset=\"0\" stop-color=\"rgb(255,255,255)\"/>"
                      "<stop offset=\"1\" stop-color=\"rgb(0,0,0)\"/>") != std::string::npos, svg);
  BOOST_TEST(count(svg, "fill=\"url(#attention-shades)\"") == 1u);
  const std::string scale = svg.substr(svg.find("<g id=\"colour-scale\">"));
  const std::string labels[] = {">attention weight</text>", ">0</text>", ">0.5</text>", ">1</text>"};
  std::size_t at = 0;
  for (const auto& label : labels) {  // in this order, left to right
    const auto found = scale.find(label, at);
    BOOST_TEST(found != std::string::npos, label);
    at = found;
  }
  BOOST_TEST(svg.find("fill=\"rgb(255,255,255)\" stroke=\"#ccc\"><title>0.000</title>") != std::string::npos);
  BOOST_TEST(svg.find("fill=\"rgb(128,128,128)\" stroke=\"#ccc\"><title>0.500</title>") != std::string::npos);
  BOOST_TEST(svg.find("fill=\"rgb(0,0,0)\" stroke=\"#ccc\"><title>1.000</title>") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
