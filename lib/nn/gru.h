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
//
// Layer normalisation (GruOptions::layer_norm; Ba et al. 2016, as Nematus and Marian put it
// in their GRUs): the input projection and both recurrent products are normalized
// (nn/layer_norm.h) and scaled by gains of their own before they are summed:
//   [z | r] pre = LN(x W) g_in [:2H] + b [:2H] + LN(h_{t-1} U_zr) g_zr
//   h~ pre      = LN(x W) g_in [2H:] + b [2H:] + LN((r_t . h_{t-1}) U_h) g_h
// LN(x W) runs over all 3H columns, each recurrent product over its own. Then the input
// projection holds x W without b, and step() normalizes it and adds b: a caller that sums
// an input projection from pieces (the decoder) hands step() the whole raw sum. Extra
// parameters: "<name>.gain_in" [1 x 3H], "<name>.gain_zr" [1 x 2H], "<name>.gain_h" [1 x H].
//
// Transition cells (GruOptions::transition; Miceli Barone et al. 2017): no input, so no W
// and no gain_in; the input part of the pre-activations is b alone (transition_step). Deep-
// transition layers (nn::DeepGru, the decoder) run them after a cell that reads the input.
#include <memory>
#include <string>
#include <vector>

#include "math/packed_matrix.h"
#include "math/types.h"
#include "nn/parameters.h"

namespace rnnsearch::nn {

struct GruOptions {
  bool layer_norm = false;  // normalize the input projection and the recurrent products
  bool transition = false;  // no input: a deep-transition cell (input_dim must be 0)
};

class Gru {
 public:
  enum class Direction { kLeftToRight, kRightToLeft };

  // What one step keeps for its backward pass; buffers are reused across calls.
  struct StepCache {
    math::Matrix h_prev;       // [B x H] the state the step started from
    math::Matrix gates;        // [B x 3H] z | r | h~, after their nonlinearities
    math::Matrix reset_state;  // [B x H] r . h_prev
    // Layer normalisation only: the normalized input projection and recurrent products
    // and their rows' 1 / std.
    math::Matrix input_hat, zr_hat, h_hat;  // [B x 3H], [B x 2H], [B x H]
    std::vector<float> input_inv_std, zr_inv_std, h_inv_std;
    mutable math::Matrix d_recurrent;  // step_backward's scratch when the caller gives none
    mutable math::Matrix d_scaled;     // step_backward's scratch
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
    mutable math::Matrix d_recurrent;  // [(T*B) x 3H] backward scratch (layer normalisation)
    mutable math::Matrix dh_step;      // [B x H] backward scratch: gradient into one step's output
    mutable math::Matrix dh_carry;     // [B x H] backward scratch: gradient flowing to the earlier state
    mutable TransposedRecurrent transposed;  // backward scratch
  };

  // Registers "<name>.W" (not for a transition cell), "<name>.b", "<name>.U_zr",
  // "<name>.U_h", then with layer normalisation the gains (initialize them to 1).
  Gru(ParameterRegistry& parameters, const std::string& name, int input_dim, int hidden_dim,
      GruOptions options = {});

  // projected: [N x 3H] = x: [N x in] W + b (resized; without b under layer
  // normalisation, whose step() adds it). One GEMM over a whole sequence.
  void project_inputs(const math::Matrix& x, math::Matrix& projected) const;
  // Backward of project_inputs: dW += x^T dp (one GEMM), db += sum_rows(dp) (not under
  // layer normalisation: step_backward adds it), and *dx += dp W^T when dx is given.
  void project_inputs_backward(const math::Matrix& x, const math::Matrix& d_projected, math::Matrix* dx) const;
  // For a caller that projects its inputs itself: adds b to each row of projected (nothing
  // under layer normalisation), and its backward, db += sum_rows(d_projected) (ditto).
  void add_input_bias(math::MatrixRef projected) const;
  void input_bias_backward(const math::ConstMatrixRef& d_projected) const;

