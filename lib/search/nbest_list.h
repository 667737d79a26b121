#pragma once
// Moses n-best lists, as nmt-decode --n-best writes them:
//   N ||| translation ||| features ||| score[ ||| anything more]
// N the 0-based sentence number, features "Name= value [value...] Name= value ..." (a name
// ends in '='; a name may take several values, as WordScores= does). nmt-score --n-best adds
// a feature to each line; nmt-score rerank picks a line per sentence by weighted features.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rnnsearch::search {

struct NbestEntry {
  std::size_t id = 0;
  std::string_view translation;  // the pieces, as in the line
  std::string_view features;
  std::size_t features_end = 0;  // offset in the line just after the features field
};

// The fields of `line` (line `line_number` of `file`); throws util::Error naming both for
// a line that is not "N ||| translation ||| features ||| score".
NbestEntry parse_nbest_line(std::string_view line, const std::string& file, std::size_t line_number);

struct Feature {
  std::string name;  // without the '='
  std::vector<double> values;
};

// The features of a features field, in order; throws util::Error naming file and line for
// a value before any name or one that is not a number.
std::vector<Feature> parse_features(std::string_view features, const std::string& file, std::size_t line_number);

// `line` with " NAME= value" appended to its features field (entry parsed from it).
std::string with_feature(std::string_view line, const NbestEntry& entry, const std::string& name,
                         const std::string& value);

// nmt-score rerank: the weighted sum of each entry's features, the best entry per sentence.
struct RerankOptions {
  std::string input = "-", output = "-";  // "-" = stdin, stdout
  std::vector<std::string> weights;       // "NAME=WEIGHT", as given on the command line
  std::map<std::string, double> parsed;   // filled by validate()

  // Throws util::UsageError for a weight that is not NAME=NUMBER, a name given twice, or
  // no weight at all.
  void validate();
};

// Reads an n-best list (its sentence numbers never decreasing) and writes, for each
// sentence number from 0 to the last one, the translation of its entry with the highest
// sum of weight * value over the named features (features not named count 0; the first
// of equal sums wins), or an empty line for a number the list skips. A named feature
// missing from an entry, or with several values, is a util::Error naming file and line.
// Returns the number of lines written.
std::size_t rerank_files(RerankOptions options);

}  // namespace rnnsearch::search
