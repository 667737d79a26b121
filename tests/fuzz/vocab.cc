// Fuzz target: vocabulary files as nmt-vocab writes them (text::read_vocab,
// text::read_vocab_map) and as the model reads them (data::Vocabulary::from_vocab_file).
// Rejected input: util::Error.
#include <cstdint>

#include "data/vocabulary.h"
#include "fuzz_input.h"
#include "text/vocab_counts.h"
#include "util/error.h"

using namespace rnnsearch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::TempInput file(data, size);
  try {
    text::read_vocab(file.path());
  } catch (const util::Error&) {
  }
  try {
    text::read_vocab_map(file.path());
  } catch (const util::Error&) {
  }
  try {
    const data::Vocabulary vocabulary = data::Vocabulary::from_vocab_file(file.path(), size % 7, size % 3);
    fuzz::check(vocabulary.size() >= data::Vocabulary::kSpecials, "a vocabulary without its specials");
  } catch (const util::Error&) {
  }
  return 0;
}
