// Fuzz target: IBM Model 2 table files as nmt-align ibm2 --save-table writes them, read as
// --load-table reads them (align::fill_ibm2_table inside align::ibm2_force_align, which
// then aligns with the table), for the forward and the reverse direction of a small
// corpus. Checks that every link is inside its pair. Rejected input: util::Error.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "align/ibm2.h"
#include "align/ibm2_table.h"
#include "fuzz_input.h"
#include "util/error.h"

using namespace rnnsearch;

namespace {

// Sentence pairs of the words of the seed tables (the reversal data), and a pair of
// UTF-8 words no seed has.
const std::vector<std::pair<std::string, std::string>> kPairs = {
    {"w1 w2 w3", "w3 w2 w1"},       {"w8 w9 w0 w1", "w1 w0 w9 w8"}, {"w4 w4 w5 w6 w7", "w7 w6 w5 w4 w4"},
    {"w2 w3 w5", "w5 w3 w2"},       {"w0", "w0"},                   {"ça la é", "é la ça"},
    {"w6 w7 w8 w9 w0 w1", "w1 w0 w9"}};

// The corpus as nmt-align reads -s and -t: with `reverse`, -t is the conditioning side.
align::Ibm2Corpus corpus(bool reverse) {
  align::Ibm2CorpusBuilder builder;
  for (const auto& [source, target] : kPairs) reverse ? builder.add(target, source) : builder.add(source, target);
  return builder.take();
}

void align_with(const std::string& table, bool reverse) {
  static const align::Ibm2Corpus corpora[2] = {corpus(false), corpus(true)};
  const align::Ibm2Corpus& pairs = corpora[reverse ? 1 : 0];
  align::Ibm2Options options;
  options.iterations = 1;
  const auto result = align::ibm2_force_align(
      pairs, options, [&](align::Ibm2Table& filled) { align::fill_ibm2_table(table, pairs, reverse, filled); });
  fuzz::check(result.links.size() == pairs.size(), "not one alignment per pair");
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const auto n = static_cast<int>(pairs.source_begin[k + 1] - pairs.source_begin[k]);
    const auto m = static_cast<int>(pairs.target_begin[k + 1] - pairs.target_begin[k]);
    for (const auto& link : result.links[k]) {
      fuzz::check(link.source >= 0 && link.source < n && link.target >= 0 && link.target < m,
                  "a link outside its pair");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::TempInput file(data, size);
  for (const bool reverse : {false, true}) {
    try {
      align_with(file.path(), reverse);
    } catch (const util::Error&) {
    }
  }
  return 0;
}
