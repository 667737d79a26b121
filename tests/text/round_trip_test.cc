// detok(tok(x)) = x over the raw Multi30k training sentences, per language: how often the
// Moses tokenizer and detokenizer pair gives back the sentence it was handed.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/gzip_text.h"
#include "support/shared_data.h"
#include "text/detokenizer.h"
#include "text/tokenizer.h"

namespace rt = rnnsearch::testing;
namespace tx = rnnsearch::text;

namespace {


// Share of lines x with detok(tok(x)) == x.
double round_trip_rate(const std::string& language, const std::vector<std::string>& lines) {
  tx::TokenizerOptions tok_options;
  tok_options.language = language;
  const tx::Tokenizer tokenizer(tok_options, tx::NonbreakingPrefixes::built_in(language));
  tx::DetokenizerOptions detok_options;
  detok_options.language = language;
  const tx::Detokenizer detokenizer(detok_options);

  std::size_t same = 0;
  for (const std::string& line : lines) {
    if (detokenizer.detokenize(tokenizer.tokenize(line)) == line) ++same;
  }
  return lines.empty() ? 1.0 : static_cast<double>(same) / lines.size();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(round_trip)

BOOST_AUTO_TEST_CASE(multi30k_train_comes_back_unchanged) {
  // The README's figures (the tokenizer is deterministic): 99.86% en, 99.18% de, 99.63% fr.
  const std::vector<std::pair<std::string, double>> claims = {{"en", 0.9986}, {"de", 0.9917}, {"fr", 0.9962}};
  for (const auto& [language, claimed] : claims) {
    const std::string path = rt::shared_path("data/multi30k/train." + language + ".gz");
    if (!rt::require_shared(path)) continue;
    const std::vector<std::string> lines = rt::gunzip_lines(path);
    const double rate = round_trip_rate(language, lines);
    BOOST_TEST_MESSAGE("train." << language << ": detok(tok(x)) == x on " << rate * 100 << "% of "
                                << lines.size() << " lines");
    BOOST_TEST(rate >= claimed, "train." << language << ": " << rate);
  }
}

BOOST_AUTO_TEST_SUITE_END()
