#include "search/translator.h"

#include <unistd.h>

#include <algorithm>
#include <memory>
#include <numeric>

#include "data/batch.h"
#include "data/vocabulary.h"
#include "model/replicas.h"
#include "search/attention_alignment.h"
#include "search/batch_schedule.h"
#include "search/ensemble.h"
#include "search/truncated_lines.h"
#include "search/word_scores.h"
#include "text/word_counter.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/number_format.h"
#include "util/progress_meter.h"

namespace rnnsearch::search {

namespace {

// One source line: its words (for --replace-unk), truncated to max_length, and their ids
// in each model's source vocabulary.
struct Source {
  std::vector<std::string> words;
  std::vector<std::vector<std::int32_t>> ids;  // per model
};

// What the warnings at the end of input count, over the whole input in its order (so not
// depending on batches or threads).
struct Tally {
  explicit Tally(std::size_t max_length) : truncated(max_length, "translate") {}
  data::UnknownTokens unknown;  // the source tokens, in the first model's vocabulary
  TruncatedLines truncated;     // sources longer than max_length
  std::size_t cut = 0;          // best translations that reached the length limit without </s>
};

Source read_source(const std::string& line, const std::vector<model::LoadedModel>& models,
                   const util::LineReader& reader, const util::Messages& messages, Tally& tally) {
  std::vector<std::string_view> views;
  text::split_space_words(line, views);
  if (views.size() > kMaxSourcePieces) {
    throw util::Error(reader.name(), reader.line_number(),
                      std::to_string(views.size()) + " pieces, more than nmt-decode reads (" +
                          std::to_string(kMaxSourcePieces) + "); split the line");
  }
  Source source;
  for (const auto view : views) source.words.emplace_back(view);
  if (tally.truncated.truncate(source.words.size(), reader.name(), reader.line_number(), messages)) {
    source.words.resize(tally.truncated.max_length());
  }
  for (const auto& m : models) {
    source.ids.emplace_back();
    for (const auto& word : source.words) source.ids.back().push_back(m.source_vocabulary.id_or_unk(word));
  }
  tally.unknown.add(data::UnknownTokens::kSource, source.ids[0]);
  return source;
}

// The target words of a hypothesis, <unk> replaced by the most attended source word when asked.
std::string translation_text(const Hypothesis& h, const Source& source, const data::Vocabulary& vocabulary,
                             bool replace_unknown) {
  std::string text;
  for (std::size_t j = 0; j < h.tokens.size(); ++j) {
    if (!text.empty()) text += ' ';
    if (replace_unknown && h.tokens[j] == data::Vocabulary::kUnk && j < h.attention.size() && !source.words.empty()) {
      const auto& row = h.attention[j];
      const auto best = std::max_element(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(source.words.size()));
      text += source.words[static_cast<std::size_t>(best - row.begin())];
    } else {
      text += vocabulary.token(h.tokens[j]);
    }
  }
  return text;
}

std::string alignment_text(const Hypothesis& h, const Source& source, AlignmentOutput kind) {
  if (kind == AlignmentOutput::kHard) {
    return data::format_pharaoh(hard_alignment(h.attention, source.words.size(), h.tokens.size()));
  }
  std::string text;  // soft: a row per target token (and </s>), weights over the source tokens and </s>
  for (const auto& row : h.attention) {
    if (!text.empty()) text += ' ';
    for (std::size_t i = 0; i < row.size(); ++i) text += (i ? "," : "") + util::general(row[i]);
  }
  return text;
}

// The alignment head's weights (model/rnnsearch.h) of the hypotheses of one source,
// force-decoded, in place of the decoder's: row i for target token i, </s> included when
// the hypothesis is complete. Empty sources and translations keep what they have.
void use_alignment_head(model::RnnSearch& model, const std::vector<std::int32_t>& source,
                        std::vector<Hypothesis>& hypotheses) {
  data::ParallelCorpus pairs;
  std::vector<std::size_t> which;
  for (std::size_t n = 0; n < hypotheses.size(); ++n) {
    if (source.empty() || hypotheses[n].tokens.empty()) continue;
    pairs.source.push_back(source);
    pairs.target.push_back(hypotheses[n].tokens);
    which.push_back(n);
  }
  if (which.empty()) return;
  std::vector<std::size_t> all(which.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  const auto weights = model.forced_attention(data::make_batch(pairs, all), model::AttentionSource::kAlignmentHead);
  for (std::size_t k = 0; k < which.size(); ++k) {
    Hypothesis& h = hypotheses[which[k]];
    const math::Matrix& beta = weights[k];  // [(tokens + 1) x (source + 1)]
    const Eigen::Index rows = h.complete ? beta.rows() : beta.rows() - 1;
    h.attention.assign(static_cast<std::size_t>(rows), {});
    for (Eigen::Index r = 0; r < rows; ++r) {
      h.attention[static_cast<std::size_t>(r)].assign(beta.row(r).data(), beta.row(r).data() + beta.cols());
    }
  }
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

BeamOptions beam_options(const TranslateOptions& config) {
  BeamOptions beam = config.beam;
  beam.n_best = std::max(1, config.n_best);
  beam.attention = config.alignment != AlignmentOutput::kNone || config.replace_unknown;
  beam.word_scores = config.word_scores;
  return beam;
}

// Translates a window of sources into results (one place per source): its batches sorted
// by length, the longest first, each thread taking the next batch free. A translation does
// not depend on its batch or thread, so neither does the output.
void search_window(const std::vector<Source>& sources, ThreadModels& thread_models,
                   std::vector<std::unique_ptr<BeamSearcher>>& searchers, const TranslateOptions& config,
                   const Shortlist* shortlist, std::vector<std::vector<Hypothesis>>& results) {
  std::vector<std::vector<std::vector<std::int32_t>>> ids(sources.front().ids.size());  // per model, per sentence
  for (std::size_t m = 0; m < ids.size(); ++m) {
    for (const Source& source : sources) ids[m].push_back(source.ids[m]);
  }
  Hypothesis empty;  // an empty source's translation: </s> at once, with probability 1
  if (config.word_scores) empty.token_log_probs.assign(1, 0.0f);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (ids[0][i].empty()) results[i].assign(1, empty);
  }
  std::vector<std::vector<std::int32_t>> allowed(shortlist ? sources.size() : 0);  // with a shortlist: per sentence
  const bool head = beam_options(config).attention && config.alignment_head;
  for_each_batch_longest_first(ids[0], config.beam.batch_size, searchers.size(),
                               [&](int thread, const std::vector<std::size_t>& batch) {
    if (shortlist) {
      for (const std::size_t i : batch) allowed[i] = shortlist->allowed(sources[i].words);
    }
    searchers[static_cast<std::size_t>(thread)]->search(ids, batch, shortlist ? &allowed : nullptr, results);
    model::RnnSearch& first = *thread_models.members[static_cast<std::size_t>(thread)][0];
    if (!head || !first.has_alignment_head()) return;
    for (const std::size_t i : batch) use_alignment_head(first, sources[i].ids[0], results[i]);
  });
}

// A Moses n-best line: "N ||| translation ||| F0= logp[ WordScores= ...] ||| score".
std::string n_best_line(std::size_t id, const std::string& translation, const Hypothesis& h, bool word_scores) {
  std::string line = std::to_string(id) + " ||| " + translation + " ||| F0= " + util::general(h.log_probability);
  if (word_scores) {
    std::vector<std::string_view> pieces;
    text::split_space_words(translation, pieces);
    line += " WordScores= " + word_scores_text(pieces, h.token_log_probs);
  }
  return line + " ||| " + util::general(h.score);
}

// The warnings at the end of an input of `lines` lines named `input_name`.
void warn_at_end(const Tally& tally, const TranslateOptions& config, const std::string& input_name, std::size_t lines,
                 const util::Messages& messages) {
  tally.unknown.warn(messages, config.unknown_warning, input_name);
  tally.truncated.warn(messages, input_name, lines);
  if (tally.cut > 0) {
    messages.warn(util::grouped(tally.cut) + " of " + util::grouped(lines) + " translations of " + input_name +
                  " stopped at the length limit, --max-length-ratio " + util::general(config.beam.max_length_ratio) +
                  " x source length + 10 tokens, before </s>; a larger --max-length-ratio lets them finish");
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
  util::AtomicFileWriter writer(output);
  const std::size_t window = static_cast<std::size_t>(std::max(1, config.beam.batch_size)) *
                             static_cast<std::size_t>(std::max(1, config.maxi_batch));
  std::size_t total = 0;
  std::string line;
  std::vector<Source> sources;
  Tally tally(config.max_length);
  util::ProgressMeter progress("nmt-decode", "sentences", config.progress && !util::is_terminal(input, STDIN_FILENO) &&
                                                              !util::is_terminal(output, STDOUT_FILENO));
  for (;;) {
    // A window: the lines ready now, up to its size (the first read may wait).
    sources.clear();
    while (sources.size() < window && (sources.empty() || reader.ready()) && reader.next(line)) {
      sources.push_back(read_source(line, models, reader, messages, tally));
    }
    if (sources.empty()) break;
    std::vector<std::vector<Hypothesis>> results(sources.size());
    search_window(sources, thread_models, searchers, config, shortlist, results);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const auto& hypotheses = results[i];
      if (!hypotheses.empty() && !hypotheses.front().complete) ++tally.cut;
      for (const Hypothesis& h : hypotheses) {
        std::string out = translation_text(h, sources[i], target_vocabulary, config.replace_unknown);
        if (config.n_best > 0) out = n_best_line(total + i, out, h, config.word_scores);
        if (config.alignment != AlignmentOutput::kNone) out += " ||| " + alignment_text(h, sources[i], config.alignment);
        writer.write_line(out);
        if (config.n_best == 0) break;
      }
    }
    writer.flush();
    total += sources.size();
    progress.set_done(total);
  }
  progress.finish();
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
