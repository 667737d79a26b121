// model::WordProducts: each word's row is its embedding times the GRU's head rows and V,
// the same bits whichever words are looked up with it or before it; a word outside the
// vocabulary is an error.
#include <boost/test/unit_test.hpp>
#include <cstring>
#include <random>

#include "math/gemm.h"
#include "model/word_products.h"
#include "support/random_matrix.h"
#include "util/error.h"

using namespace rnnsearch;

namespace {

bool same_bits(const math::Matrix& x, const math::Matrix& y) {
  return x.rows() == y.rows() && x.cols() == y.cols() &&
         std::memcmp(x.data(), y.data(), static_cast<std::size_t>(x.size()) * sizeof(float)) == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(word_products)

BOOST_AUTO_TEST_CASE(rows_are_the_products_whatever_words_come_with_them) {
  std::mt19937 rng(3);
  const int V = 40, e = 12, in = e + 9, G = 15, D = 10;
  const math::Matrix embedding = testing::normal_matrix(V, e, rng), gru_input = testing::normal_matrix(in, G, rng),
                     deep = testing::normal_matrix(e, D, rng);
  const std::vector<std::int32_t> words = {7, 3, 7, 39, 0};
  math::Matrix expected_gru(static_cast<int>(words.size()), G), expected_deep(static_cast<int>(words.size()), D);
  for (std::size_t b = 0; b < words.size(); ++b) {  // one word at a time: no other rows beside it
    const math::RowStableProducts row_stable;
    const math::Matrix x = embedding.row(words[b]);
    math::Matrix g(1, G), d(1, D);
    math::gemm(x, math::Transpose::kNo, gru_input.topRows(e), math::Transpose::kNo, g);
    math::gemm(x, math::Transpose::kNo, deep, math::Transpose::kNo, d);
    expected_gru.row(static_cast<int>(b)) = g;
    expected_deep.row(static_cast<int>(b)) = d;
  }
  model::WordProducts products;
  products.reset(embedding, gru_input, deep);
  math::Matrix gru_part, deep_part;
  products.lookup({39, 1, 2, 5, 6, 8}, gru_part, deep_part);  // some rows first, with other words
  products.lookup(words, gru_part, deep_part);
  BOOST_TEST(same_bits(gru_part, expected_gru));
  BOOST_TEST(same_bits(deep_part, expected_deep));
  products.reset(embedding, gru_input, deep);  // a fresh table: the same rows
  products.lookup(words, gru_part, deep_part);
  BOOST_TEST(same_bits(gru_part, expected_gru));
  BOOST_TEST(same_bits(deep_part, expected_deep));
  BOOST_CHECK_THROW(products.lookup({3, 40}, gru_part, deep_part), util::Error);
}

BOOST_AUTO_TEST_SUITE_END()
