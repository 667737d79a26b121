#include "search/sentence_search.h"

#include <algorithm>
#include <numeric>

#include "data/alignment.h"
#include "data/batch.h"
#include "data/vocabulary.h"
#include "search/attention_alignment.h"
#include "search/word_scores.h"
#include "text/word_counter.h"
#include "util/number_format.h"

namespace rnnsearch::search {

namespace {

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

// A shortlist's allowed ids (ascending) with the tokens of the prefix and the positive phrases.
std::vector<std::int32_t> with_constraint_tokens(std::vector<std::int32_t> allowed, const TargetConstraints& c) {
  if (c.prefix.empty() && c.positive.empty()) return allowed;
  allowed.insert(allowed.end(), c.prefix.begin(), c.prefix.end());
  for (const auto& phrase : c.positive) allowed.insert(allowed.end(), phrase.begin(), phrase.end());
  std::sort(allowed.begin(), allowed.end());
  allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
  return allowed;
}

// Whether every hypothesis holds every positive phrase of `c` (as the search counts them).
bool holds_phrases(const std::vector<Hypothesis>& hypotheses, const TargetConstraints& c) {
  for (const Hypothesis& h : hypotheses) {
    ConstraintState state = initial_state(c);
    for (const std::int32_t token : h.tokens) state = advance(c, state, token);
    if (!all_met(c, state)) return false;
  }
  return !hypotheses.empty();
}

// TranslateOptions::constraints_if_missing: the batch searched without its positive phrases
// (prefixes and phrases to avoid kept), then again with them for the sentences whose
// hypotheses do not all hold them already.
void search_phrases_if_missing(const std::vector<std::vector<std::vector<std::int32_t>>>& ids,
                               const std::vector<std::size_t>& batch, const std::vector<std::vector<std::int32_t>>* allowed,
                               const std::vector<const TargetConstraints*>& constraints, BeamSearcher& searcher,
                               std::vector<std::vector<Hypothesis>>& results) {
  std::vector<TargetConstraints> relaxed(constraints.size());
  std::vector<const TargetConstraints*> first(constraints);
  for (const std::size_t i : batch) {
    if (!constraints[i] || constraints[i]->positive.empty()) continue;
    relaxed[i] = *constraints[i];
    relaxed[i].positive.clear();
    first[i] = relaxed[i].empty() ? nullptr : &relaxed[i];
  }
  searcher.search(ids, batch, allowed, results, &first);
  std::vector<std::size_t> again;
  for (const std::size_t i : batch) {
    if (first[i] != constraints[i] && !holds_phrases(results[i], *constraints[i])) again.push_back(i);
  }
  if (!again.empty()) searcher.search(ids, again, allowed, results, &constraints);
}

}  // namespace

Source make_source(std::vector<std::string> words, const std::vector<model::LoadedModel>& models) {
  Source source;
  source.words = std::move(words);
  for (const auto& m : models) {
    source.ids.emplace_back();
    for (const auto& word : source.words) source.ids.back().push_back(m.source_vocabulary.id_or_unk(word));
  }
  return source;
}

BeamOptions beam_options(const TranslateOptions& config) {
  BeamOptions beam = config.beam;
  beam.n_best = std::max(1, config.n_best);
  beam.attention = config.alignment != AlignmentOutput::kNone || config.replace_unknown;
  beam.word_scores = config.word_scores;
  return beam;
}

std::vector<std::vector<std::vector<std::int32_t>>> ids_by_model(const std::vector<Source>& sources) {
  std::vector<std::vector<std::vector<std::int32_t>>> ids(sources.empty() ? 0 : sources.front().ids.size());
  for (std::size_t m = 0; m < ids.size(); ++m) {
    for (const Source& source : sources) ids[m].push_back(source.ids[m]);
  }
  return ids;
}

void translate_empty_sources(const std::vector<Source>& sources, const TranslateOptions& config,
                             std::vector<std::vector<Hypothesis>>& results) {
  Hypothesis empty;  // </s> at once, with probability 1
  if (config.word_scores) empty.token_log_probs.assign(1, 0.0f);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (sources[i].words.empty()) results[i].assign(1, empty);
  }
}

void search_batch(const std::vector<Source>& sources, const std::vector<std::vector<std::vector<std::int32_t>>>& ids,
                  const std::vector<std::size_t>& batch, BeamSearcher& searcher, model::RnnSearch& first,
                  const TranslateOptions& config, const Shortlist* shortlist,
                  std::vector<std::vector<Hypothesis>>& results) {
  std::vector<std::vector<std::int32_t>> allowed(shortlist ? sources.size() : 0);
  std::vector<const TargetConstraints*> constraints(sources.size(), nullptr);
  bool constrained = false;
  for (const std::size_t i : batch) {
    const TargetConstraints& c = sources[i].constraints;
    if (!c.empty()) {
      constraints[i] = &c;
      constrained = true;
    }
    if (shortlist) allowed[i] = with_constraint_tokens(shortlist->allowed(sources[i].words), c);
  }
  const auto* restriction = shortlist ? &allowed : nullptr;
  if (constrained && config.constraints_if_missing) {
    search_phrases_if_missing(ids, batch, restriction, constraints, searcher, results);
  } else {
    searcher.search(ids, batch, restriction, results, constrained ? &constraints : nullptr);
  }
  const bool head = beam_options(config).attention && config.alignment_head;
  if (!head || !first.has_alignment_head()) return;
  for (const std::size_t i : batch) use_alignment_head(first, sources[i].ids[0], results[i]);
}

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

std::string n_best_line(std::size_t id, const std::string& translation, const Hypothesis& h, bool word_scores) {
  std::string line = std::to_string(id) + " ||| " + translation + " ||| F0= " + util::general(h.log_probability);
  if (word_scores) {
    std::vector<std::string_view> pieces;
    text::split_space_words(translation, pieces);
    line += " WordScores= " + word_scores_text(pieces, h.token_log_probs);
  }
  return line + " ||| " + util::general(h.score);
}

std::string output_line(const Hypothesis& h, const Source& source, const data::Vocabulary& vocabulary,
                        const TranslateOptions& config, std::size_t id) {
  std::string out = translation_text(h, source, vocabulary, config.replace_unknown);
  if (config.n_best > 0) out = n_best_line(id, out, h, config.word_scores);
  if (config.alignment != AlignmentOutput::kNone) out += " ||| " + alignment_text(h, source, config.alignment);
  return out;
}

}  // namespace rnnsearch::search
