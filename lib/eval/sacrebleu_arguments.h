#pragma once
// The nmt-bleu options that sacreBLEU takes as text, and the environment variables that
// stand in for them, turned into EvalOptions fields as sacreBLEU 2.6.0 reads them:
//   --smooth-value V   a number in [0, 1000]
//   --seed S           a non-negative integer, or "none" (any case) for a seed from the OS;
//                      when not given, $SACREBLEU_SEED, else 12345
//   SACREBLEU_FORMAT   json or text (any case) overrides --format; another value is ignored
// and sacreBLEU's options that nmt-bleu only accepts to refuse: its test-set downloads and
// any --encoding but UTF-8.
#include <cstdint>
#include <optional>
#include <string>

#include "eval/eval_options.h"

namespace rnnsearch::eval {

// sacreBLEU's options for its test-set downloads: nmt-bleu downloads nothing and
// refuses each of them.
struct TestSetOptions {
  std::string test_set;       // -t
  std::string language_pair;  // -l
  std::string origlang;
  std::string subset;
  bool detail = false;

  bool any() const {
    return !test_set.empty() || !language_pair.empty() || !origlang.empty() || !subset.empty() || detail;
  }
};

struct SacrebleuArguments {
  std::string smooth_value;  // empty: the smoothing method's default
  std::string seed;          // empty: from the environment, else 12345
  std::string encoding = "utf-8";  // only UTF-8 is read; the other spellings are sacreBLEU's
  TestSetOptions test_sets;        // refused

  // Throws util::UsageError for a test-set option or an encoding other than UTF-8.
  void validate() const;
  // validate(), then sets config's smoothing value, seed and (from the environment)
  // format. Throws util::UsageError for a smoothing value or a seed that does not parse.
  void apply_to(EvalOptions& config) const;
};

// "--smooth-value must be a number, got 'x'" or "must be in [0, 1000]"; nullopt for empty text.
std::optional<double> parse_smooth_value(const std::string& text);
// nullopt for "none" (any case); "--seed must be a non-negative integer or 'none', got 'x'".
std::optional<std::uint64_t> parse_seed(const std::string& text);

}  // namespace rnnsearch::eval
