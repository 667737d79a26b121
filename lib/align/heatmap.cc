#include "align/heatmap.h"

#include <algorithm>
#include <cstdio>

#include "util/error.h"
#include "util/xml_escape.h"

namespace rnnsearch::align {

namespace {

constexpr int kCell = 22;        // pixels per cell
constexpr int kCharWidth = 7;    // approximate width of a 12px character, for the label margins
constexpr int kGap = 40;         // pixels between pairs

std::size_t longest(const std::vector<std::string>& labels) {
  std::size_t n = 0;
  for (const auto& label : labels) n = std::max(n, label.size());
  return n;
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
  std::string body;
  int y = 0;
  char buffer[512];  // numbers only: user text is appended, never formatted into it
  for (const auto& pair : pairs) {
    body += "<text x=\"4\" y=\"" + std::to_string(y + 16) + "\" font-weight=\"bold\">" + util::xml_escape(pair.title) +
            "</text>\n";
    const int grid_top = y + margin_top;
    for (std::size_t i = 0; i < pair.source.size(); ++i) {
      const int x = margin_left + static_cast<int>(i) * kCell + kCell / 2 + 4;
      std::snprintf(buffer, sizeof(buffer), "<text x=\"%d\" y=\"%d\" transform=\"rotate(-60 %d %d)\">", x,
                    grid_top - 4, x, grid_top - 4);
      body += buffer + util::xml_escape(pair.source[i]) + "</text>\n";
    }
    for (std::size_t j = 0; j < pair.target.size(); ++j) {
      const int cell_y = grid_top + static_cast<int>(j) * kCell;
      std::snprintf(buffer, sizeof(buffer), "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", margin_left - 4,
                    cell_y + kCell - 6);
      body += buffer + util::xml_escape(pair.target[j]) + "</text>\n";
      for (std::size_t i = 0; i < pair.source.size(); ++i) {
        const float w = std::clamp(pair.weights(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(i)), 0.0f, 1.0f);
        const int shade = static_cast<int>(255.0f * (1.0f - w) + 0.5f);
        std::snprintf(buffer, sizeof(buffer),
                      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" stroke=\"#ccc\">"
                      "<title>%.3f</title></rect>\n",
                      margin_left + static_cast<int>(i) * kCell, cell_y, kCell, kCell, shade, shade, shade,
                      static_cast<double>(w));
        body += buffer;
      }
    }
    y = grid_top + static_cast<int>(pair.target.size()) * kCell + kGap;
  }
  const int width = margin_left + static_cast<int>(widest) * kCell + 20;
  std::snprintf(buffer, sizeof(buffer),
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
                "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                width, std::max(y, 1));
  return std::string(buffer) + body + "</svg>\n";
}

}  // namespace rnnsearch::align
