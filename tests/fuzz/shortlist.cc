// Fuzz target: shortlist files as nmt-shortlist writes them and nmt-decode --shortlist reads
// them (data::read_shortlist, then search::Shortlist over a target vocabulary, as the
// translator builds it). Checks that a sentence's allowed ids are ascending, known to the
// vocabulary and hold the specials, and that a file read, written and read again is the
// same (unless a piece ends in '\r', see below). Rejected input: util::Error.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "data/shortlist_file.h"
#include "data/vocabulary.h"
#include "fuzz_input.h"
#include "search/shortlist.h"
#include "util/error.h"

using namespace rnnsearch;

namespace {

// The target vocabulary: pieces of the seed files, a few that no seed has, a special.
const data::Vocabulary& target_vocabulary() {
  static const data::Vocabulary vocabulary({"w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9", "Mr.",
                                            "HANSARD", "*", "1997", "September", "the", "l@@", "é", "ça", "<unk>"});
  return vocabulary;
}

// Whether a line of the file ends in a piece ending in '\r'. The reader strips one '\r'
// before a line end (CRLF files), so such a piece, which write_shortlist is never given
// (its pieces come from text split at whitespace), does not read back the same.
bool a_line_ends_in_cr(const data::ShortlistFile& file) {
  const auto ends_in_cr = [](const std::vector<std::string>& pieces) {
    return !pieces.empty() && !pieces.back().empty() && pieces.back().back() == '\r';
  };
  if (ends_in_cr(file.always)) return true;
  for (const auto& list : file.lists) {
    if (ends_in_cr(list.second)) return true;
  }
  return false;
}

bool same(const data::ShortlistFile& a, const data::ShortlistFile& b) {
  return a.first == b.first && a.best == b.best && a.threshold == b.threshold && a.always == b.always &&
         a.lists == b.lists;
}

// The allowed ids of a sentence of every source piece the file lists, and of none.
void check_allowed(const data::ShortlistFile& file) {
  const search::Shortlist shortlist(file, target_vocabulary());
  std::vector<std::string> sources;
  for (const auto& list : file.lists) sources.push_back(list.first);
  const std::vector<std::int32_t> all = shortlist.allowed(sources);
  const std::vector<std::int32_t> none = shortlist.allowed({});
  for (const auto* ids : {&all, &none}) {
    fuzz::check(std::is_sorted(ids->begin(), ids->end()) && std::adjacent_find(ids->begin(), ids->end()) == ids->end(),
                "allowed ids not ascending");
    fuzz::check(ids->size() >= data::Vocabulary::kSpecials && ids->front() == 0 &&
                    ids->back() < static_cast<std::int32_t>(target_vocabulary().size()),
                "allowed ids without the specials or outside the vocabulary");
  }
  const search::BatchShortlist batch = search::batch_shortlist({&all, &none});
  fuzz::check(batch.ids == all && batch.allowed.size() == 2 && batch.allowed[1].size() == none.size(),
              "a batch's union is not the larger set");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::TempInput file(data, size);
  try {
    const data::ShortlistFile read = data::read_shortlist(file.path());
    check_allowed(read);
    if (a_line_ends_in_cr(read)) return 0;
    const fuzz::TempInput written(nullptr, 0, ".written");
    data::write_shortlist(written.path(), read);
    fuzz::check(same(data::read_shortlist(written.path()), read), "a shortlist written does not read back");
  } catch (const util::Error&) {
  }
  return 0;
}
