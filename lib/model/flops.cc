#include "model/flops.h"

namespace rnnsearch::model {

FlopCount training_flops(const ModelOptions& c, const BatchShape& s) {
  const double B = s.sentences, S = s.source_length, T = s.target_length, N = static_cast<double>(s.real_target_tokens);
  const double e = c.embedding, n = c.encoder_hidden, D = 2.0 * n, m = c.decoder_hidden, A = c.attention;
  const double l = c.maxout, V = c.target_vocabulary, G = 3.0 * m;
  const double SB = S * B, TB = T * B;
  FlopCount f;
  // Encoder, two directions: input projection (forward, dW, dx) and 3 + 6 recurrent products
  // per step and transition.
  f.encoder = 2 * (3 * 2 * SB * e * 3 * n + S * (6 + 12) * B * n * n * c.encoder_depth);
  // s_0 (forward, dW, dM), then by attention form. Per step and real source position, the
  // vector products: the context (forward, d_alpha, dH) and the score.
  const double positions = static_cast<double>(s.real_source_tokens);
  f.attention = 3 * 2 * B * D * m;
  switch (c.attention_form) {
    case nn::AttentionForm::kAdditive:
      // Keys (forward, dU, dH), per step the query (forward, ds, and dW over all rows at
      // once); the score against v (forward, dv).
      f.attention += 3 * 2 * SB * D * A + T * 3 * 2 * B * m * A;
      f.attention_vectors = T * positions * (2 * 2 * A + 3 * 2 * D);
      break;
    case nn::AttentionForm::kGeneral:
      // Keys H W_a^T (forward, dW, dH); the score q . K (forward, d_q, dK), m wide.
      f.attention += 3 * 2 * SB * D * m;
      f.attention_vectors = T * positions * (3 * 2 * m + 3 * 2 * D);
      break;
    case nn::AttentionForm::kDot: {
      // Folded keys and query (additions, left out); the score, min(m, 2n) wide.
      const double k = m < D ? m : D;
      f.attention_vectors = T * positions * (3 * 2 * k + 3 * 2 * D);
      break;
    }
    case nn::AttentionForm::kNone:
      break;  // the fixed context is copied, not multiplied
  }
  // Decoder GRU: embedding half of the input projection over all rows (forward, dW, dY),
  // context half per step (forward, dC) plus its dW over all rows, recurrent products.
  // The conditional decoder runs every cell at all T steps, GRU_1 and GRU_2 each with their
  // recurrent products, the transition cells with theirs.
  if (c.decoder_depth > 1) {
    f.decoder_recurrence = 3 * 2 * TB * e * G + T * (2 * 2 * B * D * G + 18 * B * m * m * c.decoder_depth) +
                           2 * TB * D * G;
  } else {
    f.decoder_recurrence = 3 * 2 * TB * e * G + (T - 1) * (2 * 2 * B * D * G + 18 * B * m * m) + 2 * TB * D * G;
  }
  // Deep output over all rows: three inputs, forward, dW and dX each.
  f.deep_output = 3 * 2 * TB * (m + e + D) * 2 * l;
  // Softmax layer over the real rows: forward, dW, dX.
  f.softmax_layer = 3 * 2 * N * l * V;
  return f;
}

}  // namespace rnnsearch::model
