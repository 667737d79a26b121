#pragma once
// Copies of a model for threads that each run their own forward passes (a model keeps
// its working buffers, so one cannot serve two threads at once).
#include <memory>
#include <vector>

#include "model/rnnsearch.h"

namespace rnnsearch::model {

class Replicas {
 public:
  // `model` itself and count - 1 copies of its parameters; `model` must outlive this.
  Replicas(RnnSearch& model, int count);
  RnnSearch& operator[](std::size_t k) { return *members_[k]; }
  std::size_t size() const { return members_.size(); }

 private:
  std::vector<std::unique_ptr<RnnSearch>> owned_;
  std::vector<RnnSearch*> members_;
};

}  // namespace rnnsearch::model
