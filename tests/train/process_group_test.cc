// A process group of one (every build, and nmt-train without mpirun): collectives return
// their input, together() lets the step's own exception through, the launcher's
// environment is read for the process count. Groups of several: tests/mpi.
#include <boost/test/unit_test.hpp>

#include <cstdlib>

#include "train/process_group.h"
#include "util/error.h"

using rnnsearch::train::GroupFailure;
using rnnsearch::train::ProcessGroup;

BOOST_AUTO_TEST_SUITE(process_group)

BOOST_AUTO_TEST_CASE(alone_every_collective_returns_its_input) {
  const ProcessGroup alone;
  BOOST_TEST(alone.rank() == 0);
  BOOST_TEST(alone.size() == 1);
  BOOST_TEST(alone.is_root());
  float floats[3] = {1.5f, -2.0f, 0.25f};
  alone.sum(floats, 3);
  alone.broadcast(floats, 3);
  BOOST_TEST(floats[0] == 1.5f);
  BOOST_TEST(floats[1] == -2.0f);
  BOOST_TEST(floats[2] == 0.25f);
  double doubles[1] = {3.0};
  alone.sum(doubles, 1);
  BOOST_TEST(doubles[0] == 3.0);
  std::string bytes = "abc";
  alone.broadcast(bytes);
  BOOST_TEST(bytes == "abc");
  BOOST_TEST(alone.all_gather("x") == std::vector<std::string>{"x"}, boost::test_tools::per_element());
  alone.abort(1);  // alone: nothing to end
  BOOST_TEST(alone.describe().find("rank 0 of 1 (pid ") == 0u, alone.describe());
}

BOOST_AUTO_TEST_CASE(alone_together_lets_the_steps_own_exception_through) {
  const ProcessGroup alone;
  int runs = 0;
  alone.together([&] { ++runs; });
  BOOST_TEST(runs == 1);
  BOOST_CHECK_THROW(alone.together([] { throw rnnsearch::util::UsageError("--x must be positive"); }),
                    rnnsearch::util::UsageError);
  try {
    alone.together([] { throw rnnsearch::util::Error("a.txt", 3, "bad"); });
    BOOST_ERROR("no exception");
  } catch (const GroupFailure&) {
    BOOST_ERROR("converted to GroupFailure");
  } catch (const rnnsearch::util::Error& e) {
    BOOST_TEST(std::string(e.what()) == "a.txt:3: bad");
  }
}

BOOST_AUTO_TEST_CASE(the_launcher_environment_gives_the_process_count) {
  const char* saved = std::getenv("OMPI_COMM_WORLD_SIZE");
  const std::string kept = saved ? saved : "";
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
  ::unsetenv("PMI_SIZE");
  BOOST_TEST(ProcessGroup::launched_size() == 1);
  BOOST_TEST(ProcessGroup::join_launched()->size() == 1);  // no launcher: alone, MPI untouched
  ::setenv("PMI_SIZE", "4", 1);
  BOOST_TEST(ProcessGroup::launched_size() == 4);
  ::setenv("OMPI_COMM_WORLD_SIZE", "1", 1);  // mpirun -np 1: alone
  BOOST_TEST(ProcessGroup::launched_size() == 1);
  BOOST_TEST(ProcessGroup::join_launched()->size() == 1);
  ::unsetenv("PMI_SIZE");
  if (saved) ::setenv("OMPI_COMM_WORLD_SIZE", kept.c_str(), 1); else ::unsetenv("OMPI_COMM_WORLD_SIZE");
}

BOOST_AUTO_TEST_SUITE_END()
