#pragma once
// Decoding in int8 and bf16: the products of the previous word's embedding that every
// decoder step needs, E_y[y] W_e (the first e input rows of the decoder GRU's W) and
// E_y[y] V (the deep output's), read from a table per word instead of multiplied each
// step. A word's row is computed in fp32 the first time it is read (a row-stable product:
// the same bits whenever and in whatever batch it is computed) and then kept, so memory
// grows only with the words a run produces (at most V x (3m + 2l) floats; the table's
// untouched rows take no memory).
#include <cstdint>
#include <vector>

#include "math/types.h"

namespace rnnsearch::model {

class WordProducts {
 public:
  // Forgets every row; products of embedding: [V x e] by the first e rows of gru_input:
  // [in x G] and by deep: [e x D] from now on (the model's parameters, which must outlive
  // their use and keep their values until the next reset).
  void reset(const math::Matrix& embedding, const math::Matrix& gru_input, const math::Matrix& deep);
  // gru_part: [B x G] and deep_part: [B x D] (resized), row b for words[b].
  void lookup(const std::vector<std::int32_t>& words, math::Matrix& gru_part, math::Matrix& deep_part);

 private:
  void compute_missing(const std::vector<std::int32_t>& words);

  const math::Matrix* embedding_ = nullptr;
  const math::Matrix* gru_input_ = nullptr;
  const math::Matrix* deep_ = nullptr;
  math::Matrix table_;             // [V x (G + D)]; row w valid when ready_[w]
  std::vector<char> ready_;
  std::vector<std::int32_t> missing_;
  math::Matrix missing_embedded_, missing_rows_;
};

}  // namespace rnnsearch::model
