#pragma once
// The processes one training runs on: this process alone, or the N processes that
// `mpirun -np N nmt-train ...` started (Open MPI through Boost.MPI, in builds that found
// them; CMake option RNNSEARCH_MPI). Every process holds the whole model and reads the
// whole corpus; each update splits the global batch across them and sums their gradients
// with an all-reduce, so all hold the same parameters (train/data_parallel.h). Rank 0
// alone writes files and logs. Every decision (stop, validate, decay, early stopping)
// is taken on values all processes hold equally, so they stay in step.
// Alone, every collective returns its input and costs nothing: the trainer has one path.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "util/error.h"

namespace rnnsearch::train {

// A failure every process of the group met at the same point (bad input one of them
// found during set-up, a non-finite loss, parameters that drifted apart): each process
// throws it with the same message, so they all end normally. Rank 0 reports it; the
// others exit without a message. In a group of one it is an ordinary util::Error.
class GroupFailure : public util::Error {
 public:
  using util::Error::Error;
};

class ProcessGroup {
 public:
  // This process alone.
  ProcessGroup();
  // This process and the others its launcher started, when the environment says there
  // are several (OMPI_COMM_WORLD_SIZE or PMI_SIZE above 1): initializes MPI
  // and joins MPI_COMM_WORLD. Otherwise this process alone, without touching MPI. Throws
  // util::UsageError when there are several and this build has no MPI.
  static std::unique_ptr<ProcessGroup> join_launched();
  ~ProcessGroup();  // finalizes MPI when this group initialized it
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  // Whether this build can train across processes.
  static bool mpi_available();
  // The number of processes the launcher's environment announces (1 when none does).
  static int launched_size();

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }
  // "rank 1 of 2 (pid 4242 on node3)", for logs.
  std::string describe() const;

  // Element-wise sums over the processes, in place; every process gets the same bits
  // (the MPI standard defines an all-reduce as a reduce followed by a broadcast).
  void sum(float* values, std::size_t count) const;
  void sum(double* values, std::size_t count) const;
  // Rank 0's values (or bytes) on every process.
  void broadcast(float* values, std::size_t count) const;
  void broadcast(std::string& bytes) const;
  // Every process's bytes, in rank order, on every process.
  std::vector<std::string> all_gather(const std::string& bytes) const;

  // Runs `step` on every process and then agrees: when it threw on any of them, every
  // process throws a GroupFailure naming the first failing rank's error (rank 0's own,
  // else "rank k: ..."). A group of one runs `step` and lets its exceptions through.
  template <class Step>
  void together(Step&& step) const;

  // Ends every process of the job at once (MPI_Abort), for a failure this process met
  // alone while the others may be waiting for it in a collective. Alone: does nothing.
  void abort(int exit_code) const;

 private:
  void agree(const std::string& failure) const;  // throws GroupFailure when any failure is non-empty

  struct Mpi;
  std::unique_ptr<Mpi> mpi_;  // null when alone
  int rank_ = 0, size_ = 1;
};

template <class Step>
void ProcessGroup::together(Step&& step) const {
  if (size_ == 1) {
    step();
    return;
  }
  std::string failure;
  try {
    step();
  } catch (const std::exception& e) {
    failure = e.what();
    if (failure.empty()) failure = "failed";
  }
  agree(failure);
}

}  // namespace rnnsearch::train
