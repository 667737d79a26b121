#include "util/option_range.h"

#include <cstdio>

#include "util/error.h"

namespace rnnsearch::util {

void throw_out_of_range(const std::string& option, const std::string& low, const std::string& high,
                        const std::string& value) {
  throw UsageError("--" + option + " must be in [" + low + ", " + high + "], got " + value);
}

std::string shortest_number(double value) {
  char text[32];  // "%g" of a double: at most 13 characters
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

}  // namespace rnnsearch::util
