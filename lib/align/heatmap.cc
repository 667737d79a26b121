#include "align/heatmap.h"

#include <algorithm>
#include <utility>

#include "util/error.h"
#include "util/number_format.h"
#include "util/xml_escape.h"

namespace rnnsearch::align {

namespace {

constexpr int kCell = 22;        // pixels per cell
constexpr int kCharWidth = 7;    // approximate width of a 12px character, for the label margins
constexpr int kGap = 40;         // pixels between pairs
constexpr int kScaleTop = 44;    // pixels above the first pair, for the colour scale
constexpr int kScaleLeft = 130;  // where the scale's bar starts, right of its caption
constexpr int kScaleWidth = 110;

std::size_t longest(const std::vector<std::string>& labels) {
  std::size_t n = 0;
  for (const auto& label : labels) n = std::max(n, label.size());
  return n;
}

// <text x="X" y="Y" ATTRIBUTES>TEXT</text>, the text (user input of any length) escaped whole.
std::string text_element(int x, int y, const std::string& attributes, const std::string& text) {
  return "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\"" + attributes + ">" +
         util::xml_escape(text) + "</text>\n";
}

// The colour of weight w in [0, 1]: "rgb(255,255,255)" (white) for 0 to "rgb(0,0,0)" for 1.
std::string shade(float w) {
  const std::string level = std::to_string(static_cast<int>(255.0f * (1.0f - w) + 0.5f));
  return "rgb(" + level + "," + level + "," + level + ")";
}

// A cell shaded by its weight w in [0, 1], the weight in its tooltip.
std::string cell_element(int x, int y, float w) {
  const std::string weight = util::fixed(static_cast<double>(w), 3);
  return "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(kCell) +
         "\" height=\"" + std::to_string(kCell) + "\" fill=\"" + shade(w) + "\" stroke=\"#ccc\"><title>" + weight +
         "</title></rect>\n";
}

// The colour scale: a bar shaded as the cells are (SVG gradients interpolate in sRGB, as
// shade() does), with the weights 0, 0.5 and 1 under its start, middle and end.
std::string scale_elements() {
  std::string body = "<defs><linearGradient id=\"attention-shades\"><stop offset=\"0\" stop-color=\"" + shade(0.0f) +
                     "\"/><stop offset=\"1\" stop-color=\"" + shade(1.0f) + "\"/></linearGradient></defs>\n";
  body += "<g id=\"colour-scale\">\n" + text_element(4, 16, "", "attention weight");
  body += "<rect x=\"" + std::to_string(kScaleLeft) + "\" y=\"5\" width=\"" + std::to_string(kScaleWidth) +
          "\" height=\"14\" fill=\"url(#attention-shades)\" stroke=\"#ccc\"/>\n";
  for (const auto& [at, label] : {std::pair{0, "0"}, std::pair{kScaleWidth / 2, "0.5"}, std::pair{kScaleWidth, "1"}}) {
    body += text_element(kScaleLeft + at, 34, " text-anchor=\"middle\"", label);
  }
  return body + "</g>\n";
}

// One pair's title, labels and cells, its grid's top left corner at (margin_left, grid_top).
std::string pair_elements(const HeatmapPair& pair, int y, int margin_left, int grid_top) {
  std::string body = text_element(4, y + 16, " font-weight=\"bold\"", pair.title);
  for (std::size_t i = 0; i < pair.source.size(); ++i) {
    const int x = margin_left + static_cast<int>(i) * kCell + kCell / 2 + 4;
    const std::string pivot = std::to_string(x) + " " + std::to_string(grid_top - 4);
    body += text_element(x, grid_top - 4, " transform=\"rotate(-60 " + pivot + ")\"", pair.source[i]);
  }
  for (std::size_t j = 0; j < pair.target.size(); ++j) {
    const int cell_y = grid_top + static_cast<int>(j) * kCell;
    body += text_element(margin_left - 4, cell_y + kCell - 6, " text-anchor=\"end\"", pair.target[j]);
    for (std::size_t i = 0; i < pair.source.size(); ++i) {
      const float w = std::clamp(pair.weights(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(i)), 0.0f, 1.0f);
      body += cell_element(margin_left + static_cast<int>(i) * kCell, cell_y, w);
    }
  }
  return body;
}

}  // namespace

std::string attention_svg(const std::vector<HeatmapPair>& pairs) {
  std::size_t left = 0, top = 0, widest = 0;
  for (const auto& pair : pairs) {
    if (pair.weights.rows() != static_cast<Eigen::Index>(pair.target.size()) ||
        pair.weights.cols() != static_cast<Eigen::Index>(pair.source.size())) {
      throw util::Error("heatmap '" + pair.title + "': weights do not match the token labels");
    }
    left = std::max(left, longest(pair.target));
    top = std::max(top, longest(pair.source));
    widest = std::max(widest, pair.source.size());
  }
  const int margin_left = static_cast<int>(left) * kCharWidth + 10;
  const int margin_top = static_cast<int>(top) * kCharWidth + 30;
  std::string body = scale_elements();
  int y = kScaleTop;
  for (const auto& pair : pairs) {
    const int grid_top = y + margin_top;
    body += pair_elements(pair, y, margin_left, grid_top);
    y = grid_top + static_cast<int>(pair.target.size()) * kCell + kGap;
  }
  const int width = std::max(margin_left + static_cast<int>(widest) * kCell, kScaleLeft + kScaleWidth) + 20;
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
         std::to_string(y) + "\" font-family=\"sans-serif\" font-size=\"12\">\n" +
         "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + body + "</svg>\n";
}

}  // namespace rnnsearch::align
