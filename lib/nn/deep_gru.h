#pragma once
// A deep-transition GRU layer (Miceli Barone et al. 2017, "Deep Architectures for Neural
// Machine Translation"; Marian's --enc-cell-depth): at each position the state passes
// through `depth` GRU transitions, the first reading the input, the others (transition
// cells, nn::Gru without input) only the state:
//   h_t = T_depth(... T_2(GRU(x_t, h_{t-1})))
// Masking and direction as nn::Gru: a padded step carries the whole state over. With
// depth 1 forward and backward are nn::Gru's own, bit for bit.
//
// Parameters: the first cell is "<name>" (the names of a one-transition layer), the
// others "<name>.transition2" ... "<name>.transitionN".
#include <memory>
#include <string>
#include <vector>

#include "math/precision.h"
#include "math/types.h"
#include "nn/gru.h"
#include "nn/parameters.h"

namespace rnnsearch::nn {

class DeepGru {
 public:
  using Direction = Gru::Direction;

  // What forward keeps for backward; buffers are reused across calls.
  struct SequenceCache {
    Gru::SequenceCache first;  // the first cell's (all of it with depth 1)
    // Depth > 1: steps[t * depth + k] is cell k's step at position t; per cell k, the
    // rows of every position: the states it started from and its reset states, and
    // backward's gradients of its pre-activations (for the deferred U gradients).
    std::vector<Gru::StepCache> steps;
    std::vector<math::Matrix> h_prev_all, reset_all;
    mutable std::vector<math::Matrix> d_recurrent_all;
    mutable math::Matrix d_scratch;               // [B x 3H]
    mutable std::vector<math::Matrix> d_between;  // [B x H]: gradient into cell k's output
    math::Matrix between;                         // [B x H]: one cell's output
  };
  struct TransposedRecurrent {
    std::vector<Gru::TransposedRecurrent> cells;
  };

  DeepGru(ParameterRegistry& parameters, const std::string& name, int input_dim, int hidden_dim, int depth,
          GruOptions options = {});

  // As nn::Gru::forward and backward, through all transitions.
  void forward(const math::Matrix& x, const math::Matrix& mask, const math::Matrix& h0, SequenceCache& cache,
               math::Matrix& states, Direction direction = Direction::kLeftToRight,
               Pass pass = Pass::kForwardBackward) const;
  void backward(const SequenceCache& cache, const math::Matrix& d_states, math::Matrix* dx, math::Matrix* dh0,
                const TransposedRecurrent* transposed = nullptr) const;
  // Fills out.cells (one per transition) with their U_zr^T and U_h^T.
  void transpose_recurrent(TransposedRecurrent& out) const;
  void set_inference_precision(math::Precision precision);

  int depth() const { return static_cast<int>(cells_.size()); }
  int hidden_dim() const { return cells_.front()->hidden_dim(); }

 private:
  void deep_backward(const SequenceCache& cache, const math::Matrix& d_states, math::Matrix* dx, math::Matrix* dh0,
                     const TransposedRecurrent& transposed) const;
  std::vector<std::unique_ptr<Gru>> cells_;  // cells_[0] reads the input
};

}  // namespace rnnsearch::nn
