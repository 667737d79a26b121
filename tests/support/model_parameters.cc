#include "support/model_parameters.h"

#include <cstring>

namespace rnnsearch::testing {

std::string parameter_difference(const std::string& a, const std::string& b, model::FileKind kind_b) {
  const auto first = model::read_model_file(a), second = model::read_model_file(b, kind_b);
  const auto pa = first.model->parameters().all(), pb = second.model->parameters().all();
  if (pa.size() != pb.size()) return "parameter counts differ";
  for (std::size_t i = 0; i < pa.size(); ++i) {
    if (pa[i]->value.size() != pb[i]->value.size() ||
        std::memcmp(pa[i]->value.data(), pb[i]->value.data(), pa[i]->value.size() * sizeof(float)) != 0) {
      return "parameter " + std::to_string(i) + " differs";
    }
  }
  return "";
}

}  // namespace rnnsearch::testing
