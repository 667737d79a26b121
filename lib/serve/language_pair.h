#pragma once
// One language pair nmt-serve translates: a model or an ensemble, its BPE codes and its two
// languages, loaded once, with one copy of the models per worker. Raw text goes through
// what rnnsearch-translate runs, in the process: nmt-tokenize -l SRC --no-escape, nmt-bpe
// apply, the search, nmt-bpe undo, nmt-detokenize -l TGT; so a line gives the same bytes.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "align/hmm_params.h"
#include "math/precision.h"
#include "model/model_file.h"
#include "search/beam_search.h"
#include "search/ensemble.h"
#include "search/forced_scorer.h"
#include "search/shortlist.h"
#include "serve/language_watch.h"
#include "text/bpe_apply.h"
#include "text/detokenizer.h"
#include "text/tokenizer.h"

namespace rnnsearch::serve {

// What the configuration names for a pair: nmt-serve -m MODEL -c CODES -s SRC -t TGT, or a
// --pair value (on the command line or as a "pair = ..." line of --config).
struct PairConfig {
  std::vector<std::string> models;   // several form an ensemble
  std::string codes;                 // nmt-bpe learn's codes; "" serves BPE pieces only
  std::string source_language, target_language;
  std::string shortlist;             // an nmt-shortlist file, or ""
  std::vector<double> weights;       // the ensemble's, or empty (equal)
  std::string hmm_params;            // nmt-align hmm --save-params's file, for /v1/align "method": "hmm"

  // "SRC-TGT", the pair's name in requests and replies.
  std::string name() const { return source_language + "-" + target_language; }
  // Throws util::UsageError naming what is missing: a model, the languages.
  void validate() const;
};

class LanguagePair {
 public:
  // Reads every file (util::Error naming the one that does not load) and makes `workers`
  // copies of the models multiplying in `precision`. `warn` receives the tokenizer's and
  // detokenizer's warnings for a language without rules.
  LanguagePair(PairConfig config, int workers, math::Precision precision,
               const std::function<void(const std::string&)>& warn);
  ~LanguagePair();
  LanguagePair(const LanguagePair&) = delete;
  LanguagePair& operator=(const LanguagePair&) = delete;

  const PairConfig& config() const { return config_; }
  // Different for every LanguagePair made (a reload makes new ones): batch keys carry it, so
  // that sentences queued before and after a reload never share a batch.
  std::uint64_t load_id() const { return load_id_; }
  bool has_codes() const { return bpe_ != nullptr; }
  // Raw text to the pieces the model reads (tokenized, BPE'd); `line` must be valid UTF-8.
  std::string pieces_of(std::string_view line) const;
  // A target-side line to pieces, tokenized with the target language's rules (a score's or
  // an alignment's target given as raw text).
  std::string target_pieces_of(std::string_view line) const;
  // A line tokenized only (no BPE), with the source's or the target's rules: the words the
  // HMM aligner reads.
  std::string words_of(std::string_view line, bool target_side) const;
  // The model's pieces to raw text (BPE undone, detokenized).
  std::string text_of(std::string_view pieces) const;

  std::vector<model::LoadedModel>& models() { return models_; }
  const data::Vocabulary& target_vocabulary() const { return models_.front().target_vocabulary; }
  const data::Vocabulary& source_vocabulary() const { return models_.front().source_vocabulary; }
  // Worker k's copies of the models (k < workers).
  const std::vector<model::RnnSearch*>& members(std::size_t k) const { return thread_models_->members[k]; }
  const search::Shortlist* shortlist() const { return shortlist_ ? &*shortlist_ : nullptr; }
  bool has_attention() const;    // every model has attention weights (alignments, replace-unk)
  bool has_alignment_head() const;
  // The source lines of its requests, under the first model's source profile.
  LanguageWatch& language_watch() const { return *language_watch_; }
  // The HMM aligner's parameters, or null when the pair has none.
  const align::HmmParamsFile* hmm_params() const { return hmm_params_.get(); }

  // Worker k's search for the options named `key` (made once, kept for the next batch of
  // that key), and its forced scorer. Only worker k may call these with k.
  search::BeamSearcher& searcher(std::size_t worker, const std::string& key, const search::BeamOptions& options);
  search::ForcedScorer& scorer(std::size_t worker);

 private:
  PairConfig config_;
  std::uint64_t load_id_;
  std::vector<model::LoadedModel> models_;
  std::unique_ptr<search::ThreadModels> thread_models_;
  std::optional<search::Shortlist> shortlist_;
  std::unique_ptr<text::BpeApplier> bpe_;
  std::unique_ptr<align::HmmParamsFile> hmm_params_;
  std::unique_ptr<LanguageWatch> language_watch_;
  // Per worker: its searches by key (at most kKeptSearches, the oldest dropped), its scorer.
  static constexpr std::size_t kKeptSearches = 8;
  std::vector<std::map<std::string, std::unique_ptr<search::BeamSearcher>>> searchers_;
  std::vector<std::unique_ptr<search::ForcedScorer>> scorers_;
  text::Tokenizer tokenizer_, target_tokenizer_;
  text::Detokenizer detokenizer_;
};

}  // namespace rnnsearch::serve
