// math::transpose: the same floats as Eigen's transpose for shapes around the tile size,
// for a block of rows of a larger matrix (its row stride), and for an empty matrix.
#include <boost/test/unit_test.hpp>

#include "math/transpose.h"

using namespace rnnsearch;

namespace {

math::Matrix counting(Eigen::Index rows, Eigen::Index cols) {
  math::Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(i) + 0.5f;
  return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(transpose)

BOOST_AUTO_TEST_CASE(equals_eigens_transpose_around_the_tile_size) {
  for (const Eigen::Index rows : {1, 15, 16, 17, 33}) {
    for (const Eigen::Index cols : {1, 16, 31, 48}) {
      const math::Matrix in = counting(rows, cols);
      math::Matrix out(3, 3);  // resized
      math::transpose(in, out);
      const math::Matrix expected = in.transpose();
      BOOST_TEST((out == expected), rows << " x " << cols);
    }
  }
}

BOOST_AUTO_TEST_CASE(reads_a_block_of_rows_through_its_stride) {
  const math::Matrix whole = counting(40, 21);
  const auto rows = whole.middleRows(7, 18).leftCols(19);  // row stride 21
  math::Matrix out;
  math::transpose(rows, out);
  const math::Matrix expected = rows.transpose();
  BOOST_TEST((out == expected));
  math::transpose(math::Matrix(0, 5), out);
  BOOST_TEST((out.rows() == 5 && out.cols() == 0));
}

BOOST_AUTO_TEST_SUITE_END()
