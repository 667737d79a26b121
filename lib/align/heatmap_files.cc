#include "align/heatmap_files.h"

#include <algorithm>

#include "align/extract.h"
#include "align/heatmap.h"
#include "align/command_common.h"
#include "model/model_file.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace rnnsearch::align {

std::vector<std::size_t> parse_line_numbers(const std::string& text) {
  std::vector<std::size_t> lines;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    if (item.empty() || item.size() > 9 || item.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(item) == 0) {
      throw util::UsageError("--lines takes 1-based line numbers in [1, 999999999] separated by commas, got '" + text +
                             "'");
    }
    lines.push_back(std::stoul(item));
    pos = comma + 1;
  }
  return lines;
}

void HeatmapFilesOptions::validate() const {
  if (model.empty() || source.empty() || target.empty()) {
    throw util::UsageError("-m MODEL, -s SOURCE and -t TARGET are required");
  }
  parse_line_numbers(lines);
  data::check_unknown_warning(unknown_warning);
  data::check_language_warning(language_warning);
}

void heatmap_files(const HeatmapFilesOptions& options, const util::Messages& messages) {
  options.validate();
  const auto wanted = parse_line_numbers(options.lines);
  const auto [sources, targets] = read_paired_lines(options.source, options.target);
  std::vector<std::string> chosen_sources, chosen_targets;
  for (const std::size_t line : wanted) {
    if (line > sources.size()) {
      throw util::Error(options.source, "has " + std::to_string(sources.size()) + " lines; --lines asks for line " +
                                            std::to_string(line));
    }
    chosen_sources.push_back(sources[line - 1]);
    chosen_targets.push_back(targets[line - 1]);
    check_line_lengths({sources[line - 1]}, options.source, line);
    check_line_lengths({targets[line - 1]}, options.target, line);
  }
  auto loaded = model::read_model_file(options.model);
  const auto weights = model::choose_attention_source(options.attention_source, *loaded.model, options.model,
                                                      "a heatmap");
  data::UnknownTokens unknown;
  const auto pairs = attention_heatmaps(*loaded.model, loaded.source_vocabulary, loaded.target_vocabulary,
                                        chosen_sources, chosen_targets, wanted, weights, options.merge_to, &unknown);
  util::AtomicFileWriter writer(options.output);
  writer.write(attention_svg(pairs));
  writer.commit();
  if (options.output != "-") {
    messages.note("attention of " + std::to_string(pairs.size()) + " pair(s) in " + options.output);
  }
  unknown.warn(messages, options.unknown_warning, options.source, options.target);
  data::LanguageCheck language(loaded.source_profile);
  for (const std::string& line : chosen_sources) language.add(line);
  language.warn(messages, options.language_warning, options.source);
}

}  // namespace rnnsearch::align
