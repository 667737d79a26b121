#pragma once
// The nmt-bleu options that sacreBLEU takes as text, and the environment variables that
// stand in for them, turned into EvalOptions fields as sacreBLEU 2.6.0 reads them:
//   --smooth-value V   a number in [0, 1000]
//   --seed S           an integer in [0, 2^64 - 1], or "none" (any case) for a seed from
//                      the OS; when not given, $SACREBLEU_SEED, else 12345
// An empty value is refused as any malformed one is: it is not "not given".
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
  std::optional<std::string> smooth_value;  // not given: the smoothing method's default
  std::optional<std::string> seed;          // not given: from the environment, else 12345
  std::string encoding = "utf-8";  // only UTF-8 is read; the other spellings are sacreBLEU's
  TestSetOptions test_sets;        // refused

  // Throws util::UsageError for a test-set option or an encoding other than UTF-8.
  void validate() const;
  // validate(), then sets config's smoothing value, seed and (from the environment)
  // format. Throws util::UsageError for a smoothing value or a seed that does not parse.
  void apply_to(EvalOptions& config) const;
};

// The value of --smooth-value: UsageError "--smooth-value must be a number in [0, 1000],
// got 'x'" for text that is not one (empty, "0x10", " 1", "1e999"), or "--smooth-value must
// be in [0, 1000], got nan" for one outside.
double parse_smooth_value(const std::string& text);
// nullopt for "none" (any case). UsageError "SOURCE must be an integer in [0,
// 18446744073709551615] or 'none', got 'x'" for anything else that is not such an integer,
// with SOURCE "--seed" or the variable that gave it, "SACREBLEU_SEED".
std::optional<std::uint64_t> parse_seed(const std::string& text, const std::string& source = "--seed");

}  // namespace rnnsearch::eval
