#pragma once
// Where training stands: everything besides the parameters and the optimizer's moments
// that an exact resume needs. Batches are a function of (seed, epoch) and dropout masks
// of (seed, update, thread), so a position in the data is just (epoch, batch index).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <boost/serialization/string.hpp>
#include <boost/serialization/version.hpp>

namespace rnnsearch::train {

struct ValidationRecord {
  long update = 0;
  double cross_entropy = 0.0;  // nats per target token
  double bleu = 0.0;           // greedy BLEU of the validation set

  template <class Archive>
  void serialize(Archive& archive, unsigned /*version*/) {
    archive & update & cross_entropy & bleu;
  }
};

struct TrainingState {
  long update = 0;              // updates done
  long epoch = 0;               // current epoch, from 0
  std::uint64_t batch_in_epoch = 0;  // next batch of the current epoch
  double elapsed_seconds = 0.0; // training time so far, over all runs
  double target_tokens = 0.0;   // target tokens trained on so far
  float learning_rate_scale = 1.0f;  // product of the decays so far
  double best_score = -std::numeric_limits<double>::infinity();  // higher is better (-CE for CE)
  long best_update = 0;
  int stalled = 0;              // validations since the best
  int stalled_since_decay = 0;
  std::vector<ValidationRecord> validations;
  // The products' precision (nmt-train --precision); class version 1. A checkpoint of
  // version 0 was trained in fp32.
  std::string precision = "fp32";
  // The updates whose models --keep-checkpoints keeps (MODEL.updateU), oldest first;
  // class version 2.
  std::vector<long> kept_updates;

  template <class Archive>
  void serialize(Archive& archive, unsigned version) {
    archive & update & epoch & batch_in_epoch & elapsed_seconds & target_tokens & learning_rate_scale & best_score &
        best_update & stalled & stalled_since_decay & validations;
    if (version >= 1) archive & precision;
    if (version >= 2) archive & kept_updates;
  }
};

}  // namespace rnnsearch::train

BOOST_CLASS_VERSION(rnnsearch::train::TrainingState, 2)
