#pragma once
// Gated recurrent unit (Cho et al. 2014; Bahdanau et al. 2015, appendix A), the reset gate
// applied to the previous state before the recurrent product:
//   z_t  = sigmoid(x_t W_z + h_{t-1} U_z + b_z)
//   r_t  = sigmoid(x_t W_r + h_{t-1} U_r + b_r)
//   h~_t = tanh(x_t W_h + (r_t . h_{t-1}) U_h + b_h)
//   h_t  = (1 - z_t) . h_{t-1} + z_t . h~_t
// Parameters: "<name>.W" [in x 3H] = [W_z | W_r | W_h], "<name>.b" [1 x 3H] = [b_z | b_r | b_h],
// "<name>.U_zr" [H x 2H] = [U_z | U_r], "<name>.U_h" [H x H].
//
// The input side is one GEMM over a whole sequence (project_inputs: p = x W + b,
// [(T*B) x 3H]); only the recurrent products run per step (step: [B x H] by U). The
// decoder calls project_inputs / step / step_backward / project_inputs_backward itself
// (step reads and writes rows of the caller's sequence matrices in place); the encoder
// calls forward / backward, which run the steps over a padded batch.
//
// Masking: a batch is T steps of B sentences, rows ordered t*B + b, with a mask [T x B]
// (1 = real token, 0 = padding; nothing else allowed). At a padded step the state is
// carried over unchanged (h_t = h_{t-1}): the step's input, gates and parameters get no
// gradient, and the gradient of h_t flows straight into h_{t-1}.
//
// Direction: kRightToLeft processes positions T-1 down to 0 with the same masking. For a
// right-padded sentence of length L the padded positions T-1..L come first and leave the
// initial state untouched, so the recurrence reads tokens L-1, ..., 0 starting from h0,
// exactly as a right-to-left pass over the unpadded sentence; no permutation is needed.
// states row t*B + b is always the state after reading position t (for a padded position:
// the carried state, i.e. h0 for right-to-left, the last real state for left-to-right).
#include <memory>
#include <string>
#include <vector>

#include "math/packed_matrix.h"
#include "math/types.h"
#include "nn/parameters.h"

namespace rnnsearch::nn {

class Gru {
 public:
  enum class Direction { kLeftToRight, kRightToLeft };

  // What one step keeps for its backward pass; buffers are reused across calls.
  struct StepCache {
    math::Matrix h_prev;       // [B x H] the state the step started from
    math::Matrix gates;        // [B x 3H] z | r | h~, after their nonlinearities
    math::Matrix reset_state;  // [B x H] r . h_prev
  };

  // U_zr^T: [2H x H] and U_h^T: [H x H], copied once for a backward pass, so that
  // step_backward multiplies by them as A B: oneDNN's sgemm runs A B^T at about half the
  // speed of A B when A holds a batch's few rows (32 x 512 x 1536 in training: 27 against
  // 57 GFLOP/s). Valid until the parameters change.
  struct TransposedRecurrent {
    math::Matrix zr;  // [2H x H]
    math::Matrix h;   // [H x H]
  };

  // What forward keeps for backward over a whole sequence; buffers are reused across calls.
  // After a Pass::kForwardOnly forward only steps[0] (the scratch of every step) and
  // projected are filled: backward must not read it.
  struct SequenceCache {
    Direction direction = Direction::kLeftToRight;
    math::Matrix x;                // [(T*B) x in] copy of the inputs (for dW)
    math::Matrix mask;             // [T x B]
    math::Matrix projected;        // [(T*B) x 3H] x W + b
    math::Matrix h_prev_all;       // [(T*B) x H] block t: the state step t started from
    math::Matrix reset_all;        // [(T*B) x H] block t: r . h_prev of step t
    std::vector<StepCache> steps;  // steps[t]: the step at position t (size >= T)
    mutable math::Matrix d_projected;  // [(T*B) x 3H] backward scratch
    mutable math::Matrix dh_step;      // [B x H] backward scratch: gradient into one step's output
    mutable math::Matrix dh_carry;     // [B x H] backward scratch: gradient flowing to the earlier state
    mutable TransposedRecurrent transposed;  // backward scratch
  };

  // Registers "<name>.W", "<name>.b", "<name>.U_zr" and "<name>.U_h".
  Gru(ParameterRegistry& parameters, const std::string& name, int input_dim, int hidden_dim);

