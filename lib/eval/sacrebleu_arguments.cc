#include "eval/sacrebleu_arguments.h"

#include <cctype>
#include <cstdlib>

#include "util/error.h"
#include "util/option_range.h"

namespace rnnsearch::eval {
namespace {

std::string ascii_lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

std::optional<double> parse_smooth_value(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') {
    throw util::UsageError("--smooth-value must be a number, got '" + text + "'");
  }
  util::check_range("smooth-value", value, 0.0, 1000.0);
  return value;
}

std::optional<std::uint64_t> parse_seed(const std::string& text) {
  if (ascii_lowercase(text) == "none") return std::nullopt;
  char* end = nullptr;
  const std::uint64_t seed = std::strtoull(text.c_str(), &end, 10);
  // strtoull reads "-1" as its largest value: a minus sign is refused first.
  if (end == text.c_str() || *end != '\0' || text.find('-') != std::string::npos) {
    throw util::UsageError("--seed must be a non-negative integer or 'none', got '" + text + "'");
  }
  return seed;
}

void SacrebleuArguments::validate() const {
  if (test_sets.any()) {
    throw util::UsageError("test-set downloads (-t, -l, --origlang, --subset, --detail) are not supported; "
                           "give the reference files: nmt-bleu REF... -i HYP");
  }
  if (encoding != "utf-8" && encoding != "UTF-8" && encoding != "utf8") {
    throw util::UsageError("--encoding: only utf-8 is supported, got '" + encoding + "'");
  }
}

void SacrebleuArguments::apply_to(EvalOptions& config) const {
  validate();
  if (!smooth_value.empty()) config.bleu_smooth_value = parse_smooth_value(smooth_value);
  if (const char* env = std::getenv("SACREBLEU_FORMAT")) {
    const std::string format = ascii_lowercase(env);
    if (format == "json" || format == "text") config.format = parse_output_format(format);
  }
  std::string seed_text = seed;
  if (seed_text.empty()) {
    const char* env = std::getenv("SACREBLEU_SEED");
    seed_text = env ? env : "12345";
  }
  config.seed = parse_seed(seed_text);
}

}  // namespace rnnsearch::eval
