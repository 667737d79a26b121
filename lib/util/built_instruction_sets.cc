// Compiled with the build's own flags (-march=native by default), unlike instruction_sets.cc:
// the compiler's macros say which sets the rest of the code may use. A constant, so no code
// of this file runs before the check.
#include "util/instruction_sets.h"

namespace rnnsearch::util {

extern const unsigned kBuiltInstructionSets = 0u
#ifdef __SSE4_2__
    | kSse42
#endif
#ifdef __POPCNT__
    | kPopcnt
#endif
#ifdef __AVX__
    | kAvx
#endif
#ifdef __AVX2__
    | kAvx2
#endif
#ifdef __FMA__
    | kFma
#endif
#ifdef __BMI2__
    | kBmi2
#endif
#ifdef __AVX512F__
    | kAvx512f
#endif
#ifdef __AVX512BW__
    | kAvx512bw
#endif
#ifdef __AVX512DQ__
    | kAvx512dq
#endif
#ifdef __AVX512VL__
    | kAvx512vl
#endif
#ifdef __AVX512VNNI__
    | kAvx512vnni
#endif
#ifdef __AVX512BF16__
    | kAvx512bf16
#endif
    ;

}  // namespace rnnsearch::util
