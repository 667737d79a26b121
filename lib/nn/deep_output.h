#pragma once
// Deep output layer (Bahdanau et al. 2015, appendix A), over all target rows at once:
//   t = maxout_2(s U + y_emb V + c C + b)
//   s: [N x m] (decoder state s_{i-1}), y_emb: [N x e] (embedding of y_{i-1}),
//   c: [N x 2n] (context c_i), U: [m x 2l], V: [e x 2l], C: [2n x 2l], b: [1 x 2l],
//   t: [N x l] with t_k = max(pre_{2k}, pre_{2k+1})  (pairs of ADJACENT columns).
// A tie goes to the first column of the pair (2k), so the gradient of a tie flows there.
//   backward:  d_pre = d_t routed to the winning column of each pair (0 elsewhere),
//              dU += s^T d_pre,  dV += y_emb^T d_pre,  dC += c^T d_pre,  db += sum_rows(d_pre),
//              d_s += d_pre U^T,  d_y_emb += d_pre V^T,  d_c += d_pre C^T
// Rows are independent, so padding rows never touch real rows; a padding row whose d_t is 0
// (as the loss gives it) gets zero input gradients and adds nothing to the parameters.
#include <cstdint>
#include <memory>
#include <string>

#include "math/packed_matrix.h"
#include "math/types.h"
#include "nn/parameters.h"

namespace rnnsearch::nn {

class DeepOutput {
 public:
  using IndexMatrix = Eigen::Matrix<std::int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  // What backward needs besides the inputs; reused across batches (buffers only grow).
  struct Cache {
    math::Matrix pre;     // pre: [N x 2l], the pre-activation
    IndexMatrix winner;   // winner: [N x l], the column of pre (2k or 2k+1) that won pair k
  };

  // Registers "<name>.U" [m x 2l], "<name>.V" [e x 2l], "<name>.C" [2n x 2l], "<name>.b" [1 x 2l].
  DeepOutput(ParameterRegistry& parameters, const std::string& name, int state_dim, int embedding_dim,
             int context_dim, int output_dim);

  // t: [N x l] (resized); fills the cache. Throws util::Error when s, y_emb, c do not have
  // N rows and widths m, e, 2n.
  void forward(const math::Matrix& s, const math::Matrix& y_emb, const math::Matrix& c, Cache& cache,
               math::Matrix& t) const;

  // Inference: forward with y_emb V given, embedding_product: [N x 2l] (model::WordProducts
  // keeps it per word); the other products as forward's.
  void forward_with_embedding_product(const math::Matrix& s, const math::Matrix& embedding_product,
                                      const math::Matrix& c, Cache& cache, math::Matrix& t) const;
  const Parameter& embedding_weight() const { return embedding_; }

  // Adds the parameter gradients and, for each input gradient given, its gradient
  // (d_s: [N x m], d_y_emb: [N x e], d_c: [N x 2n]; not resized). The inputs are those
  // given to the forward call that filled `cache`.
  void backward(const math::Matrix& s, const math::Matrix& y_emb, const math::Matrix& c, const Cache& cache,
                const math::Matrix& d_t, math::Matrix* d_s, math::Matrix* d_y_emb, math::Matrix* d_c) const;

  // Inference only: forward multiplies by copies of U, V and C packed in `precision`
  // (math::PackedMatrix) from now on; kFp32 drops them. The copies are of the values now:
  // set it again after the parameters change. Backward must not follow.
  void set_inference_precision(math::Precision precision);

  int state_dim() const { return static_cast<int>(state_.value.rows()); }
  int embedding_dim() const { return static_cast<int>(embedding_.value.rows()); }
  int context_dim() const { return static_cast<int>(context_.value.rows()); }
  int output_dim() const { return static_cast<int>(bias_.value.cols() / 2); }  // l

 private:
  Parameter& state_;      // U: [m x 2l]
  Parameter& embedding_;  // V: [e x 2l]
  Parameter& context_;    // C: [2n x 2l]
  Parameter& bias_;       // b: [1 x 2l]
  // forward after pre = s U + y_emb V: adds c C and b, then the maxout.
  void finish(const math::Matrix& s, const math::Matrix& c, Cache& cache, math::Matrix& t) const;

  std::unique_ptr<const math::PackedMatrix> packed_state_, packed_embedding_, packed_context_;  // null: fp32
};

}  // namespace rnnsearch::nn
