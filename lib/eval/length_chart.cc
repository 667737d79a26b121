#include "eval/length_chart.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string_view>

#include "util/error.h"
#include "util/number_format.h"
#include "util/xml_escape.h"

namespace rnnsearch::eval {
namespace {

constexpr int kWidth = 680, kHeight = 410;
constexpr int kLeft = 60, kRight = 210, kTop = 40, kBottom = 70;  // margins; the legend sits on the right
constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"};

// `pattern` with its "%.Nf" conversions (N one digit) filled by a, b, c, d in turn, as printf
// would fill them.
std::string format(std::string_view pattern, double a, double b = 0, double c = 0, double d = 0) {
  const double values[] = {a, b, c, d};
  std::size_t next = 0;
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const bool conversion = pattern[i] == '%' && i + 3 < pattern.size() && pattern[i + 1] == '.' &&
                            pattern[i + 2] >= '0' && pattern[i + 2] <= '9' && pattern[i + 3] == 'f';
    if (!conversion) {
      out += pattern[i];
      continue;
    }
    if (next == std::size(values)) throw util::Error("length chart: more than four numbers in a pattern");
    out += util::fixed(values[next++], pattern[i + 2] - '0');
    i += 3;
  }
  return out;
}

}  // namespace

std::string length_chart_svg(const LengthScores& scores, const std::string& metric_name) {
  const int plot_width = kWidth - kLeft - kRight, plot_height = kHeight - kTop - kBottom;
  const std::size_t buckets = scores.buckets.size();
  double best = 0.0;
  for (const auto& system : scores.scores) {
    for (const auto& s : system) best = std::max(best, s.score);
  }
  const double y_max = std::max(10.0, std::ceil((best + 1e-9) / 10.0) * 10.0);
  auto x_of = [&](std::size_t b) { return kLeft + plot_width * (b + 0.5) / static_cast<double>(buckets); };
  auto y_of = [&](double v) { return kTop + plot_height * (1.0 - v / y_max); };

  std::string svg = format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                           "font-family=\"sans-serif\" font-size=\"12\">\n", kWidth, kHeight);
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += format("<text x=\"%.0f\" y=\"24\" font-size=\"14\">", kLeft) + util::xml_escape(metric_name) +
         " by source sentence length</text>\n";
  // Axes, horizontal grid lines every 10 points, bucket labels.
  for (double v = 0; v <= y_max + 1e-9; v += 10.0) {
    svg += format("<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", kLeft, y_of(v),
                  kLeft + plot_width, y_of(v));
    svg += format("<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", kLeft - 6, y_of(v) + 4, v);
  }
  svg += format("<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", kLeft, kTop, kLeft,
                kTop + plot_height);
  svg += format("<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", kLeft,
                kTop + plot_height, kLeft + plot_width, kTop + plot_height);
  for (std::size_t b = 0; b < buckets; ++b) {
    svg += format("<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">", x_of(b), kTop + plot_height + 18) +
           util::xml_escape(scores.buckets[b].label) + "</text>\n";
    // How many sentences the bucket's points stand on: a score over 50 sentences swings.
    svg += format("<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\" font-size=\"10\" fill=\"#666\">"
                  "n=%.0f</text>\n", x_of(b), kTop + plot_height + 32,
                  static_cast<double>(scores.buckets[b].segments.size()));
  }
  svg += format("<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">source sentence length (words; "
                "n = sentences per bucket)</text>\n", kLeft + plot_width / 2.0, kHeight - 12);
  svg += format("<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" text-anchor=\"middle\">", 
                kTop + plot_height / 2.0, kTop + plot_height / 2.0) + util::xml_escape(metric_name) + "</text>\n";
  // One polyline per run of non-empty buckets, markers with the value as a tooltip.
  for (std::size_t s = 0; s < scores.scores.size(); ++s) {
    const std::string color = kColors[s % (sizeof kColors / sizeof kColors[0])];
    std::string points;
    auto flush = [&] {
      if (!points.empty()) svg += "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\" points=\"" + points + "\"/>\n";
      points.clear();
    };
    for (std::size_t b = 0; b < buckets; ++b) {
      const double v = scores.scores[s][b].score;
      if (v < 0) {
        flush();
        continue;
      }
      points += format("%.1f,%.1f ", x_of(b), y_of(v));
      svg += format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"", x_of(b), y_of(v)) + color + "\"><title>" +
             util::xml_escape(scores.systems[s]) + ", " + util::xml_escape(scores.buckets[b].label) + ": " +
             format("%.2f", v) + "</title></circle>\n";
    }
    flush();
    const double legend_y = kTop + 10 + 20.0 * static_cast<double>(s);
    svg += format("<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke-width=\"2\" stroke=\"",
                  kLeft + plot_width + 16, legend_y, kLeft + plot_width + 40, legend_y) + color + "\"/>\n";
    svg += format("<text x=\"%.0f\" y=\"%.1f\">", kLeft + plot_width + 46, legend_y + 4) +
           util::xml_escape(scores.systems[s]) + "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace rnnsearch::eval
