#include "model/config.h"

#include "util/error.h"

namespace rnnsearch::model {

namespace {

void check_positive(const char* option, int value) {
  if (value < 1) throw util::UsageError(std::string("--") + option + " must be at least 1, got " + std::to_string(value));
}

}  // namespace

void ModelConfig::validate() const {
  check_positive("dim-emb", embedding);
  check_positive("dim-enc", encoder_hidden);
  check_positive("dim-dec", decoder_hidden);
  check_positive("dim-att", attention);
  check_positive("dim-maxout", maxout);
  if (source_vocabulary < 5 || target_vocabulary < 5) {
    throw util::UsageError("vocabularies need at least one token besides the 4 specials, got " +
                           std::to_string(source_vocabulary) + " source and " + std::to_string(target_vocabulary) +
                           " target entries");
  }
  if (tied_embeddings && maxout != embedding) {
    throw util::UsageError("--tied-embeddings needs --dim-maxout equal to --dim-emb, got " + std::to_string(maxout) +
                           " and " + std::to_string(embedding));
  }
}

std::string ModelConfig::summary() const {
  return "emb " + std::to_string(embedding) + ", enc " + std::to_string(encoder_hidden) + "x2, dec " +
         std::to_string(decoder_hidden) + ", att " + std::to_string(attention) + ", maxout " + std::to_string(maxout) +
         (tied_embeddings ? " (tied)" : "") + ", vocab " + std::to_string(source_vocabulary) + "/" +
         std::to_string(target_vocabulary);
}

}  // namespace rnnsearch::model
