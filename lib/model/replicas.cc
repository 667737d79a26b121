#include "model/replicas.h"

namespace rnnsearch::model {

Replicas::Replicas(RnnSearch& model, int count) {
  members_.push_back(&model);
  for (int k = 1; k < count; ++k) {
    owned_.push_back(std::make_unique<RnnSearch>(model.config()));
    owned_.back()->copy_parameters_from(model);
    members_.push_back(owned_.back().get());
  }
}

}  // namespace rnnsearch::model
