#include "align/extract_files.h"

#include <unistd.h>

#include <vector>

#include "model/model_file.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/progress_meter.h"

namespace rnnsearch::align {

void ExtractFilesOptions::validate() const {
  if (extract.invert && extract.soft) throw util::UsageError("--invert applies to links, not to --mode soft");
  if (model.empty() || source.empty() || target.empty()) {
    throw util::UsageError("-m MODEL, -s SOURCE and -t TARGET are required");
  }
  extract.validate();
  data::check_unknown_warning(unknown_warning);
  data::check_language_warning(language_warning);
}

void extract_files(const ExtractFilesOptions& options, const util::Messages& messages) {
  options.validate();
  auto loaded = model::read_model_file(options.model);
  ExtractOptions extract = options.extract;
  extract.weights =
      model::choose_attention_source(options.attention_source, *loaded.model, options.model, "alignments");
  model::Replicas replicas(*loaded.model, extract.threads);
  // A window of whole mini-batches at a time: memory stays flat however long the corpus is,
  // and the batches are those of one pass over everything.
  const std::size_t window = static_cast<std::size_t>(extract.batch_size) * 128;
  util::LineReader source_reader(options.source), target_reader(options.target);
  util::AtomicFileWriter writer(options.output);
  util::ProgressMeter progress("nmt-align", "pairs",
                               options.progress && !util::is_terminal(options.output, STDOUT_FILENO));
  std::vector<std::string> sources, targets;
  std::string s, t;
  data::UnknownTokens unknown;
  data::LanguageCheck language(loaded.source_profile);
  for (std::size_t first_line = 1;; first_line += sources.size()) {
    sources.clear();
    targets.clear();
    while (sources.size() < window && util::next_in_step(source_reader, s, target_reader, t)) {
      sources.push_back(s);
      targets.push_back(t);
    }
    if (sources.empty()) break;
    check_line_lengths(sources, options.source, first_line);
    check_line_lengths(targets, options.target, first_line);
    for (const std::string& line : sources) language.add(line);
    for (const auto& line : extract_alignments(replicas, loaded.source_vocabulary, loaded.target_vocabulary, sources,
                                               targets, extract, &unknown)) {
      writer.write_line(line);
    }
    progress.set_done(first_line - 1 + sources.size());
  }
  progress.finish();
  writer.commit();
  unknown.warn(messages, options.unknown_warning, source_reader.name(), target_reader.name());
  language.warn(messages, options.language_warning, source_reader.name());
}

}  // namespace rnnsearch::align
