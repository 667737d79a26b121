// Fuzz target: Moses n-best lists as nmt-decode --n-best writes them, read as nmt-score
// reads them: --n-best LIST -s SOURCE (search::PairReader, then search::with_feature adds
// the score) and `nmt-score rerank` (search::rerank_files, for sentence numbers below
// 100000: see numbers_below). Checks that a line with the feature added reads back as the
// same entry with one feature more, last. Rejected input: util::Error.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.h"
#include "search/nbest_list.h"
#include "search/score_input.h"
#include "util/error.h"

using namespace rnnsearch;

namespace {

// The source text the entries' sentence numbers point into: 8 lines, so numbers past it
// are refused as they would be with a real source file.
constexpr char kSource[] = "w1 w2 w3\nw8 w9 w0 w1\n\nw4 w4 w5\na\nb c\nd\ne f g\n";

// Adds a feature to each entry as nmt-score --n-best does, and reads the result back.
void add_feature(const std::string& list, const std::string& source) {
  search::ScoreOptions options;
  options.n_best = list;
  options.source = source;
  search::PairReader reader(options);
  search::RawPair pair;
  while (reader.next(pair)) {
    const search::NbestEntry entry{0, {}, {}, pair.features_end};
    const std::string line = search::with_feature(pair.nbest_line, entry, options.feature_name, "-1.5");
    const auto before = search::parse_nbest_line(pair.nbest_line, list, pair.target_line);
    const auto after = search::parse_nbest_line(line, list, pair.target_line);
    fuzz::check(after.id == before.id && after.translation == before.translation && after.translation == pair.target,
                "adding a feature changed the entry");
    const auto old_features = search::parse_features(before.features, list, pair.target_line);
    const auto features = search::parse_features(after.features, list, pair.target_line);
    fuzz::check(features.size() == old_features.size() + 1 && features.back().name == options.feature_name &&
                    features.back().values == std::vector<double>{-1.5},
                "the added feature does not read back last");
  }
}

// Whether every sentence number of the lines that parse is below `limit`. rerank writes a
// line for every number up to the last one (empty for those the list skips), so its output
// grows with the numbers, not with the input: a list numbered 55555555555 asks for 5.6e10
// lines, which is no hang of the reader but would stop the fuzzer as one.
bool numbers_below(const std::uint8_t* data, std::size_t size, std::size_t limit) {
  for (const std::string& line : fuzz::split(std::string_view(reinterpret_cast<const char*>(data), size), '\n')) {
    try {
      if (search::parse_nbest_line(line, "fuzz.nbest", 1).id >= limit) return false;
    } catch (const util::Error&) {
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::TempInput list(data, size);
  const fuzz::TempInput source(reinterpret_cast<const std::uint8_t*>(kSource), sizeof kSource - 1, ".source");
  try {
    add_feature(list.path(), source.path());
  } catch (const util::Error&) {
  }
  if (!numbers_below(data, size, 100000)) return 0;
  try {
    search::RerankOptions options;
    options.input = list.path();
    options.output = "/dev/null";
    options.weights = {"F0=1"};  // nmt-decode's one feature
    search::rerank_files(options);
  } catch (const util::Error&) {
  }
  return 0;
}
