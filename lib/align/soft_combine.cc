#include "align/soft_combine.h"

#include <cstdlib>
#include <vector>

#include "util/error.h"

namespace rnnsearch::align {

math::Matrix parse_soft_rows(const std::string& text, const std::string& file, std::size_t line) {
  std::vector<std::vector<float>> rows;
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (text[pos] == ' ') {
      ++pos;
      continue;
    }
    std::size_t end = text.find(' ', pos);
    if (end == std::string::npos) end = text.size();
    const std::string row_text = text.substr(pos, end - pos);
    std::vector<float> row;
    for (std::size_t at = 0; at <= row_text.size();) {
      std::size_t comma = row_text.find(',', at);
      if (comma == std::string::npos) comma = row_text.size();
      const std::string number = row_text.substr(at, comma - at);
      char* stop = nullptr;
      const float value = number.empty() ? 0.0f : std::strtof(number.c_str(), &stop);
      if (number.empty() || stop != number.c_str() + number.size() || !(value >= 0.0f && value <= 1.001f)) {
        throw util::Error(file, line, "expected soft alignment rows of weights in [0, 1] ('0.9,0.1 0.2,0.8'), got '" +
                                          number + "' in '" + row_text + "'");
      }
      row.push_back(value);
      at = comma + 1;
    }
    if (!rows.empty() && row.size() != rows.front().size()) {
      throw util::Error(file, line, "soft alignment rows of " + std::to_string(rows.front().size()) + " and " +
                                        std::to_string(row.size()) + " weights");
    }
    rows.push_back(std::move(row));
    pos = end;
  }
  math::Matrix weights(static_cast<Eigen::Index>(rows.size()), rows.empty() ? 0 : static_cast<Eigen::Index>(rows[0].size()));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < rows[r].size(); ++c) weights(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = rows[r][c];
  }
  return weights;
}

data::Alignment combine_soft(const math::Matrix& forward, const math::Matrix& reverse, float threshold,
                             const std::string& file, std::size_t line) {
  if (forward.rows() != reverse.cols() || forward.cols() != reverse.rows()) {
    throw util::Error(file, line, "the forward soft alignment is " + std::to_string(forward.rows()) + " target x " +
                                      std::to_string(forward.cols()) + " source words, the reverse one " +
                                      std::to_string(reverse.rows()) + " source x " + std::to_string(reverse.cols()) +
                                      " target words");
  }
  data::Alignment links;
  for (Eigen::Index s = 0; s < forward.cols(); ++s) {
    for (Eigen::Index t = 0; t < forward.rows(); ++t) {
      if (0.5f * (forward(t, s) + reverse(s, t)) >= threshold) links.push_back({static_cast<int>(s), static_cast<int>(t)});
    }
  }
  return links;
}

}  // namespace rnnsearch::align
