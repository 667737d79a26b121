#include "align/ibm2_files.h"

#include <unistd.h>


#include "align/extract.h"
#include "align/ibm2_table.h"
#include "data/alignment.h"
#include "util/atomic_file.h"
#include "util/distinct_outputs.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/number_format.h"
#include "util/option_range.h"
#include "util/progress_meter.h"

namespace rnnsearch::align {

namespace {

// A line without words is an error naming file and line.
void require_words(const std::string& text, const std::string& path, std::size_t line) {
  if (text.find_first_not_of(" \t\n\v\f\r") == std::string::npos) {
    throw util::Error(path, line, "is empty: every pair needs words on both sides to be aligned");
  }
}


}  // namespace

Ibm2Corpus read_word_pairs(const std::string& source, const std::string& target, bool swap,
                           const std::string& tool, bool show_progress) {
  Ibm2CorpusBuilder builder;
  util::ProgressMeter reading(tool, "pairs read", show_progress);
  util::LineReader source_reader(source), target_reader(target);
  std::string s, t;
  for (std::size_t line = 1; util::next_in_step(source_reader, s, target_reader, t); ++line) {
    check_line_lengths({s}, source, line, kMaxIbm2Words);
    check_line_lengths({t}, target, line, kMaxIbm2Words);
    require_words(s, source, line);
    require_words(t, target, line);
    if (swap) {
      builder.add(t, s);
    } else {
      builder.add(s, t);
    }
    reading.advance();
  }
  return builder.take();
}

namespace {

// "iteration 1: log-likelihood -1234.5, tension 4"
std::string iteration_note(std::size_t number, const Ibm2Iteration& iteration) {
  return "iteration " + std::to_string(number) + ": log-likelihood " + util::general(iteration.log_likelihood) +
         ", tension " + util::general(iteration.tension);
}

}  // namespace

void Ibm2FilesOptions::validate() const {
  if (source.empty() || target.empty()) throw util::UsageError("-s SOURCE and -t TARGET are required");
  if (!save_table.empty() && !load_table.empty()) {
    throw util::UsageError("--save-table and --load-table exclude each other: a loaded table is not trained");
  }
  util::check_range("table-threshold", table_threshold, 0.0, 1.0);
  util::check_distinct_outputs({{"-o", output}, {"--save-table", save_table}});
  ibm2.validate();
}

void ibm2_files(const Ibm2FilesOptions& options, const Notes& notes) {
  options.validate();
  const bool show_progress = options.progress && !util::is_terminal(options.output, STDOUT_FILENO);
  const Ibm2Corpus corpus = read_word_pairs(options.source, options.target, options.reverse, "nmt-align ibm2", show_progress);
  util::AtomicFileWriter writer(options.output);
  // The links come in the last EM iteration: the line counts them.
  util::ProgressMeter aligning("nmt-align ibm2", "pairs aligned", show_progress);
  const auto on_links = [&](std::size_t, const data::Alignment& links) {
    writer.write_line(options.reverse ? data::format_pharaoh(data::inverted(links)) : data::format_pharaoh(links));
    aligning.advance();
  };
  Ibm2Table learned;
  const auto result =
      options.load_table.empty()
          ? ibm2_align(corpus, options.ibm2, on_links, options.save_table.empty() ? nullptr : &learned)
          : ibm2_force_align(
                corpus, options.ibm2,
                [&](Ibm2Table& table) { fill_ibm2_table(options.load_table, corpus, options.reverse, table); },
                on_links);
  aligning.finish();
  if (!options.save_table.empty()) {
    write_ibm2_table(options.save_table, corpus, learned, options.reverse, options.table_threshold);
  }
  for (std::size_t k = 0; k < result.iterations.size() && notes; ++k) {
    notes(iteration_note(k + 1, result.iterations[k]));
  }
  writer.commit();
}

}  // namespace rnnsearch::align
