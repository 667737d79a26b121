#pragma once
// Number formatting that matches Python's, for tools whose output must be byte-identical
// to a Python reference (sacreBLEU's JSON, subword-nmt). Python's f"{value:.{N}f}" is
// util::fixed (util/number_format.h).
#include <string>

namespace rnnsearch::util {

// Python's repr(float): the shortest string that reads back to the same double,
// fixed notation for exponents in [-4, 16), scientific ("1e-05", "1.5e+16") otherwise,
// always with a ".0" when integral in fixed notation; "nan", "inf", "-inf".
std::string python_float_repr(double value);

}  // namespace rnnsearch::util
