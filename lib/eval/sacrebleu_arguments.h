#pragma once
// The nmt-bleu options that sacreBLEU takes as text, and the environment variables that
// stand in for them, turned into EvalOptions fields as sacreBLEU 2.6.0 reads them:
//   --smooth-value V   a number (its range is EvalOptions::validate's)
//   --seed S           a non-negative integer, or "none" (any case) for a seed from the OS;
//                      when not given, $SACREBLEU_SEED, else 12345
//   SACREBLEU_FORMAT   json or text (any case) overrides --format; another value is ignored
#include <cstdint>
#include <optional>
#include <string>

#include "eval/eval_options.h"

namespace rnnsearch::eval {

struct SacrebleuArguments {
  std::string smooth_value;  // empty: the smoothing method's default
  std::string seed;          // empty: from the environment, else 12345

  // Sets config's smoothing value, seed and (from the environment) format. Throws
  // util::UsageError for a smoothing value or a seed that does not parse.
  void apply_to(EvalOptions& config) const;
};

// "--smooth-value must be a number, got 'x'"; nullopt for empty text.
std::optional<double> parse_smooth_value(const std::string& text);
// nullopt for "none" (any case); "--seed must be a non-negative integer or 'none', got 'x'".
std::optional<std::uint64_t> parse_seed(const std::string& text);

}  // namespace rnnsearch::eval
