// Guided alignment through the trainer: on a generated demo corpus (demo/generated_corpus.h, gold
// word links for every pair), two tiny models train for the same updates, one of them
// with the training pairs' gold links as its guided alignment; the hard attention
// alignments of held-out pairs are scored against their gold links. Guidance must lower
// the alignment error rate, and by a wide margin.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "align/aer.h"
#include "align/extract.h"
#include "demo/generated_corpus.h"
#include "model/model_file.h"
#include "support/temp_dir.h"
#include "train/trainer.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

const demo::Split& split_named(const std::vector<demo::Split>& splits, const std::string& name) {
  for (const auto& split : splits) {
    if (split.name == name) return split;
  }
  BOOST_FAIL("the demo corpus has no split " << name);
  return splits.front();
}

// AER of the hard alignments of `pairs` from the decoder's attention (or the alignment
// head's) of the model in `path`.
double attention_aer(const std::string& path, const std::vector<demo::SentencePair>& pairs,
                     model::AttentionSource weights = model::AttentionSource::kDecoder) {
  const auto loaded = model::read_model_file(path);
  std::vector<std::string> sources, targets;
  for (const auto& pair : pairs) {
    sources.push_back(demo::tokenized_text(pair.source));
    targets.push_back(demo::tokenized_text(pair.target));
  }
  align::ExtractOptions options;
  options.rules.hard = true;  // each target piece to its most attended source piece
  options.weights = weights;
  model::Replicas replicas(*loaded.model, 1);
  const auto lines = align::extract_alignments(replicas, loaded.source_vocabulary, loaded.target_vocabulary,
                                               sources, targets, options);
  align::AlignmentScores scores;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    scores.add(data::parse_pharaoh(lines[i], "hypothesis", i + 1), data::GoldAlignment{pairs[i].links, pairs[i].links});
  }
  return scores.aer();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(guided_alignment)

BOOST_AUTO_TEST_CASE(guided_alignment_lowers_aer_against_the_links_it_is_given) {
  rt::TempDir dir;
  demo::GeneratedCorpusOptions corpus;
  corpus.seed = 11;
  corpus.train = 2000;
  corpus.valid = 0;
  corpus.test = 200;
  corpus.tokenized = true;
  const auto splits = demo::generate_corpus(corpus);
  demo::write_corpus(splits, corpus, dir.path().string());
  const auto& test = split_named(splits, "test").pairs;

  train::TrainOptions config;
  config.train_source = (dir.path() / "train.xa").string();
  config.train_target = (dir.path() / "train.xb").string();
  config.model.embedding = 32;
  config.model.encoder_hidden = 32;
  config.model.decoder_hidden = 32;
  config.model.attention = 32;
  config.model.maxout = 16;
  config.batching.sentences = 32;
  config.learning_rate = 3e-3f;
  config.dropout = 0.0f;
  config.max_updates = 400;
  config.quiet = true;

  config.model_path = (dir.path() / "plain.bin").string();
  train::run_training(config);
  const double plain = attention_aer(config.model_path, test);

  config.model_path = (dir.path() / "guided.bin").string();
  config.guided_alignment = (dir.path() / "train.align").string();
  config.guided_alignment_weight = 1.0f;
  train::run_training(config);
  const double guided = attention_aer(config.model_path, test);

  BOOST_TEST_MESSAGE("AER of hard attention alignments on " << test.size() << " held-out pairs after "
                                                             << config.max_updates << " updates: " << plain
                                                             << " without guidance, " << guided << " with");
  BOOST_TEST(guided < plain - 0.2);
  BOOST_TEST(guided < 0.35);

  // An alignment head trained on the same links over the frozen unguided model: it reads
  // the emitted word, so it aligns better than both, and translation is untouched.
  const std::string plain_path = (dir.path() / "plain.bin").string();
  config.model_path = (dir.path() / "head.bin").string();
  config.pretrained_model = plain_path;
  config.model.alignment_head = 32;
  train::run_training(config);
  const double head = attention_aer(config.model_path, test, model::AttentionSource::kAlignmentHead);
  BOOST_TEST_MESSAGE("the alignment head over the unguided model: " << head);
  BOOST_TEST(head < plain - 0.2);
  BOOST_TEST(head <= guided);
  const auto before = model::read_model_file(plain_path), after = model::read_model_file(config.model_path);
  for (const nn::Parameter* p : before.model->parameters().all()) {
    for (const nn::Parameter* q : after.model->parameters().all()) {
      if (q->name == p->name) BOOST_TEST((q->value == p->value), p->name << " changed while training the head");
    }
  }
  BOOST_TEST(attention_aer(config.model_path, test) == plain);  // its decoder attention is the plain model's
}

BOOST_AUTO_TEST_SUITE_END()
