#pragma once
// Synchronous data parallelism inside one process: one model replica per thread. Each
// update splits its batch into per-thread parts of about equal estimated cost
// (train/work_split.h); every replica computes the gradient of its part. The rest of the update is split by
// parameters: each thread owns a contiguous shard of the registry, sums that shard's
// gradients into the master (in replica order, so the same thread count always gives
// the same bits), and after the norm is known clips, steps the optimizer, moves the
// smoothed copy (--exponential-smoothing) and copies the new values to the other
// replicas, all for its shard only, each in one pass over its parameters
// (nn::add_gradients_and_square, nn::fused_update).
// Every matrix product runs on one BLAS thread: the parallelism is here, in one pool,
// not in a spinning BLAS pool beside it. The transposed weight copies the backward passes
// multiply by (model::TransposedWeights) are made once per update, shared by the replicas.
// Across processes (train/process_group.h): the global batch is cut into processes x
// threads parts, part rank * threads + k for thread k of process `rank`, with the dropout
// stream of that part; after the threads' sum, one all-reduce per parameter sums the
// processes' gradients. So N processes of T threads compute what one process of N * T
// threads computes, on the same parts with the same dropout masks; only the order of the
// float sums differs (none at all for 2 processes of 1 thread against 1 process of 2).
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "data/batch.h"
#include "model/rnnsearch.h"
#include "nn/cross_entropy.h"
#include "nn/optimizer.h"
#include "train/process_group.h"

namespace rnnsearch::train {

class DataParallel {
 public:
  DataParallel(model::RnnSearch& master, int threads);  // in this process alone
  // `group` must outlive this object.
  DataParallel(model::RnnSearch& master, int threads, const ProcessGroup& group);

  int threads() const { return static_cast<int>(replicas_.size()); }
  const ProcessGroup& group() const { return *group_; }
  // Workers over all processes (processes x threads), and the global index of thread k.
  int workers() const { return threads() * group_->size(); }
  int worker(int k) const { return group_->rank() * threads() + k; }
  model::RnnSearch& replica(int k) { return *replicas_[static_cast<std::size_t>(k)]; }

  struct Gradients {
    nn::CrossEntropySum loss;  // loss sum and token count of the batch, over all processes
    double norm = 0.0;         // L2 norm of the summed gradient (NaN or inf when it is)
    double sum_seconds = 0.0;  // spent in the all-reduce across processes (sending, and waiting for the slowest)
  };
  // The master's gradients := d(mean token loss)/dθ over the batch of corpus sentences
  // `indices` (the global batch: every process passes the same). Dropout masks come from
  // a generator seeded by (seed, update, worker). The norm is summed per parameter in
  // registry order, so it does not depend on how parameters are sharded over threads.
  Gradients gradients(const data::ParallelCorpus& corpus, const std::vector<std::size_t>& indices,
                      const model::LossOptions& options, std::uint64_t seed, long update);
  // Scales the master's gradients to norm `clip_norm` when `norm` exceeds it (clip_norm
  // > 0), takes one optimizer step, moves the smoothed copy toward the new values (when
  // `smoothing` is given, after its begin_step) and gives every replica the new values.
  void apply_update(nn::Optimizer& optimizer, float learning_rate, double norm, double clip_norm,
                    nn::ExponentialSmoothing* smoothing = nullptr);
  // Gives every replica the master's values (after they were changed outside apply_update:
  // exchanged with the smoothed copy to validate with it, and back).
  void copy_master_to_replicas();
  // Runs work(replica, k) for k = 0..threads-1, each on its own thread (k = 0 on the caller's).
  void run(const std::function<void(model::RnnSearch&, int)>& work);

 private:
  const ProcessGroup* group_;
  std::vector<model::RnnSearch*> replicas_;  // [0] is the master
  std::vector<std::pair<std::size_t, std::size_t>> shards_;  // per thread: [first, last) parameters
  std::vector<std::unique_ptr<model::RnnSearch>> owned_;
  // True when every replica's gradients are zero (apply_update leaves them so), which
  // spares the next update a pass over them.
  bool gradients_are_zero_ = false;
  // The weights the backward passes multiply transposed, made once per update for all
  // replicas (their values are the master's), half by each thread.
  model::TransposedWeights transposed_;
};

}  // namespace rnnsearch::train
