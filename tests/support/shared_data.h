#pragma once
// Where tests find ../shared (NMT_SHARED) and the built tools (NMT_BIN_DIR).
// Missing shared data skips a test locally but fails it under CI=true.
#include <string>

namespace rnnsearch::testing {

// $NMT_SHARED, or ../shared beside the source tree.
std::string shared_dir();
// shared_dir() + "/" + relative.
std::string shared_path(const std::string& relative);
// True when `path` exists. Otherwise: under CI=true a test failure is recorded and
// false returned; elsewhere a warning is logged and false returned (the test skips).
bool require_shared(const std::string& path);
// Directory holding the built nmt-* executables.
std::string bin_dir();
// The project's source directory.
std::string source_dir();

}  // namespace rnnsearch::testing
