#include "align/digamma.h"

#include <cmath>

namespace rnnsearch::align {

double digamma(double x) {
  double result = 0.0;
  for (; x < 7.0; ++x) result -= 1.0 / x;
  x -= 0.5;
  const double xx = 1.0 / x, xx2 = xx * xx, xx4 = xx2 * xx2;
  return result + std::log(x) + xx2 / 24.0 - 7.0 / 960.0 * xx4 + 31.0 / 8064.0 * xx4 * xx2 -
         127.0 / 30720.0 * xx4 * xx4;
}

}  // namespace rnnsearch::align
