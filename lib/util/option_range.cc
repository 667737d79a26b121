#include "util/option_range.h"

#include "util/error.h"

namespace rnnsearch::util {

void throw_out_of_range(const std::string& option, const std::string& low, const std::string& high,
                        const std::string& value) {
  throw UsageError("--" + option + " must be in [" + low + ", " + high + "], got " + value);
}

}  // namespace rnnsearch::util
