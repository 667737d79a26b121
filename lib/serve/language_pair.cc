#include "serve/language_pair.h"

#include <atomic>

#include "data/shortlist_file.h"
#include "text/bpe_codes.h"
#include "text/bpe_undo.h"
#include "text/languages.h"
#include "text/nonbreaking_prefixes.h"
#include "util/error.h"

namespace rnnsearch::serve {

namespace {

// rnnsearch-translate's nmt-tokenize -l SRC --no-escape.
text::Tokenizer raw_tokenizer(const std::string& language) {
  text::TokenizerOptions options;
  options.language = language;
  options.escape = false;
  return text::Tokenizer(options, text::NonbreakingPrefixes::built_in(language));
}

text::Detokenizer raw_detokenizer(const std::string& language) {
  text::DetokenizerOptions options;
  options.language = language;
  return text::Detokenizer(options);
}

std::uint64_t next_load_id() {
  static std::atomic<std::uint64_t> next{0};
  return ++next;
}

}  // namespace

void PairConfig::validate() const {
  if (models.empty()) throw util::UsageError("a language pair needs a model (--model)");
  if (source_language.empty() || target_language.empty()) {
    throw util::UsageError("a language pair needs its source and target languages (--source-language, "
                           "--target-language)");
  }
  search::check_ensemble_weights(weights, models.size());
}

LanguagePair::LanguagePair(PairConfig config, int workers, math::Precision precision,
                           const std::function<void(const std::string&)>& warn)
    : config_(std::move(config)),
      load_id_(next_load_id()),
      tokenizer_(raw_tokenizer(config_.source_language)),
      target_tokenizer_(raw_tokenizer(config_.target_language)),
      detokenizer_(raw_detokenizer(config_.target_language)) {
  config_.validate();
  models_ = search::read_ensemble(config_.models);
  thread_models_ = std::make_unique<search::ThreadModels>(models_, workers, precision);
  language_watch_ = std::make_unique<LanguageWatch>(models_.front().source_profile, config_.name());
  if (!config_.shortlist.empty()) {
    shortlist_.emplace(data::read_shortlist(config_.shortlist), models_.front().target_vocabulary);
  }
  searchers_.resize(static_cast<std::size_t>(workers));
  scorers_.resize(static_cast<std::size_t>(workers));
  if (!config_.hmm_params.empty()) hmm_params_ = std::make_unique<align::HmmParamsFile>(config_.hmm_params);
  if (!config_.codes.empty()) bpe_ = std::make_unique<text::BpeApplier>(text::read_bpe_codes(config_.codes));
  if (!warn) return;
  for (const auto& [language, side] : {std::pair{config_.source_language, "tokenizing with the English nonbreaking "
                                                                          "prefixes and the language-independent rules"},
                                       std::pair{config_.target_language, "detokenizing with the generic rules"}}) {
    const std::string warning = text::unknown_language_warning(language, side);
    if (!warning.empty()) warn(config_.name() + ": " + warning);
  }
}

LanguagePair::~LanguagePair() = default;

std::string LanguagePair::pieces_of(std::string_view line) const {
  const std::string tokens = tokenizer_.tokenize(line);
  return bpe_ ? bpe_->apply(tokens) : tokens;
}

std::string LanguagePair::target_pieces_of(std::string_view line) const {
  const std::string tokens = target_tokenizer_.tokenize(line);
  return bpe_ ? bpe_->apply(tokens) : tokens;
}

std::string LanguagePair::words_of(std::string_view line, bool target_side) const {
  return (target_side ? target_tokenizer_ : tokenizer_).tokenize(line);
}

std::string LanguagePair::text_of(std::string_view pieces) const {
  return detokenizer_.detokenize(text::undo_bpe(pieces));
}

bool LanguagePair::has_attention() const {
  for (const auto& m : models_) {
    if (!m.model->has_attention()) return false;
  }
  return true;
}

search::BeamSearcher& LanguagePair::searcher(std::size_t worker, const std::string& key,
                                             const search::BeamOptions& options) {
  auto& kept = searchers_.at(worker);
  auto it = kept.find(key);
  if (it != kept.end()) return *it->second;
  if (kept.size() >= kKeptSearches) kept.clear();  // requests with many option sets: start again
  return *kept.emplace(key, std::make_unique<search::BeamSearcher>(members(worker), options)).first->second;
}

search::ForcedScorer& LanguagePair::scorer(std::size_t worker) {
  auto& scorer = scorers_.at(worker);
  if (!scorer) scorer = std::make_unique<search::ForcedScorer>(members(worker), config_.weights);
  return *scorer;
}

bool LanguagePair::has_alignment_head() const { return models_.front().model->has_alignment_head(); }

}  // namespace rnnsearch::serve
