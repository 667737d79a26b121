#include "text/bpe_files.h"

#include <algorithm>
#include <sstream>

#include "text/bpe_codes.h"
#include "text/vocab_counts.h"
#include "util/atomic_file.h"
#include "util/progress_meter.h"

namespace rnnsearch::text {
namespace {

std::vector<WordCount> read_word_counts(const BpeLearnOptions& options, util::ProgressMeter& progress) {
  std::vector<WordCount> words;
  if (options.dict_input) {
    for (const auto& path : options.inputs.empty() ? std::vector<std::string>{"-"} : options.inputs) {
      for (auto& w : read_vocab(path)) words.push_back(std::move(w));
    }
    return words;
  }
  const auto invalid = options.replace_invalid ? util::InvalidUtf8::kReplace : util::InvalidUtf8::kError;
  // learn_bpe reads stdin with universal newlines, files through codecs readers.
  return options.inputs.empty() ? count_words({"-"}, LineBreaks::kUniversal, invalid, &progress)
                                : count_words(options.inputs, LineBreaks::kSplitlines, invalid, &progress);
}

}  // namespace

void learn_bpe_file(const BpeLearnOptions& options, const std::string& progress_tool) {
  options.validate();
  util::ProgressMeter reading(progress_tool, "lines", !progress_tool.empty());
  const std::vector<WordCount> words = read_word_counts(options, reading);
  reading.finish();
  util::ProgressMeter merging(progress_tool, "merges", !progress_tool.empty(),
                              static_cast<std::uint64_t>(std::max(0, options.symbols)));
  const auto codes = learn_bpe(words, options, &merging);
  merging.finish();
  std::ostringstream text;
  write_bpe_codes(text, codes);
  util::AtomicFileWriter writer(options.output);
  writer.write(text.str());
  writer.commit();
}

void apply_bpe_file(BpeApplyOptions options, util::LinePipelineOptions pipeline) {
  options.validate();
  auto codes = read_bpe_codes(options.codes);
  if (options.merges >= 0 && static_cast<std::size_t>(options.merges) < codes.merges.size()) {
    codes.merges.resize(options.merges);
  }
  if (!options.vocabulary_file.empty()) options.vocabulary = read_vocab_map(options.vocabulary_file);
  if (options.num_workers > 0) pipeline.threads = options.num_workers;
  const BpeApplier applier(std::move(codes), options);
  util::map_lines(options.input, options.output, pipeline,
                  [&applier](std::string_view line) { return applier.apply(line); });
}

}  // namespace rnnsearch::text
