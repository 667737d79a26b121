#include "nn/deep_output.h"

#include "math/gemm.h"
#include "math/shape_check.h"
#include "math/step_ops.h"
#include "math/vector_ops.h"
#include "util/error.h"

namespace rnnsearch::nn {

using math::check_shape;
using math::shape_text;

namespace {

int checked_dim(int dim, const std::string& name, const char* what) {
  if (dim < 1) throw util::Error(name + ": " + what + " must be at least 1, got " + std::to_string(dim));
  return dim;
}

}  // namespace

DeepOutput::DeepOutput(ParameterRegistry& parameters, const std::string& name, int state_dim, int embedding_dim,
                       int context_dim, int output_dim)
    : state_(parameters.add(name + ".U", checked_dim(state_dim, name, "state_dim"),
                            2 * checked_dim(output_dim, name, "output_dim"))),
      embedding_(parameters.add(name + ".V", checked_dim(embedding_dim, name, "embedding_dim"), 2 * output_dim)),
      context_(parameters.add(name + ".C", checked_dim(context_dim, name, "context_dim"), 2 * output_dim)),
      bias_(parameters.add(name + ".b", 1, 2 * output_dim)) {}

void DeepOutput::set_inference_precision(math::Precision precision) {
  packed_state_ = math::pack_for_inference(state_.value, precision);
  packed_embedding_ = math::pack_for_inference(embedding_.value, precision);
  packed_context_ = math::pack_for_inference(context_.value, precision);
}

void DeepOutput::forward(const math::Matrix& s, const math::Matrix& y_emb, const math::Matrix& c, Cache& cache,
                         math::Matrix& t) const {
  const Eigen::Index n = s.rows();
  check_shape(s, n, state_dim(), state_.name + " input s");
  check_shape(y_emb, n, embedding_dim(), embedding_.name + " input y_emb");
  check_shape(c, n, context_dim(), context_.name + " input c");
  // pre: [N x 2l] = s U + y_emb V + c C + b
  cache.pre.resize(n, bias_.value.cols());
  const auto no = math::Transpose::kNo;
  math::gemm(s, packed_state_.get(), state_.value, no, cache.pre, 1.0f, 0.0f, state_.name.c_str());
  math::gemm(y_emb, packed_embedding_.get(), embedding_.value, no, cache.pre, 1.0f, 1.0f, embedding_.name.c_str());
  finish(s, c, cache, t);
}

void DeepOutput::forward_with_embedding_product(const math::Matrix& s, const math::Matrix& embedding_product,
                                                const math::Matrix& c, Cache& cache, math::Matrix& t) const {
  const Eigen::Index n = s.rows();
  check_shape(s, n, state_dim(), state_.name + " input s");
  check_shape(embedding_product, n, bias_.value.cols(), embedding_.name + " product");
  check_shape(c, n, context_dim(), context_.name + " input c");
  cache.pre.resize(n, bias_.value.cols());
  math::gemm(s, packed_state_.get(), state_.value, math::Transpose::kNo, cache.pre, 1.0f, 0.0f, state_.name.c_str());
  cache.pre += embedding_product;
  finish(s, c, cache, t);
}

void DeepOutput::finish(const math::Matrix& s, const math::Matrix& c, Cache& cache, math::Matrix& t) const {
  const Eigen::Index n = s.rows();
  const int l = output_dim();
  math::gemm(c, packed_context_.get(), context_.value, math::Transpose::kNo, cache.pre, 1.0f, 1.0f,
             context_.name.c_str());
  math::add_row_to_rows(cache.pre, bias_.value);

  // t: [N x l], maxout over adjacent pairs; a tie keeps the first column.
  cache.winner.resize(n, l);
  t.resize(n, l);
  for (Eigen::Index r = 0; r < n; ++r) math::maxout(cache.pre.row(r).data(), l, cache.winner.row(r).data(), t.row(r).data());
}

void DeepOutput::backward(const math::Matrix& s, const math::Matrix& y_emb, const math::Matrix& c,
                          const Cache& cache, const math::Matrix& d_t, math::Matrix* d_s, math::Matrix* d_y_emb,
                          math::Matrix* d_c) const {
  const Eigen::Index n = s.rows();
  const int l = output_dim();
  check_shape(s, n, state_dim(), state_.name + " input s");
  check_shape(y_emb, n, embedding_dim(), embedding_.name + " input y_emb");
  check_shape(c, n, context_dim(), context_.name + " input c");
  check_shape(cache.winner, n, l, bias_.name + " cache winner");
  check_shape(d_t, n, l, bias_.name + " gradient d_t");
  // All shapes are checked before anything accumulates.
  if (d_s) check_shape(*d_s, n, state_dim(), state_.name + " gradient d_s");
  if (d_y_emb) check_shape(*d_y_emb, n, embedding_dim(), embedding_.name + " gradient d_y_emb");
  if (d_c) check_shape(*d_c, n, context_dim(), context_.name + " gradient d_c");

  // d_pre: [N x 2l], d_t scattered to the winning column of each pair.
  math::Matrix d_pre = math::Matrix::Zero(n, 2 * l);
  for (Eigen::Index r = 0; r < n; ++r) {
    const std::int32_t* winner = cache.winner.row(r).data();
    const float* dt = d_t.row(r).data();
    float* dp = d_pre.row(r).data();
    for (int k = 0; k < l; ++k) dp[winner[k]] = dt[k];
  }

  math::gemm(s, math::Transpose::kYes, d_pre, math::Transpose::kNo, state_.gradient, 1.0f, 1.0f,
             state_.name.c_str());
  math::gemm(y_emb, math::Transpose::kYes, d_pre, math::Transpose::kNo, embedding_.gradient, 1.0f, 1.0f,
             embedding_.name.c_str());
  math::gemm(c, math::Transpose::kYes, d_pre, math::Transpose::kNo, context_.gradient, 1.0f, 1.0f,
             context_.name.c_str());
  bias_.gradient.row(0) += d_pre.colwise().sum();

  if (d_s) {
    math::gemm(d_pre, math::Transpose::kNo, state_.value, math::Transpose::kYes, *d_s, 1.0f, 1.0f,
               state_.name.c_str());
  }
  if (d_y_emb) {
    math::gemm(d_pre, math::Transpose::kNo, embedding_.value, math::Transpose::kYes, *d_y_emb, 1.0f, 1.0f,
               embedding_.name.c_str());
  }
  if (d_c) {
    math::gemm(d_pre, math::Transpose::kNo, context_.value, math::Transpose::kYes, *d_c, 1.0f, 1.0f,
               context_.name.c_str());
  }
}

}  // namespace rnnsearch::nn
