#include "train/process_group.h"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>

#ifdef RNNSEARCH_MPI
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#endif

namespace rnnsearch::train {

namespace {

// The process count a launcher announces: Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE,
// MPICH's Hydra and Slurm's PMI set PMI_SIZE.
const char* launcher_variable() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    if (std::getenv(name) != nullptr) return name;
  }
  return nullptr;
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) return "?";
  return name;
}

}  // namespace

#ifdef RNNSEARCH_MPI
struct ProcessGroup::Mpi {
  std::unique_ptr<boost::mpi::environment> environment;  // when this group initialized MPI
  boost::mpi::communicator world;                        // declared after: destroyed before finalizing
};
#else
struct ProcessGroup::Mpi {};
#endif

ProcessGroup::ProcessGroup() = default;
ProcessGroup::~ProcessGroup() = default;

bool ProcessGroup::mpi_available() {
#ifdef RNNSEARCH_MPI
  return true;
#else
  return false;
#endif
}

int ProcessGroup::launched_size() {
  const char* name = launcher_variable();
  if (name == nullptr) return 1;
  const long size = std::strtol(std::getenv(name), nullptr, 10);
  return static_cast<int>(std::clamp(size, 1L, static_cast<long>(INT_MAX)));
}

std::unique_ptr<ProcessGroup> ProcessGroup::join_launched() {
  auto group = std::make_unique<ProcessGroup>();
  const int launched = launched_size();
  if (launched <= 1) return group;
#ifdef RNNSEARCH_MPI
  group->mpi_ = std::make_unique<Mpi>();
  if (!boost::mpi::environment::initialized()) {
    // Only the main thread calls MPI; worker threads never do.
    group->mpi_->environment = std::make_unique<boost::mpi::environment>(boost::mpi::threading::funneled, false);
  }
  group->mpi_->world = boost::mpi::communicator();
  group->rank_ = group->mpi_->world.rank();
  group->size_ = group->mpi_->world.size();
  return group;
#else
  throw util::UsageError(std::string("the launcher started ") + std::to_string(launched) + " processes (" +
                         launcher_variable() + "), but this build has no MPI: it trains in one process. Run it "
                         "without mpirun (--threads N uses N cores), or rebuild with libboost-mpi-dev and "
                         "openmpi-bin installed");
#endif
}

std::string ProcessGroup::describe() const {
  return "rank " + std::to_string(rank_) + " of " + std::to_string(size_) + " (pid " + std::to_string(::getpid()) +
         " on " + host_name() + ")";
}

#ifdef RNNSEARCH_MPI

namespace {

// MPI counts are ints: long arrays go in pieces.
template <class T, class Call>
void in_pieces(T* values, std::size_t count, Call call) {
  constexpr std::size_t kPiece = std::size_t{1} << 30;
  for (std::size_t done = 0; done < count; done += kPiece) {
    call(values + done, static_cast<int>(std::min(kPiece, count - done)));
  }
}

// MPI_Allreduce in place, called directly: boost::mpi::all_reduce(inplace(...)) binds a
// reference to MPI_IN_PLACE's address to find the datatype (undefined behaviour that
// UBSan reports: "reference binding to misaligned address 0x000000000001").
void sum_in_place(const boost::mpi::communicator& world, void* values, int count, MPI_Datatype type) {
  const int status = MPI_Allreduce(MPI_IN_PLACE, values, count, type, MPI_SUM, MPI_Comm(world));
  if (status != MPI_SUCCESS) throw boost::mpi::exception("MPI_Allreduce", status);
}

}  // namespace

void ProcessGroup::sum(float* values, std::size_t count) const {
  if (!mpi_ || count == 0) return;
  in_pieces(values, count, [&](float* piece, int n) {
    sum_in_place(mpi_->world, piece, n, MPI_FLOAT);
  });
}

void ProcessGroup::sum(double* values, std::size_t count) const {
  if (!mpi_ || count == 0) return;
  in_pieces(values, count, [&](double* piece, int n) {
    sum_in_place(mpi_->world, piece, n, MPI_DOUBLE);
  });
}

void ProcessGroup::broadcast(float* values, std::size_t count) const {
  if (!mpi_ || count == 0) return;
  in_pieces(values, count, [&](float* piece, int n) { boost::mpi::broadcast(mpi_->world, piece, n, 0); });
}

void ProcessGroup::broadcast(std::string& bytes) const {
  if (!mpi_) return;
  std::uint64_t length = bytes.size();
  boost::mpi::broadcast(mpi_->world, length, 0);
  bytes.resize(length);
  in_pieces(bytes.data(), bytes.size(), [&](char* piece, int n) { boost::mpi::broadcast(mpi_->world, piece, n, 0); });
}

std::vector<std::string> ProcessGroup::all_gather(const std::string& bytes) const {
  if (!mpi_) return {bytes};
  std::vector<std::string> all;
  boost::mpi::all_gather(mpi_->world, bytes, all);
  return all;
}

void ProcessGroup::abort(int exit_code) const {
  if (mpi_) mpi_->world.abort(exit_code);
}

#else

void ProcessGroup::sum(float*, std::size_t) const {}
void ProcessGroup::sum(double*, std::size_t) const {}
void ProcessGroup::broadcast(float*, std::size_t) const {}
void ProcessGroup::broadcast(std::string&) const {}
std::vector<std::string> ProcessGroup::all_gather(const std::string& bytes) const { return {bytes}; }
void ProcessGroup::abort(int) const {}

#endif

void ProcessGroup::agree(const std::string& failure) const {
  const std::vector<std::string> failures = all_gather(failure);
  for (std::size_t k = 0; k < failures.size(); ++k) {
    if (failures[k].empty()) continue;
    throw GroupFailure(k == 0 ? failures[k] : "rank " + std::to_string(k) + ": " + failures[k]);
  }
}

}  // namespace rnnsearch::train
