#pragma once
// Synchronous data parallelism inside one process: one model replica per thread. Each
// update splits its batch into per-thread parts of about equal target tokens; every
// replica computes the gradient of its part, and the master's gradient becomes their sum,
// added in thread order, so the same thread count always gives the same bits. After the
// optimizer step, broadcast() copies the master's parameters to the replicas.
// Every matrix product runs on one BLAS thread: the parallelism is here, in one pool,
// not in a spinning BLAS pool beside it.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "data/batch.h"
#include "model/rnnsearch.h"
#include "nn/cross_entropy.h"

namespace rnnsearch::train {

class DataParallel {
 public:
  DataParallel(model::RnnSearch& master, int threads);

  int threads() const { return static_cast<int>(replicas_.size()); }
  model::RnnSearch& replica(int k) { return *replicas_[static_cast<std::size_t>(k)]; }

  // The master's gradients := d(sum of token losses)/dθ * scale over the batch of
  // corpus sentences `indices`; returns the loss sum and token count. Dropout masks
  // come from a generator seeded by (seed, update, thread).
  nn::CrossEntropySum gradients(const data::ParallelCorpus& corpus, const std::vector<std::size_t>& indices,
                                const model::LossOptions& options, std::uint64_t seed, long update);
  // Copies the master's parameters into every other replica.
  void broadcast();
  // Runs work(replica, k) for k = 0..threads-1, each on its own thread (k = 0 on the caller's).
  void run(const std::function<void(model::RnnSearch&, int)>& work);

 private:
  std::vector<model::RnnSearch*> replicas_;  // [0] is the master
  std::vector<std::unique_ptr<model::RnnSearch>> owned_;
};

}  // namespace rnnsearch::train
