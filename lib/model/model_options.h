#pragma once
// The sizes and attention form of an RNNsearch model: everything needed to rebuild its
// parameters.
#include <boost/serialization/version.hpp>
#include <string>

#include "nn/attention.h"
#include "util/error.h"

namespace rnnsearch::model {

// Bounds of the sizes (nmt-train(1)), for the command line and for model files alike: a
// layer wider than kMaxDimension or a vocabulary larger than kMaxVocabulary is a typo or
// a damaged file, not a model.
constexpr int kMaxDimension = 8192;
constexpr int kMaxVocabulary = 10000000;
// Transitions per step of a deep-transition GRU (--enc-cell-depth, --dec-cell-depth).
constexpr int kMaxCellDepth = 8;

struct ModelOptions {
  int source_vocabulary = 0;  // including the four specials (data::Vocabulary)
  int target_vocabulary = 0;
  int embedding = 256;        // e: source and target word embeddings
  int encoder_hidden = 256;   // n: encoder GRU, per direction (annotations are 2n wide)
  int decoder_hidden = 512;   // m: decoder GRU
  int attention = 512;        // A: additive attention's hidden layer (read by additive only)
  int maxout = 256;           // l: deep output after maxout (2l before)
  bool tied_embeddings = false;  // output layer reuses the target embeddings (needs l == e)
  // How the decoder attends (nn/attention.h): additive (Bahdanau), general and dot
  // (Luong), none (RNNencdec, a fixed context). Model files before format version 2 hold
  // no form: they are additive.
  nn::AttentionForm attention_form = nn::AttentionForm::kAdditive;
  // A': the hidden layer of the alignment head, 0 = none. The head is a second additive
  // attention whose query also reads the target word being emitted (RnnSearch): trained on
  // word links over a frozen translation model, it is what nmt-align reads. Model files
  // before format version 3 have none.
  int alignment_head = 0;
  // Layer normalisation inside every GRU (nn::Gru). Model files before format version 5
  // have none.
  bool layer_norm = false;
  // Transitions per step (nn::DeepGru) of each encoder direction, and of the decoder: 1 is
  // the paper's decoder (attention reads s_{i-1}, one GRU reads [E_y y_{i-1}; c_i]); 2 or
  // more the conditional GRU of Nematus and Marian (RnnSearch). Before format version 5: 1.
  int encoder_depth = 1;
  int decoder_depth = 1;

  // Whether the decoder is the conditional GRU (decoder_depth > 1).
  bool conditional_decoder() const { return decoder_depth > 1; }
  // Throws util::UsageError naming the option, its range and the value received.
  void validate() const;
  // "emb 256, enc 256x2, dec 512, att additive 512, maxout 256, vocab 5782/4388"
  // (att general, att dot, att none: A is not used).
  std::string summary() const;

  // Class version 1 adds attention_form; version 0 (format version 1 files) is additive.
  // Class version 2 adds alignment_head; earlier files have none. Class version 3 adds
  // layer_norm, encoder_depth and decoder_depth.
  template <class Archive>
  void serialize(Archive& archive, unsigned version) {
    archive & source_vocabulary & target_vocabulary & embedding & encoder_hidden & decoder_hidden & attention &
        maxout;
    // The flag is stored as Boost stores a bool, one byte, but read through a byte: a damaged
    // file's 62 loaded straight into a bool is undefined behaviour (found by fuzzing).
    unsigned char tied = tied_embeddings;
    archive & tied;
    if (tied > 1) throw util::UsageError("the tied-embeddings flag must be 0 or 1, got " + std::to_string(tied));
    tied_embeddings = tied == 1;
    if (version >= 1) {
      archive & attention_form;
    } else {
      attention_form = nn::AttentionForm::kAdditive;
    }
    if (version >= 2) {
      archive & alignment_head;
    } else {
      alignment_head = 0;
    }
    unsigned char normalized = layer_norm;
    if (version >= 3) {
      archive & normalized & encoder_depth & decoder_depth;
    } else {
      normalized = 0;
      encoder_depth = decoder_depth = 1;
    }
    if (normalized > 1) throw util::UsageError("the layer-normalization flag must be 0 or 1, got " + std::to_string(normalized));
    layer_norm = normalized == 1;
  }
};

// "additive", "dot", "general", "none" (nmt-train --attention); throws util::UsageError
// naming --attention and the allowed values otherwise.
nn::AttentionForm parse_attention_form(const std::string& name);

}  // namespace rnnsearch::model

BOOST_CLASS_VERSION(rnnsearch::model::ModelOptions, 3)
