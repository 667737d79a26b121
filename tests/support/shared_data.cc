#include "support/shared_data.h"

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>

namespace rnnsearch::testing {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : fallback;
}

bool running_in_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

}  // namespace

std::string shared_dir() { return env_or("NMT_SHARED", source_dir() + "/../shared"); }

std::string shared_path(const std::string& relative) { return shared_dir() + "/" + relative; }

bool require_shared(const std::string& path) {
  if (std::filesystem::exists(path)) return true;
  if (running_in_ci()) {
    BOOST_ERROR("shared data missing under CI=true: " << path);
  } else {
    BOOST_TEST_MESSAGE("skipping: shared data missing: " << path);
  }
  return false;
}

std::string bin_dir() { return env_or("NMT_BIN_DIR", RNNSEARCH_BIN_DIR); }

std::string source_dir() { return env_or("NMT_SOURCE_DIR", RNNSEARCH_SOURCE_DIR); }

}  // namespace rnnsearch::testing
