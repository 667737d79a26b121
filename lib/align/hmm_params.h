#pragma once
// The text file of a trained nmt-align hmm (--save-params, --load-params): both directions'
// jump and empty-word parameters and translation tables, to align new sentence pairs without
// training again. Line 1, the header:
//   nmt-hmm-params 1 model=hmm jump-width=7          (model=model1: no HMM iteration ran)
// then, for each direction (forward: target words given source words; reverse: the other way):
//   forward<TAB>p-empty<TAB>0.21
//   forward<TAB>jump<TAB>-7<TAB>0.0123               (one line per jump class, -width .. width)
// then the table entries, forward's then reverse's:
//   forward<TAB>t<TAB>e<TAB>f<TAB>t(f | e)           (e empty for the empty word)
// by e (byte order, the empty word first), then by descending probability, then by f.
// Numbers are the shortest text that reads back as the same value, so a loaded model aligns
// exactly as the saved one did; an entry the file does not have (a pair that never co-occurred
// in training, or one left out by --params-threshold) gets kAbsentProbability.
#include <string>

#include "align/hmm.h"
#include "align/ibm2.h"

namespace rnnsearch::align {

// Writes `model` (trained on `corpus`) atomically, leaving out table entries below `threshold`
// (0: none; the empty word's rows are always written whole).
void write_hmm_params(const std::string& path, const Ibm2Corpus& corpus, const HmmModel& model,
                      double threshold = 0.0);

// The model of a params file for aligning `corpus`: hmm_start_model's tables for `corpus`, with
// the file's probabilities (kAbsentProbability where it has none) and jumps. util::Error naming
// the file and line for a bad header or line.
HmmModel read_hmm_params(const std::string& path, const Ibm2Corpus& corpus, int threads);

}  // namespace rnnsearch::align
