#pragma once
// nmt-bpe learn and nmt-bpe apply as library calls: each validates its options, reads
// its files and writes its output (atomically when a file), as subword-nmt's learn-bpe
// and apply-bpe do.
#include <string>

#include "text/bpe_apply.h"
#include "text/bpe_learn.h"
#include "util/line_pipeline.h"

namespace rnnsearch::text {

// Counts the words of options.inputs (or reads them as "word count" lines), learns the
// merges and writes the codes file. `progress_tool` names the tool on the live progress
// line (util::ProgressMeter); empty shows none.
void learn_bpe_file(const BpeLearnOptions& options, const std::string& progress_tool);

// Reads the codes (the first options.merges of them) and the vocabulary file, then
// segments options.input into options.output line by line with `pipeline`
// (options.num_workers, when above 0, replaces its thread count).
void apply_bpe_file(BpeApplyOptions options, util::LinePipelineOptions pipeline);

}  // namespace rnnsearch::text
