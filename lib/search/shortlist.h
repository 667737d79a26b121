#pragma once
// nmt-decode --shortlist: the output layer restricted to the target pieces a sentence's
// source pieces may translate into (data/shortlist_file.h). A sentence may produce the
// shortlist's `first` pieces, the lists of its own source pieces and the four special
// tokens (</s> and <unk>; <pad> and <s> too, so that a shortlist of every piece is the full
// output layer): its allowed set, which depends on the sentence alone. A batch computes the output layer
// for the union U of its sentences' sets (ids ascending, so compact column order is id
// order and ties still go to the lower id) and normalizes each row over its sentence's
// own set (model::RnnSearch::decoder_step with OutputColumns): a translation is the same
// whatever batch it is decoded in.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "data/shortlist_file.h"
#include "data/vocabulary.h"
#include "model/rnnsearch.h"

namespace rnnsearch::search {

// A shortlist file over a model's target vocabulary: pieces the vocabulary lacks are
// left out (the model cannot produce them).
class Shortlist {
 public:
  Shortlist(const data::ShortlistFile& file, const data::Vocabulary& target);
  // The ids a sentence of these source pieces may produce, ascending.
  std::vector<std::int32_t> allowed(const std::vector<std::string>& source_pieces) const;

 private:
  std::vector<std::int32_t> always_;  // first and the specials; ascending
  std::unordered_map<std::string, std::vector<std::int32_t>> lists_;
};

// One batch's restriction: U and, per sentence of the batch, its allowed compact columns.
struct BatchShortlist {
  std::vector<std::int32_t> ids;           // U, ascending
  std::vector<std::vector<int>> allowed;   // per sentence: indices into ids, ascending
};

// U of the allowed sets (each ascending) of a batch's sentences, and each set within it.
BatchShortlist batch_shortlist(const std::vector<const std::vector<std::int32_t>*>& allowed);

}  // namespace rnnsearch::search