  // One recurrent step. projected: [B x 3H] (this step's rows of project_inputs, or any
  // input projection the caller computed), h_prev: [B x H], h: [B x H] (shaped by the
  // caller; may be h_prev itself). Fills cache.
  void step(const math::ConstMatrixRef& projected, const math::ConstMatrixRef& h_prev, math::MatrixRef h,
            StepCache& cache) const;
  // The step of a transition cell: no input, b in its place.
  void transition_step(const math::ConstMatrixRef& h_prev, math::MatrixRef h, StepCache& cache) const;
  // Backward of step (or transition_step) for dh: [B x H]: OVERWRITES d_projected:
  // [B x 3H] with the gradient of the step's input projection (what project_inputs_backward
  // and the caller's own projection read; for a transition cell, scratch), adds into
  // dh_prev: [B x H], into the gains and (under layer normalisation or for a transition
  // cell) b, and, with kNow, into the U_zr and U_h gradients. With `transposed`
  // (transpose_recurrent's, from the current parameters) its products by U^T read the
  // copies. Under layer normalisation the U gradients read the gradient of the raw
  // recurrent products, which differs from d_projected: it is written to *d_recurrent
  // ([B x 3H]) when given, for recurrent_weights_backward (which then must read it).
  void step_backward(const StepCache& cache, const math::ConstMatrixRef& dh, math::MatrixRef d_projected,
                     math::MatrixRef dh_prev, WeightGradients weights = WeightGradients::kNow,
                     const TransposedRecurrent* transposed = nullptr, math::MatrixRef* d_recurrent = nullptr) const;
  // Whether recurrent_weights_backward reads step_backward's d_recurrent rather than its
  // d_projected (layer normalisation).
  bool separate_recurrent_gradients() const { return options_.layer_norm; }
  // Fills `out` with U_zr^T and U_h^T.
  void transpose_recurrent(TransposedRecurrent& out) const;
  // The U gradients of many steps' rows at once, for step_backward with kDeferred:
  //   dU_zr += h_prev^T [dz | dr],  dU_h += (r . h_prev)^T dh~
  // h_prev, reset_state: [N x H]; d_projected: [N x 3H] (the rows step_backward wrote to
  // d_projected, or under layer normalisation to d_recurrent).
  void recurrent_weights_backward(const math::ConstMatrixRef& h_prev, const math::ConstMatrixRef& reset_state,
                                  const math::ConstMatrixRef& d_projected) const;

  // The whole sequence. x: [(T*B) x in], mask: [T x B], h0: [B x H];
  // states: [(T*B) x H] (resized), row t*B + b = state of sentence b after position t.
  // With Pass::kForwardOnly the cache keeps nothing for backward.
  void forward(const math::Matrix& x, const math::Matrix& mask, const math::Matrix& h0, SequenceCache& cache,
               math::Matrix& states, Direction direction = Direction::kLeftToRight,
               Pass pass = Pass::kForwardBackward) const;
  // The checks of forward: x [(T*B) x in] and h0 [B x H] for mask [T x B] of 0s and 1s.
  void check_sequence(const math::Matrix& x, const math::Matrix& mask, const math::Matrix& h0) const;
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
  // W (not for a transition cell).
  const Parameter& input_weight() const;
  const GruOptions& options() const { return options_; }

  int input_dim() const { return input_weight_ ? static_cast<int>(input_weight_->value.rows()) : 0; }
  int hidden_dim() const { return static_cast<int>(recurrent_h_.value.rows()); }

 private:
  // The step after its input part is in cache.gates: the recurrent products, gates and h.
  void recurrent_step(math::MatrixRef h, StepCache& cache) const;
  // step_backward's part for the input side under layer normalisation or in a transition
  // cell: b's and gain_in's gradients, and d_projected made the raw projection's.
  void input_side_backward(const StepCache& cache, math::MatrixRef d_projected) const;
  // d_pre: the gradient of a normalized product's scaled output (hat g); adds the gain's
  // gradient and writes the raw product's gradient into d_raw (may be d_pre).
  void normalized_backward(const math::ConstMatrixRef& d_pre, const math::Matrix& hat, const std::vector<float>& inv_std,
                           Parameter& gain, math::Matrix& d_scaled, math::MatrixRef d_raw) const;

  std::string name_;
  GruOptions options_;
  Parameter* input_weight_;   // W: [in x 3H]; null for a transition cell
  Parameter& bias_;           // b: [1 x 3H]
  Parameter& recurrent_zr_;   // U_zr: [H x 2H]
  Parameter& recurrent_h_;    // U_h: [H x H]
  Parameter* input_gain_ = nullptr;  // g_in: [1 x 3H], layer normalisation with an input
  Parameter* zr_gain_ = nullptr;     // g_zr: [1 x 2H], layer normalisation
  Parameter* h_gain_ = nullptr;      // g_h: [1 x H], layer normalisation
  std::unique_ptr<const math::PackedMatrix> packed_input_, packed_zr_, packed_h_;  // inference; null: fp32
  std::unique_ptr<const math::PackedMatrix> packed_input_tail_;  // W[head_inputs:] (project_inputs_tail)
  int head_inputs_ = 0;
};

}  // namespace rnnsearch::nn
