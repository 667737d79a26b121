// util/instruction_sets: what the build uses, and the sets a CPU lacks named in order.
#include <boost/test/unit_test.hpp>

#include <string>

#include "util/instruction_sets.h"

namespace rnnsearch {
namespace {

bool has_none(unsigned) { return false; }
bool has_all(unsigned) { return true; }
bool lacks_avx512(unsigned set) {
  return (set & (util::kAvx512f | util::kAvx512bw | util::kAvx512dq | util::kAvx512vl | util::kAvx512vnni |
                 util::kAvx512bf16)) == 0;
}

std::string unsupported(unsigned sets, bool (*supports)(unsigned), int* count, std::size_t size = 256) {
  char out[256];
  *count = util::unsupported_instruction_sets(sets, supports, out, size);
  return out;
}

BOOST_AUTO_TEST_SUITE(instruction_sets)

BOOST_AUTO_TEST_CASE(the_missing_sets_are_named_in_order) {
  int count = 0;
  BOOST_TEST(unsupported(util::kAvx2 | util::kFma | util::kAvx512f | util::kAvx512vnni, lacks_avx512, &count) ==
             "avx512f, avx512vnni");
  BOOST_TEST(count == 2);
  BOOST_TEST(unsupported(util::kAvx2 | util::kFma, has_none, &count) == "avx2, fma");
  BOOST_TEST(unsupported(util::kAvx2 | util::kAvx512bf16, has_all, &count).empty());
  BOOST_TEST(count == 0);
  BOOST_TEST(unsupported(0, has_none, &count).empty());
}

BOOST_AUTO_TEST_CASE(a_short_buffer_is_cut_and_terminated) {
  int count = 0;
  BOOST_TEST(unsupported(util::kSse42 | util::kAvx2 | util::kAvx512f, has_none, &count, 10) == "sse4.2, a");
  BOOST_TEST(count == 3);
}

// The build's sets are those this test was compiled for (the same flags), and the machine
// that runs the tests has them all: else no tool of the build would start here.
BOOST_AUTO_TEST_CASE(the_build_uses_what_the_compiler_targets_and_this_cpu_has_it) {
#ifdef __AVX2__
  BOOST_TEST((util::kBuiltInstructionSets & util::kAvx2) != 0u);
#else
  BOOST_TEST((util::kBuiltInstructionSets & util::kAvx2) == 0u);
#endif
#ifdef __AVX512F__
  BOOST_TEST((util::kBuiltInstructionSets & util::kAvx512f) != 0u);
#else
  BOOST_TEST((util::kBuiltInstructionSets & util::kAvx512f) == 0u);
#endif
  int count = 0;
  const std::string missing = unsupported(util::kBuiltInstructionSets, util::cpu_supports, &count);
  BOOST_TEST(count == 0, "this CPU lacks " << missing);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace rnnsearch
