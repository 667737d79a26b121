#pragma once
// The sizes of an RNNsearch model: everything needed to rebuild its parameters.
#include <string>

namespace rnnsearch::model {

struct ModelConfig {
  int source_vocabulary = 0;  // including the four specials (data::Vocabulary)
  int target_vocabulary = 0;
  int embedding = 256;        // e: source and target word embeddings
  int encoder_hidden = 256;   // n: encoder GRU, per direction (annotations are 2n wide)
  int decoder_hidden = 512;   // m: decoder GRU
  int attention = 512;        // A: additive attention's hidden layer
  int maxout = 256;           // l: deep output after maxout (2l before)
  bool tied_embeddings = false;  // output layer reuses the target embeddings (needs l == e)

  // Throws util::UsageError naming the option, its range and the value received.
  void validate() const;
  // "emb 256, enc 256x2, dec 512, att 512, maxout 256, vocab 5782/4388"
  std::string summary() const;

  template <class Archive>
  void serialize(Archive& archive, unsigned /*version*/) {
    archive & source_vocabulary & target_vocabulary & embedding & encoder_hidden & decoder_hidden & attention &
        maxout & tied_embeddings;
  }
};

}  // namespace rnnsearch::model
