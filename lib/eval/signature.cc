#include "eval/signature.h"

#include <vector>

namespace rnnsearch::eval {

std::string format_signature(const Metric& metric, const SignatureGlobals& globals, bool short_form) {
  std::vector<std::pair<std::string, std::string>> names = {
      {"version", "v"}, {"nrefs", "#"}, {"bs", "bs"}, {"ar", "ar"}, {"seed", "rs"}};
  for (const auto& abbreviation : metric.short_names()) names.push_back(abbreviation);
  auto name_of = [&](const std::string& key) {
    if (!short_form) return key;
    for (const auto& [long_name, short_name] : names) {
      if (long_name == key) return short_name;
    }
    return key;
  };

  std::string out;
  auto add = [&](const std::string& key, const std::string& value) {
    if (!out.empty()) out += '|';
    out += name_of(key) + ":" + value;
  };
  add("nrefs", std::to_string(metric.num_refs()));
  if (globals.bootstrap_samples) add("bs", std::to_string(*globals.bootstrap_samples));
  if (globals.ar_trials) add("ar", std::to_string(*globals.ar_trials));
  if (globals.seed) add("seed", *globals.seed);
  for (const auto& [key, value] : metric.signature_fields()) add(key, value);
  add("version", kSacrebleuVersion);
  return out;
}

}  // namespace rnnsearch::eval
