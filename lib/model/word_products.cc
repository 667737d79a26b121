#include "model/word_products.h"

#include <algorithm>

#include "math/gemm.h"
#include "util/error.h"

namespace rnnsearch::model {

void WordProducts::reset(const math::Matrix& embedding, const math::Matrix& gru_input, const math::Matrix& deep) {
  if (gru_input.rows() < embedding.cols() || deep.rows() != embedding.cols()) {
    throw util::Error("WordProducts: embeddings of width " + std::to_string(embedding.cols()) +
                      " for products of depth " + std::to_string(gru_input.rows()) + " and " +
                      std::to_string(deep.rows()));
  }
  embedding_ = &embedding;
  gru_input_ = &gru_input;
  deep_ = &deep;
  table_.resize(0, 0);  // new memory: rows are written before they are read
  table_.resize(embedding.rows(), gru_input.cols() + deep.cols());
  ready_.assign(static_cast<std::size_t>(embedding.rows()), 0);
}

void WordProducts::compute_missing(const std::vector<std::int32_t>& words) {
  missing_.clear();
  for (const std::int32_t word : words) {
    if (word < 0 || word >= embedding_->rows()) {
      throw util::Error("WordProducts: word " + std::to_string(word) + " outside a vocabulary of " +
                        std::to_string(embedding_->rows()));
    }
    if (!ready_[static_cast<std::size_t>(word)]) missing_.push_back(word);
  }
  if (missing_.empty()) return;
  std::sort(missing_.begin(), missing_.end());
  missing_.erase(std::unique(missing_.begin(), missing_.end()), missing_.end());
  const auto n = static_cast<Eigen::Index>(missing_.size());
  missing_embedded_.resize(n, embedding_->cols());
  for (Eigen::Index i = 0; i < n; ++i) missing_embedded_.row(i) = embedding_->row(missing_[static_cast<std::size_t>(i)]);
  const math::RowStableProducts row_stable;  // a word's row does not depend on the words beside it
  missing_rows_.resize(n, table_.cols());
  const auto no = math::Transpose::kNo;
  const Eigen::Index G = gru_input_->cols(), D = deep_->cols();
  math::gemm(missing_embedded_, no, gru_input_->topRows(embedding_->cols()), no, missing_rows_.leftCols(G), 1.0f, 0.0f,
             "word products (GRU)");
  math::gemm(missing_embedded_, no, *deep_, no, missing_rows_.rightCols(D), 1.0f, 0.0f, "word products (deep output)");
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto word = missing_[static_cast<std::size_t>(i)];
    table_.row(word) = missing_rows_.row(i);
    ready_[static_cast<std::size_t>(word)] = 1;
  }
}

void WordProducts::lookup(const std::vector<std::int32_t>& words, math::Matrix& gru_part, math::Matrix& deep_part) {
  compute_missing(words);
  const auto B = static_cast<Eigen::Index>(words.size());
  const Eigen::Index G = gru_input_->cols(), D = deep_->cols();
  gru_part.resize(B, G);
  deep_part.resize(B, D);
  for (Eigen::Index b = 0; b < B; ++b) {
    const auto row = table_.row(words[static_cast<std::size_t>(b)]);
    gru_part.row(b) = row.head(G);
    deep_part.row(b) = row.tail(D);
  }
}

}  // namespace rnnsearch::model
