#include "search/translator.h"

#include <unistd.h>

#include <algorithm>
#include <memory>

#include "data/vocabulary.h"
#include "model/replicas.h"
#include "search/batch_schedule.h"
#include "search/ensemble.h"
#include "search/sentence_search.h"
#include "search/truncated_lines.h"
#include "text/word_counter.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/number_format.h"
#include "util/progress_meter.h"

namespace rnnsearch::search {

namespace {

// What the warnings at the end of input count, over the whole input in its order (so not
// depending on batches or threads).
struct Tally {
  Tally(std::size_t max_length, const data::SourceProfile& profile) : language(profile), truncated(max_length, "translate") {}
  data::UnknownTokens unknown;  // the source tokens, in the first model's vocabulary
  data::LanguageCheck language;  // the source lines, under the first model's source profile
  TruncatedLines truncated;     // sources longer than max_length
  std::size_t cut = 0;          // best translations that reached the length limit without </s>
  std::size_t missed = 0;       // best translations that miss a positive constraint
};

// The prefix of --prefix for the line just read, or null without it.
const std::string* next_prefix(util::LineReader* prefixes, const util::LineReader& reader, std::string& prefix) {
  if (!prefixes) return nullptr;
  if (!prefixes->next(prefix)) {
    throw util::Error(prefixes->name(), "ends after " + std::to_string(prefixes->line_number()) + " lines, before " +
                                            reader.name() + " does (--prefix needs a line per input line)");
  }
  return &prefix;
}

// The line's constraints (search/constraint_input.h), checked against the source's length limit.
TargetConstraints read_constraints(const LineRequest& request, const Source& source, const TranslateOptions& config,
                                   const std::vector<model::LoadedModel>& models, const util::LineReader& reader) {
  TargetConstraints c = target_constraints(request, config.constraint_input.order, models[0].target_vocabulary,
                                           reader.name(), reader.line_number(), config.prefix_file);
  if (c.empty()) return c;
  if (source.words.empty()) {
    throw util::Error(reader.name(), reader.line_number(), "an empty source has no translation to constrain");
  }
  check_constraint_length(c, target_length_limit(config.beam.max_length_ratio, source.words.size()), reader.name(),
                          reader.line_number());
  return c;
}

Source read_source(const std::string& line, const std::string* prefix, const TranslateOptions& config,
                   const std::vector<model::LoadedModel>& models, const util::LineReader& reader,
                   const util::Messages& messages, Tally& tally) {
  LineRequest request = parse_line(line, config.constraint_input, reader.name(), reader.line_number());
  if (prefix) request.prefix = *prefix;
  std::vector<std::string_view> views;
  text::split_space_words(request.source, views);
  if (views.size() > kMaxSourcePieces) {
    throw util::Error(reader.name(), reader.line_number(),
                      std::to_string(views.size()) + " pieces, more than nmt-decode reads (" +
                          std::to_string(kMaxSourcePieces) + "); split the line");
  }
  tally.language.add(request.source);
  std::vector<std::string> words(views.begin(), views.end());
  if (tally.truncated.truncate(words.size(), reader.name(), reader.line_number(), messages)) {
    words.resize(tally.truncated.max_length());
  }
  Source source = make_source(std::move(words), models);
  tally.unknown.add(data::UnknownTokens::kSource, source.ids[0]);
  source.constraints = read_constraints(request, source, config, models, reader);
  return source;
}

// An ensemble needs one target vocabulary.
void check_ensemble(const std::vector<model::LoadedModel>& models) {
  if (models.empty()) throw util::Error("translate_stream: no model");
  for (const auto& m : models) {
    if (!(m.target_vocabulary == models[0].target_vocabulary)) {
      throw util::Error("the models of an ensemble need the same target vocabulary");
    }
  }
}

// Translates a window of sources into results (one place per source): its batches sorted
// by length, the longest first, each thread taking the next batch free. A translation does
// not depend on its batch or thread, so neither does the output.
void search_window(const std::vector<Source>& sources, ThreadModels& thread_models,
                   std::vector<std::unique_ptr<BeamSearcher>>& searchers, const TranslateOptions& config,
                   const Shortlist* shortlist, std::vector<std::vector<Hypothesis>>& results) {
  const auto ids = ids_by_model(sources);
  translate_empty_sources(sources, config, results);
  for_each_batch_longest_first(ids[0], config.beam.batch_size, searchers.size(),
                               [&](int thread, const std::vector<std::size_t>& batch) {
    const auto k = static_cast<std::size_t>(thread);
    search_batch(sources, ids, batch, *searchers[k], *thread_models.members[k][0], config, shortlist, results);
  });
}

// The warnings at the end of an input of `lines` lines named `input_name`.
void warn_at_end(const Tally& tally, const TranslateOptions& config, const std::string& input_name, std::size_t lines,
                 const util::Messages& messages) {
  tally.unknown.warn(messages, config.unknown_warning, input_name);
  tally.language.warn(messages, config.language_warning, input_name);
  tally.truncated.warn(messages, input_name, lines);
  if (tally.cut > 0) {
    messages.warn(util::grouped(tally.cut) + " of " + util::grouped(lines) + " translations of " + input_name +
                  " stopped at the length limit, --max-length-ratio " + util::general(config.beam.max_length_ratio) +
                  " x source length + 10 tokens, before </s>; a larger --max-length-ratio lets them finish");
  }
  if (tally.missed > 0) {
    messages.warn(util::grouped(tally.missed) + " of " + util::grouped(lines) + " translations of " + input_name +
                  " miss a constraint: they stopped at the length limit first; a larger --max-length-ratio or "
                  "--beam-size gives the search more room");
  }
}

// translate_stream after the validation.
std::size_t translate_valid(std::vector<model::LoadedModel>& models, const TranslateOptions& config,
                            const std::string& input, const std::string& output, const util::Messages& messages,
                            const Shortlist* shortlist) {
  check_ensemble(models);
  ThreadModels thread_models(models, config.threads, config.precision);
  const data::Vocabulary& target_vocabulary = models[0].target_vocabulary;
  const BeamOptions beam = beam_options(config);
  std::vector<std::unique_ptr<BeamSearcher>> searchers;  // thread k's, kept from window to window
  for (const auto& members : thread_models.members) searchers.push_back(std::make_unique<BeamSearcher>(members, beam));
  for (const auto& m : models) {
    if (beam.attention && !m.model->has_attention()) {
      throw util::Error("--alignment and --replace-unk need attention weights; a model trained with --attention none has none");
    }
  }
  util::LineReader reader(input);
  std::unique_ptr<util::LineReader> prefixes;
  if (!config.prefix_file.empty()) prefixes = std::make_unique<util::LineReader>(config.prefix_file);
  std::string prefix;
  util::AtomicFileWriter writer(output);
  const std::size_t window = static_cast<std::size_t>(std::max(1, config.beam.batch_size)) *
                             static_cast<std::size_t>(std::max(1, config.maxi_batch));
  std::size_t total = 0;
  std::string line;
  std::vector<Source> sources;
  Tally tally(config.max_length, models[0].source_profile);
  util::ProgressMeter progress("nmt-decode", "sentences", config.progress && !util::is_terminal(input, STDIN_FILENO) &&
                                                              !util::is_terminal(output, STDOUT_FILENO));
  for (;;) {
    // A window: the lines ready now, up to its size (the first read may wait).
    sources.clear();
    while (sources.size() < window && (sources.empty() || reader.ready()) && reader.next(line)) {
      sources.push_back(read_source(line, next_prefix(prefixes.get(), reader, prefix), config, models, reader, messages,
                                    tally));
    }
    if (sources.empty()) break;
    std::vector<std::vector<Hypothesis>> results(sources.size());
    search_window(sources, thread_models, searchers, config, shortlist, results);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const auto& hypotheses = results[i];
      if (!hypotheses.empty() && !hypotheses.front().complete) ++tally.cut;
      if (!hypotheses.empty() && !hypotheses.front().constraints_met) ++tally.missed;
      for (const Hypothesis& h : hypotheses) {
        writer.write_line(output_line(h, sources[i], target_vocabulary, config, total + i));
        if (config.n_best == 0) break;
      }
    }
    writer.flush();
    total += sources.size();
    progress.set_done(total);
  }
  progress.finish();
  if (prefixes && prefixes->next(prefix)) {
    throw util::Error(prefixes->name(), prefixes->line_number(),
                      "more lines than " + reader.name() + " has (" + std::to_string(total) + ")");
  }
  writer.commit();
  warn_at_end(tally, config, reader.name(), total, messages);
  return total;
}

// The models of `options`, an ensemble when several, each checked for what the output needs.
std::vector<model::LoadedModel> read_models(const DecodeOptions& options) {
  const TranslateOptions& config = options.translate;
  std::vector<model::LoadedModel> models = read_ensemble(options.model_paths);
  for (std::size_t m = 0; m < models.size(); ++m) {
    const std::string& path = options.model_paths[m];
    if (config.alignment != AlignmentOutput::kNone) model::require_attention(*models[m].model, path, "--alignment");
    if (config.replace_unknown) model::require_attention(*models[m].model, path, "--replace-unk");
  }
  return models;
}

}  // namespace

std::size_t translate_stream(std::vector<model::LoadedModel>& models, const TranslateOptions& config,
                             const std::string& input, const std::string& output, const util::Messages& messages,
                             const Shortlist* shortlist) {
  config.validate();
  return translate_valid(models, config, input, output, messages, shortlist);
}

std::size_t translate_files(const DecodeOptions& options, const util::Messages& messages) {
  options.validate();
  std::vector<model::LoadedModel> models = read_models(options);
  TranslateOptions config = options.translate;
  if (config.alignment != AlignmentOutput::kNone || config.replace_unknown) {
    const std::string need = config.alignment == AlignmentOutput::kNone ? "--replace-unk" : "--alignment";
    config.alignment_head = model::choose_attention_source(options.attention_source, *models.front().model,
                                                           options.model_paths.front(), need) ==
                            model::AttentionSource::kAlignmentHead;
  }
  if (options.shortlist.empty()) {
    return translate_valid(models, config, options.input, options.output, messages, nullptr);
  }
  const Shortlist shortlist(data::read_shortlist(options.shortlist), models.front().target_vocabulary);
  return translate_valid(models, config, options.input, options.output, messages, &shortlist);
}

}  // namespace rnnsearch::search
