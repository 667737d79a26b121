#pragma once
// The three kinds of work a batch runs (serve/batch_queue.h): translating sentences
// (nmt-decode's search), scoring given translations (nmt-score's forced decoding) and
// aligning sentence pairs by a model's attention (nmt-align). Each runs on the worker's
// copy of its pair's models, with the code the command-line tool runs, so a sentence
// gets the tool's bytes.
#include <memory>
#include <string>
#include <vector>

#include "align/extract.h"
#include "align/hmm.h"
#include "search/translator.h"
#include "serve/batch_queue.h"
#include "serve/language_pair.h"

namespace rnnsearch::serve {

class TranslateTask : public BatchTask {
 public:
  TranslateTask(std::shared_ptr<LanguagePair> pair, search::TranslateOptions config);
  const std::string& key() const override { return key_; }
  void run(std::size_t worker, const std::vector<SentenceJob*>& batch) const override;
  const search::TranslateOptions& config() const { return config_; }

 private:
  std::shared_ptr<LanguagePair> pair_;
  search::TranslateOptions config_;
  std::string key_;
};

class ScoreTask : public BatchTask {
 public:
  explicit ScoreTask(std::shared_ptr<LanguagePair> pair);
  const std::string& key() const override { return key_; }
  void run(std::size_t worker, const std::vector<SentenceJob*>& batch) const override;

 private:
  std::shared_ptr<LanguagePair> pair_;
  std::string key_;
};

class AttentionAlignTask : public BatchTask {
 public:
  AttentionAlignTask(std::shared_ptr<LanguagePair> pair, align::ExtractOptions options, std::string key);
  const std::string& key() const override { return key_; }
  void run(std::size_t worker, const std::vector<SentenceJob*>& batch) const override;

 private:
  std::shared_ptr<LanguagePair> pair_;
  align::ExtractOptions options_;
  std::string key_;
};

// Aligning pairs of words with the pair's HMM parameters (nmt-align hmm --load-params):
// the batch is the corpus, and a pair's links do not depend on the others in it.
class HmmAlignTask : public BatchTask {
 public:
  HmmAlignTask(std::shared_ptr<LanguagePair> pair, align::HmmOptions options, std::string key);
  const std::string& key() const override { return key_; }
  void run(std::size_t worker, const std::vector<SentenceJob*>& batch) const override;

 private:
  std::shared_ptr<LanguagePair> pair_;
  align::HmmOptions options_;
  std::string key_;
};

}  // namespace rnnsearch::serve