  // projected: [N x 3H] = x: [N x in] W + b (resized). One GEMM over a whole sequence.
  void project_inputs(const math::Matrix& x, math::Matrix& projected) const;
  // Backward of project_inputs: dW += x^T dp (one GEMM), db += sum_rows(dp), and
  // *dx += dp W^T when dx is given ([N x in]).
  void project_inputs_backward(const math::Matrix& x, const math::Matrix& d_projected, math::Matrix* dx) const;

  // One recurrent step. projected: [B x 3H] (this step's rows of project_inputs, or any
  // input projection the caller computed), h_prev: [B x H], h: [B x H] (shaped by the
  // caller; may be h_prev itself). Fills cache.
  void step(const math::ConstMatrixRef& projected, const math::ConstMatrixRef& h_prev, math::MatrixRef h,
            StepCache& cache) const;
  // Backward of step for dh: [B x H]: OVERWRITES d_projected: [B x 3H] with the gradient
  // of the step's pre-activations (what project_inputs_backward and the caller's own
  // projection read), adds into dh_prev: [B x H] and, with kNow, into the U_zr and U_h
  // gradients. With `transposed` (transpose_recurrent's, from the current parameters) its
  // products by U^T read the copies.
  void step_backward(const StepCache& cache, const math::ConstMatrixRef& dh, math::MatrixRef d_projected,
                     math::MatrixRef dh_prev, WeightGradients weights = WeightGradients::kNow,
                     const TransposedRecurrent* transposed = nullptr) const;
  // Fills `out` with U_zr^T and U_h^T.
  void transpose_recurrent(TransposedRecurrent& out) const;
  // The U gradients of many steps' rows at once, for step_backward with kDeferred:
  //   dU_zr += h_prev^T [dz | dr],  dU_h += (r . h_prev)^T dh~
  // h_prev, reset_state: [N x H]; d_projected: [N x 3H] (the rows step_backward wrote).
  void recurrent_weights_backward(const math::ConstMatrixRef& h_prev, const math::ConstMatrixRef& reset_state,
                                  const math::ConstMatrixRef& d_projected) const;

  // The whole sequence. x: [(T*B) x in], mask: [T x B], h0: [B x H];
  // states: [(T*B) x H] (resized), row t*B + b = state of sentence b after position t.
  // With Pass::kForwardOnly the cache keeps nothing for backward.
  void forward(const math::Matrix& x, const math::Matrix& mask, const math::Matrix& h0, SequenceCache& cache,
               math::Matrix& states, Direction direction = Direction::kLeftToRight,
               Pass pass = Pass::kForwardBackward) const;
  // Backpropagation through time for d_states: [(T*B) x H], then through project_inputs.
  // Adds into all four parameter gradients, into *dx ([(T*B) x in]) and *dh0 ([B x H])
  // when given. Its steps multiply by `transposed` (transpose_recurrent's, from the
  // current parameters) when given, else by copies it makes in the cache.
  void backward(const SequenceCache& cache, const math::Matrix& d_states, math::Matrix* dx, math::Matrix* dh0,
                const TransposedRecurrent* transposed = nullptr) const;

  // Inference only: project_inputs and step multiply by copies of W, U_zr and U_h packed in
  // `precision` (math::PackedMatrix) from now on; kFp32 drops them. The copies are of the
  // values now: set it again after the parameters change. Backward must not follow. With
  // head_inputs > 0 (int8, bf16), W's rows from head_inputs on are packed on their own too,
  // for project_inputs_tail.
  void set_inference_precision(math::Precision precision, int head_inputs = 0);
  // Inference, after set_inference_precision with head_inputs = h: projected: [B x 3H]
  // (resized) = x_tail W[h:] + head_product + b, for inputs x = [x_head, x_tail] whose
  // head_product = x_head W[:h] the caller has (x_tail: [B x (in - h)]).
  void project_inputs_tail(const math::Matrix& x_tail, const math::Matrix& head_product,
                           math::Matrix& projected) const;
  const Parameter& input_weight() const { return input_weight_; }

  int input_dim() const { return static_cast<int>(input_weight_.value.rows()); }
  int hidden_dim() const { return static_cast<int>(recurrent_h_.value.rows()); }

 private:
  Parameter& input_weight_;   // W: [in x 3H]
  Parameter& bias_;           // b: [1 x 3H]
  Parameter& recurrent_zr_;   // U_zr: [H x 2H]
  Parameter& recurrent_h_;    // U_h: [H x H]
  std::unique_ptr<const math::PackedMatrix> packed_input_, packed_zr_, packed_h_;  // inference; null: fp32
  std::unique_ptr<const math::PackedMatrix> packed_input_tail_;  // W[head_inputs:] (project_inputs_tail)
  int head_inputs_ = 0;
};

}  // namespace rnnsearch::nn
