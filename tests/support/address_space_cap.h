#pragma once
// Tests that cap a tool's address space (`ulimit -v`) cannot do so under AddressSanitizer
// (scripts/sanitize.sh): it reserves terabytes of address space for its shadow memory at
// start, so the capped process dies before main. Such tests run uncapped or not at all there.
#include <string>

namespace rnnsearch::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSpaceCapsApply = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSpaceCapsApply = false;
#else
inline constexpr bool kAddressSpaceCapsApply = true;
#endif
#else
inline constexpr bool kAddressSpaceCapsApply = true;
#endif

// "ulimit -v KILOBYTES; " for a shell command line, or nothing where caps cannot apply.
inline std::string address_space_cap(long kilobytes) {
  return kAddressSpaceCapsApply ? "ulimit -v " + std::to_string(kilobytes) + "; " : "";
}

}  // namespace rnnsearch::testing
