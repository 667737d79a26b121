#include "eval/score_format.h"

#include <algorithm>

#include "util/number_format.h"
#include "util/python_format.h"

namespace rnnsearch::eval {

std::string json_quote(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          out += "\\u" + util::hex(c, 4);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string format_score(const Score& score, int width, bool score_only, const std::string& signature,
                         bool json) {
  std::string sc = util::fixed(score.score, width);
  std::vector<std::pair<std::string, std::string>> fields;  // key, JSON value
  fields.emplace_back("name", json_quote(score.name));
  fields.emplace_back("score", util::python_float_repr(std::strtod(sc.c_str(), nullptr)));
  fields.emplace_back("signature", json_quote(signature));

  if (score.mean > 0) {
    const std::string mean = util::fixed(score.mean, width);
    const std::string ci = util::fixed(score.ci, width);
    const std::string confidence = "\xce\xbc = " + mean + " \xc2\xb1 " + ci;  // "μ = m ± ci"
    sc += " (" + confidence + ")";
    fields.emplace_back("confidence_mean", util::python_float_repr(std::strtod(mean.c_str(), nullptr)));
    fields.emplace_back("confidence_var", util::python_float_repr(std::strtod(ci.c_str(), nullptr)));
    fields.emplace_back("confidence", json_quote(confidence));
  }

  std::string full = signature.empty() ? score.name : score.name + "|" + signature;
  full += " = " + sc;
  if (!score.verbose.empty()) {
    full += " " + score.verbose;
    fields.emplace_back("verbose_score", json_quote(score.verbose));
  }
  if (score_only) return sc;
  if (!json) return full;

  // Signature items become fields too ("nrefs": "1", ...).
  std::size_t start = 0;
  while (!signature.empty() && start <= signature.size()) {
    std::size_t bar = signature.find('|', start);
    if (bar == std::string::npos) bar = signature.size();
    const std::string item = signature.substr(start, bar - start);
    const std::size_t colon = item.find(':');
    fields.emplace_back(item.substr(0, colon), json_quote(item.substr(colon + 1)));
    start = bar + 1;
  }
  std::string out = "{\n";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    // Python dicts keep one entry per key: a later signature key overwrites in place.
    bool duplicate = false;
    for (std::size_t j = 0; j < i; ++j) duplicate = duplicate || fields[j].first == fields[i].first;
    if (duplicate) continue;
    std::string value = fields[i].second;
    for (std::size_t j = i + 1; j < fields.size(); ++j) {
      if (fields[j].first == fields[i].first) value = fields[j].second;
    }
    if (out.size() > 2) out += ",\n";
    out += " " + json_quote(fields[i].first) + ": " + value;
  }
  return out + "\n}";
}

std::string format_single_results(const std::vector<std::string>& results, bool json) {
  if (json) {
    if (results.size() > 1) {
      std::string out = "[\n";
      for (std::size_t i = 0; i < results.size(); ++i) out += (i ? ",\n" : "") + results[i];
      return out + "\n]\n";
    }
    return results.empty() ? std::string() : results.front() + "\n";
  }
  if (results.size() == 1) return results.front() + "\n";

  // Align on " = ": lines without one (score only) are printed as they are, first.
  std::string out;
  std::vector<std::pair<std::size_t, const std::string*>> aligned;
  for (const std::string& line : results) {
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) {
      out += line + "\n";
    } else {
      aligned.emplace_back(eq - 1, &line);
    }
  }
  std::size_t w = 0;
  for (const auto& [len, line] : aligned) w = std::max(w, len);
  for (const auto& [len, line] : aligned) {
    out += std::string(w - len, ' ') + *line + "\n";
  }
  return out;
}

}  // namespace rnnsearch::eval
