#pragma once
// Bidirectional RNN encoder of RNNsearch (Bahdanau et al. 2015, section 3.2, appendix A.2.1):
//   x_j   = E_x[id_j]                                  (nn::Embedding, "<name>.embedding")
//   f_j   = GRU_fwd(x_j, f_{j-1}),  f_{-1} = 0          (nn::Gru, "<name>.forward", left to right)
//   b_j   = GRU_bwd(x_j, b_{j+1}),  b_{L}  = 0          (nn::Gru, "<name>.backward", right to left)
//   h_j   = [f_j ; b_j]                                 annotations: [(T*B) x 2n], f in columns 0..n-1
//
// A batch is T positions of B right-padded sentences, ids and rows ordered t*B + b, with a
// mask [T x B] (1 = real token, 0 = padding). Padded ids must still be valid vocabulary ids
// (e.g. 0); their embeddings are looked up but never influence anything. The backward GRU
// runs with Direction::kRightToLeft, so for a sentence of length L it starts from zero at
// position L-1, exactly as on the unpadded sentence.
//
// Padded rows of annotations (mask 0) are set to zero. In backward the gradient at padded
// rows is ignored (treated as zero), so padded positions neither receive nor pass gradient;
// no parameter, including the embedding rows of padding ids, gets gradient from them.
#include <cstdint>
#include <string>
#include <vector>

#include "math/types.h"
#include "nn/embedding.h"
#include "nn/deep_gru.h"
#include "nn/gru.h"
#include "nn/parameters.h"

namespace rnnsearch::nn {

class BiEncoder {
 public:
  // What forward keeps for backward; buffers are reused across calls.
  struct Cache {
    std::vector<std::int32_t> ids;        // T*B token ids, t*B + b
    math::Matrix mask;                    // [T x B]
    math::Matrix embedded;                // [(T*B) x e] x = E_x[ids] (times the dropout mask)
    math::Matrix dropout;                 // [(T*B) x e] inverted-dropout mask, empty when none
    math::Matrix h0;                      // [B x n] zero initial state
    DeepGru::SequenceCache forward_cache;   // left-to-right GRU
    DeepGru::SequenceCache backward_cache;  // right-to-left GRU
    math::Matrix forward_states;          // [(T*B) x n]
    math::Matrix backward_states;         // [(T*B) x n]
    mutable math::Matrix d_forward;       // [(T*B) x n] backward scratch
    mutable math::Matrix d_backward;      // [(T*B) x n] backward scratch
    mutable math::Matrix d_embedded;      // [(T*B) x e] backward scratch
  };

  // Registers "<name>.embedding" (E: [V x e]), "<name>.forward" and "<name>.backward"
  // (GRUs e -> n, nn::DeepGru layers of `depth` transitions with `options`).
  BiEncoder(ParameterRegistry& parameters, const std::string& name, int vocabulary_size, int embedding_dim,
            int hidden_dim, int depth = 1, GruOptions options = {});

  // ids: T*B token ids (t*B + b), mask: [T x B]; annotations: [(T*B) x 2n] (resized),
  // zero at padded rows. embedding_dropout, when given, is a [(T*B) x e] mask multiplied
  // into the embeddings (kept for backward). With Pass::kForwardOnly the cache keeps
  // nothing for backward. Throws util::Error when ids.size() != T*B or an id is outside
  // [0, V).
  void forward(const std::vector<std::int32_t>& ids, const math::Matrix& mask, Cache& cache,
               math::Matrix& annotations, const math::Matrix* embedding_dropout = nullptr,
               Pass pass = Pass::kForwardBackward) const;
  // The GRUs' transposed recurrent weights (Gru::TransposedRecurrent), for backward.
  struct TransposedRecurrent {
    DeepGru::TransposedRecurrent forward, backward;
  };
  // Fills out.forward (direction 0) or out.backward (1) from the current parameters.
  void transpose_recurrent(TransposedRecurrent& out, int direction) const;
  // d_annotations: [(T*B) x 2n]; rows at padded positions are ignored. Adds into the
  // gradients of the embedding table and of both GRUs; the GRUs multiply by `transposed`
  // when given (both directions filled), else by copies they make.
  void backward(const Cache& cache, const math::Matrix& d_annotations,
                const TransposedRecurrent* transposed = nullptr) const;

  int vocabulary_size() const { return embedding_.vocabulary_size(); }
  int embedding_dim() const { return embedding_.dim(); }
  int hidden_dim() const { return forward_gru_.hidden_dim(); }
  // Width of one annotation: 2n.
  int annotation_dim() const { return 2 * hidden_dim(); }
  // Inference only: both GRUs multiply in `precision` (Gru::set_inference_precision).
  void set_inference_precision(math::Precision precision);

 private:
  std::string name_;
  Embedding embedding_;
  DeepGru forward_gru_;
  DeepGru backward_gru_;
};

}  // namespace rnnsearch::nn
