#include "nn/bi_encoder.h"

#include "util/error.h"

namespace rnnsearch::nn {

namespace {

std::string bi_encoder_shape_text(Eigen::Index rows, Eigen::Index cols) {
  return "[" + std::to_string(rows) + " x " + std::to_string(cols) + "]";
}

}  // namespace

BiEncoder::BiEncoder(ParameterRegistry& parameters, const std::string& name, int vocabulary_size,
                     int embedding_dim, int hidden_dim, int depth, GruOptions options)
    : name_(name),
      embedding_(parameters, name + ".embedding", vocabulary_size, embedding_dim),
      forward_gru_(parameters, name + ".forward", embedding_dim, hidden_dim, depth, options),
      backward_gru_(parameters, name + ".backward", embedding_dim, hidden_dim, depth, options) {}

void BiEncoder::set_inference_precision(math::Precision precision) {
  forward_gru_.set_inference_precision(precision);
  backward_gru_.set_inference_precision(precision);
}

void BiEncoder::forward(const std::vector<std::int32_t>& ids, const math::Matrix& mask, Cache& cache,
                        math::Matrix& annotations, const math::Matrix* embedding_dropout, Pass pass) const {
  const Eigen::Index T = mask.rows(), B = mask.cols();
  const int n = hidden_dim();
  if (static_cast<Eigen::Index>(ids.size()) != T * B) {
    throw util::Error(name_ + ": " + std::to_string(ids.size()) + " token ids for a mask of " +
                      bi_encoder_shape_text(T, B) + ", expected " + std::to_string(T * B));
  }
  if (pass == Pass::kForwardBackward) {
    cache.ids = ids;
    cache.mask = mask;
  }
  embedding_.forward(ids, cache.embedded);  // x: [(T*B) x e]
  if (embedding_dropout) {
    cache.dropout = *embedding_dropout;
    cache.embedded.array() *= cache.dropout.array();
  } else {
    cache.dropout.resize(0, 0);
  }
  cache.h0.setZero(B, n);                   // h0: [B x n]
  // The GRUs check the mask's values (0 or 1) and the shapes.
  forward_gru_.forward(cache.embedded, mask, cache.h0, cache.forward_cache, cache.forward_states,
                       Gru::Direction::kLeftToRight, pass);
  backward_gru_.forward(cache.embedded, mask, cache.h0, cache.backward_cache, cache.backward_states,
                        Gru::Direction::kRightToLeft, pass);

  annotations.resize(T * B, 2 * n);  // h: [(T*B) x 2n]
  annotations.leftCols(n) = cache.forward_states;
  annotations.rightCols(n) = cache.backward_states;
  for (Eigen::Index t = 0; t < T; ++t) {
    for (Eigen::Index b = 0; b < B; ++b) {
      if (mask(t, b) == 0.0f) annotations.row(t * B + b).setZero();
    }
  }
}

void BiEncoder::transpose_recurrent(TransposedRecurrent& out, int direction) const {
  if (direction == 0) {
    forward_gru_.transpose_recurrent(out.forward);
  } else {
    backward_gru_.transpose_recurrent(out.backward);
  }
}

void BiEncoder::backward(const Cache& cache, const math::Matrix& d_annotations,
                         const TransposedRecurrent* transposed) const {
  const Eigen::Index T = cache.mask.rows(), B = cache.mask.cols();
  const int n = hidden_dim();
  if (d_annotations.rows() != T * B || d_annotations.cols() != 2 * n) {
    throw util::Error(name_ + ": gradient d_annotations is " +
                      bi_encoder_shape_text(d_annotations.rows(), d_annotations.cols()) + ", expected " +
                      bi_encoder_shape_text(T * B, 2 * n));
  }
  cache.d_forward = d_annotations.leftCols(n);    // [(T*B) x n]
  cache.d_backward = d_annotations.rightCols(n);  // [(T*B) x n]
  // Padded rows were set to zero in forward: their gradient does not reach the carried states.
  for (Eigen::Index t = 0; t < T; ++t) {
    for (Eigen::Index b = 0; b < B; ++b) {
      if (cache.mask(t, b) == 0.0f) {
        cache.d_forward.row(t * B + b).setZero();
        cache.d_backward.row(t * B + b).setZero();
      }
    }
  }
  cache.d_embedded.setZero(T * B, embedding_dim());  // dx: [(T*B) x e]
  forward_gru_.backward(cache.forward_cache, cache.d_forward, &cache.d_embedded, nullptr,
                        transposed ? &transposed->forward : nullptr);
  backward_gru_.backward(cache.backward_cache, cache.d_backward, &cache.d_embedded, nullptr,
                         transposed ? &transposed->backward : nullptr);
  if (cache.dropout.size() > 0) cache.d_embedded.array() *= cache.dropout.array();
  // The GRUs give padded inputs no gradient, so padding ids' embedding rows get zeros added.
  embedding_.backward(cache.ids, cache.d_embedded);
}

}  // namespace rnnsearch::nn
