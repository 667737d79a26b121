#include "eval/sacrebleu_arguments.h"

#include <cctype>
#include <cstdlib>
#include <limits>

#include "util/error.h"
#include "util/number_format.h"
#include "util/option_range.h"

namespace rnnsearch::eval {
namespace {

std::string ascii_lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

double parse_smooth_value(const std::string& text) {
  const auto value = util::parse_double(text);
  if (!value) throw util::UsageError("--smooth-value must be a number in [0, 1000], got '" + text + "'");
  util::check_range("smooth-value", *value, 0.0, 1000.0);
  return *value;
}

std::optional<std::uint64_t> parse_seed(const std::string& text, const std::string& source) {
  if (ascii_lowercase(text) == "none") return std::nullopt;
  const auto seed = util::parse_uint64(text);
  if (!seed) {
    throw util::UsageError(source + " must be an integer in [0, " +
                           std::to_string(std::numeric_limits<std::uint64_t>::max()) + "] or 'none', got '" + text +
                           "'");
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
  if (smooth_value) config.bleu_smooth_value = parse_smooth_value(*smooth_value);
  if (const char* env = std::getenv("SACREBLEU_FORMAT")) {
    const std::string format = ascii_lowercase(env);
    if (format == "json" || format == "text") config.format = parse_output_format(format);
  }
  if (seed) {
    config.seed = parse_seed(*seed);
  } else if (const char* env = std::getenv("SACREBLEU_SEED")) {
    config.seed = parse_seed(env, "SACREBLEU_SEED");
  } else {
    config.seed = 12345;
  }
}

}  // namespace rnnsearch::eval
