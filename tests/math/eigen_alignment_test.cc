// Eigen's buffers start on a cache line's boundary in every build (math/eigen.h): the
// kernels chosen at run time load whole 64-byte rows from them, which span two lines from
// a 16-byte boundary. Small and large buffers (glibc serves these from mmap, one page plus
// 16 bytes), after a resize and after a copy.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <vector>

#include "math/types.h"

using namespace rnnsearch;

namespace {

bool on_a_cache_line(const float* data) { return reinterpret_cast<std::uintptr_t>(data) % 64 == 0; }

}  // namespace

BOOST_AUTO_TEST_SUITE(eigen_alignment)

BOOST_AUTO_TEST_CASE(matrices_and_vectors_start_on_a_cache_line) {
  std::vector<math::Matrix> kept;  // held, so that each allocation gets a new address
  for (const Eigen::Index rows : {1, 3, 17, 512, 2048}) {
    for (const Eigen::Index cols : {1, 5, 256, 1000}) {
      math::Matrix m(rows, cols);
      BOOST_TEST(on_a_cache_line(m.data()), rows << " x " << cols);
      m.resize(rows + 1, cols);
      BOOST_TEST(on_a_cache_line(m.data()), rows + 1 << " x " << cols << " after a resize");
      const math::Matrix copy = m;
      BOOST_TEST(on_a_cache_line(copy.data()), "a copy of " << rows + 1 << " x " << cols);
      kept.push_back(std::move(m));
    }
  }
  for (const Eigen::Index size : {1, 7, 4096, 1 << 20}) {
    const math::Vector v = math::Vector::Zero(size);
    BOOST_TEST(on_a_cache_line(v.data()), "vector of " << size);
  }
}

BOOST_AUTO_TEST_SUITE_END()
