#pragma once
// Printing scores exactly as sacreBLEU does: Score.format (text line, score only, or
// JSON with indent=1) and print_single_results (several metrics aligned on " = ", or a
// JSON list).
#include <string>
#include <vector>

#include "eval/metric.h"

namespace rnnsearch::eval {

// One metric's result: "BLEU|<signature> = 28.3 59.9/34.0/... (BP = ...)", or just
// "28.3" when score_only (text only), or a JSON object. Width is the decimals.
std::string format_score(const Score& score, int width, bool score_only, const std::string& signature,
                         bool json);

// The lines sacreBLEU prints for the results of one system (each from format_score),
// ending with a newline.
std::string format_single_results(const std::vector<std::string>& results, bool json);

// A JSON string literal as Python's json.dumps(ensure_ascii=False) writes it.
std::string json_quote(const std::string& text);

}  // namespace rnnsearch::eval
