#pragma once
// The parts of translation that nmt-decode's stream (search/translator.cc) and nmt-serve's
// batches (serve/) share, so that both give a sentence the same bytes: a source line's
// ids in every model's vocabulary, one batch decoded on one thread's models, and the text
// nmt-decode prints for each hypothesis (translation, n-best line, alignment).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/model_file.h"
#include "search/beam_search.h"
#include "search/shortlist.h"
#include "search/translator.h"

namespace rnnsearch::search {

// One source line: its pieces (for --replace-unk and the shortlist), truncated as the
// caller decided, and their ids in each model's source vocabulary.
struct Source {
  std::vector<std::string> words;
  std::vector<std::vector<std::int32_t>> ids;  // per model
  TargetConstraints constraints;              // the prefix and phrases asked for (none: a plain search)
};

// `words` with their ids in each model's source vocabulary (<unk> for the unknown).
Source make_source(std::vector<std::string> words, const std::vector<model::LoadedModel>& models);

// The search's options for `config`: n_best at least 1, attention kept for alignments and
// --replace-unk, token scores for --word-scores.
BeamOptions beam_options(const TranslateOptions& config);

// The ids of every source, per model: what BeamSearcher::search reads.
std::vector<std::vector<std::vector<std::int32_t>>> ids_by_model(const std::vector<Source>& sources);

// results[i] for every empty source: one empty hypothesis (</s> at once, probability 1).
void translate_empty_sources(const std::vector<Source>& sources, const TranslateOptions& config,
                             std::vector<std::vector<Hypothesis>>& results);

// Decodes sources[i] for each i of `batch` (non-empty, one batch) into results[i] with
// `searcher` (made with beam_options(config) over one thread's models, `first` the first
// of them): the shortlist's allowed pieces per sentence (with its constraints' pieces), each
// sentence's constraints, and the alignment head's weights
// in place of the decoder's when config.alignment_head asks and `first` has one.
// `ids` = ids_by_model(sources); other threads may fill other places of results.
void search_batch(const std::vector<Source>& sources, const std::vector<std::vector<std::vector<std::int32_t>>>& ids,
                  const std::vector<std::size_t>& batch, BeamSearcher& searcher, model::RnnSearch& first,
                  const TranslateOptions& config, const Shortlist* shortlist,
                  std::vector<std::vector<Hypothesis>>& results);

// The translation's pieces, <unk> replaced by the most attended source piece when asked.
std::string translation_text(const Hypothesis& h, const Source& source, const data::Vocabulary& vocabulary,
                             bool replace_unknown);
// What --alignment appends after " ||| ": hard links "i-j" or soft rows of weights.
std::string alignment_text(const Hypothesis& h, const Source& source, AlignmentOutput kind);
// A Moses n-best line: "N ||| translation ||| F0= logp[ WordScores= ...] ||| score".
std::string n_best_line(std::size_t id, const std::string& translation, const Hypothesis& h, bool word_scores);
// The line nmt-decode prints for hypothesis `h` of source line `id` (0-based): the
// translation, or its n-best line, then " ||| " and the alignment when asked.
std::string output_line(const Hypothesis& h, const Source& source, const data::Vocabulary& vocabulary,
                        const TranslateOptions& config, std::size_t id);

}  // namespace rnnsearch::search
