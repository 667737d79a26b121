#pragma once
// Two model files' parameters compared bit for bit, for the tests of exact resume and of
// what a model file holds.
#include <string>

#include "model/model_file.h"

namespace rnnsearch::testing {

// "" when the parameters of `a` (a model file) and of `b` (of `kind_b`: a checkpoint's
// model part too) are equal bit for bit; else what differs first ("parameter 3 differs").
std::string parameter_difference(const std::string& a, const std::string& b,
                                 model::FileKind kind_b = model::FileKind::kModel);

}  // namespace rnnsearch::testing
