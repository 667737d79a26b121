#pragma once
// The floating-point operations RnnSearch::loss performs in its matrix and vector
// products for one batch (2 per multiply-add), forward and backward, counted from the
// shapes the code multiplies. All go through math::gemm except the attention's
// per-position vector products (scores and their gradients, the context sums and theirs;
// 0.3% of the total with additive attention in the benchmark configuration), counted apart.
// Elementwise work (nonlinearities, softmax, masking) is left out: it is what makes the
// achieved rate fall short of the SGEMM rate.
#include <cstdint>

#include "model/model_options.h"

namespace rnnsearch::model {

struct BatchShape {
  int sentences = 0;        // B
  int source_length = 0;    // S, </s> included
  int target_length = 0;    // T, </s> included
  long real_target_tokens = 0;  // N: rows of the softmax layer
  long real_source_tokens = 0;  // real source positions (</s> included): what attention sums over
};

struct FlopCount {
  double encoder = 0, attention = 0, attention_vectors = 0, decoder_recurrence = 0, deep_output = 0,
         softmax_layer = 0;
  double total() const { return matrix_products() + attention_vectors; }
  // What goes through math::gemm: everything but the attention's vector products.
  double matrix_products() const { return encoder + attention + decoder_recurrence + deep_output + softmax_layer; }
};

FlopCount training_flops(const ModelOptions& config, const BatchShape& shape);

}  // namespace rnnsearch::model
