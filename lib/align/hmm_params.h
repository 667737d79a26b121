#pragma once
// The text file of a trained nmt-align hmm (--save-params, --load-params): both directions'
// jump and empty-word parameters and translation tables, to align new sentence pairs without
// training again. Line 1, the header:
//   nmt-hmm-params 4 model=hmm jump-width=7 boundary-jumps stem-length=4 stem-below=50
// (model=model1: no HMM iteration ran; boundary-jumps, since version 3: the start and end
// lines below; stem-length and stem-below, since version 4: the tables' rare words are stems,
// align/word_stems.h)
// then, for each direction (forward: target words given source words; reverse: the other way):
//   forward<TAB>p-empty<TAB>0.21                     (or by-length: 1 / (I + 1), --p-empty-mode)
//   forward<TAB>jump<TAB>-7<TAB>0.0123               (one line per jump class, -width .. width)
//   forward<TAB>start<TAB>1<TAB>0.3                  (with boundary-jumps: the first and last
//   forward<TAB>end<TAB>1<TAB>0.3                     moves' weights, laid out alike)
// then the table entries, forward's then reverse's:
//   forward<TAB>t<TAB>e<TAB>f<TAB>t(f | e)           (e empty for the empty word)
// by e (byte order, the empty word first), then by descending probability, then by f; and
// last (since version 2; version 1 files, without it, are read too; versions 1 and 2 have
// no by-length):
//   end<TAB>N                                        (N: the lines before it)
// Numbers are the shortest text that reads back as the same value, so a loaded model aligns
// exactly as the saved one did; an entry the file does not have (a pair that never co-occurred
// in training, or one left out by --params-threshold) gets kAbsentProbability.
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "align/hmm.h"
#include "align/ibm2.h"
#include "data/unknown_tokens.h"

namespace rnnsearch::align {

// Writes `model` (trained on `corpus`) atomically, leaving out table entries below `threshold`
// (0: none; the empty word's rows are always written whole).
void write_hmm_params(const std::string& path, const Ibm2Corpus& corpus, const HmmModel& model,
                      double threshold = 0.0);

// `corpus` in the words of the file's tables: with the file's stem rule, every word longer than
// its stems that the file never names read as its stem (stem_unnamed_words; the empty word's
// rows, always written whole, name every word); without one, `corpus` as it is. What
// read_hmm_params is given. util::Error for a bad header, as read_hmm_params.
Ibm2Corpus in_params_words(const std::string& path, Ibm2Corpus corpus);

// The model of a params file for aligning `corpus` (in the file's words, in_params_words): hmm_start_model's tables for `corpus`, with
// the file's probabilities (kAbsentProbability where it has none) and jumps. util::Error naming
// the file and line for a bad header or line, a direction's parameters or table missing, or a
// version 2 file without its end line (cut short). With `unknown`, the tokens of each side of
// `corpus` whose word no entry of the file names (a file of another corpus, or of swapped
// sides, leaves most unknown).
HmmModel read_hmm_params(const std::string& path, const Ibm2Corpus& corpus, int threads,
                         data::UnknownTokens* unknown = nullptr);

// A params file held in memory, to align many small corpora with it (nmt-serve's
// /v1/align): read and checked once, as read_hmm_params checks it; model_for(corpus) then
// reads only the parameter lines and the table lines of the corpus's words, and gives the
// model read_hmm_params gives for that corpus.
class HmmParamsFile {
 public:
  // util::Error naming the file and line, as read_hmm_params.
  explicit HmmParamsFile(const std::string& path);
  // in_params_words for this file; model_for is given what it returns.
  Ibm2Corpus in_file_words(Ibm2Corpus corpus) const;
  HmmModel model_for(const Ibm2Corpus& corpus, int threads = 1) const;
  const std::string& path() const { return path_; }

 private:
  std::string_view line(std::size_t k) const;  // line k + 2 of the file (after the header)

  std::string path_;
  int width_ = 0;
  bool hmm_ = true;
  bool boundary_ = false;
  StemRule stems_;
  std::unordered_set<std::string> named_[2];  // with stems_: the words the file names, source then target
  std::string text_;                     // the lines after the header, each ending in '\n'
  std::vector<std::size_t> line_begin_;  // where each starts in text_
  std::vector<std::size_t> parameters_;  // the p-empty and jump lines
  std::unordered_map<std::string, std::vector<std::size_t>> rows_[2];  // per direction, a word's table lines
};

}  // namespace rnnsearch::align
