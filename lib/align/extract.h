#pragma once
// Alignments of given sentence pairs from a model's attention: each target is
// force-decoded (teacher-forced) and its attention weights turned into links between
// words. Subword pieces ("@@ " joins, as nmt-bpe writes them) are merged back to words,
// so indices refer to the tokens of the text before BPE; a word pair is linked when any
// of their pieces is. The source and target </s> are left out.
//   hard:       each target piece to its most attended source piece
//   threshold:  every piece pair with weight >= threshold
//   soft:       per target word, the weights summed over each source word's pieces and
//               averaged over the target word's pieces: rows joined by ' ', weights by ','
#include <string>
#include <vector>

#include "align/heatmap.h"
#include "data/vocabulary.h"
#include "model/rnnsearch.h"

namespace rnnsearch::align {

struct ExtractOptions {
  std::string mode = "hard";  // hard, threshold, soft
  float threshold = 0.3f;
  int batch_size = 32;
};

// One output line per pair; an empty source or target gives an empty line.
std::vector<std::string> extract_alignments(model::RnnSearch& model, const data::Vocabulary& source_vocabulary,
                                            const data::Vocabulary& target_vocabulary,
                                            const std::vector<std::string>& sources,
                                            const std::vector<std::string>& targets, const ExtractOptions& options);

// The teacher-forced attention of the pairs sources[k], targets[k] with their pieces (and
// </s>) as labels, titled "line N" with N = line_numbers[k], for align::attention_svg.
std::vector<HeatmapPair> attention_heatmaps(model::RnnSearch& model, const data::Vocabulary& source_vocabulary,
                                            const data::Vocabulary& target_vocabulary,
                                            const std::vector<std::string>& sources,
                                            const std::vector<std::string>& targets,
                                            const std::vector<std::size_t>& line_numbers);

}  // namespace rnnsearch::align
