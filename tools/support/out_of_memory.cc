#include "tools/support/out_of_memory.h"

#include <unistd.h>

#include <cstring>
#include <new>

#include "util/atomic_file.h"
#include "util/cli.h"

namespace rnnsearch::tools {
namespace {

std::string& tool_name() {
  static std::string name = "rnnsearch";
  return name;
}

void write_all(const char* text) {
  for (std::size_t left = std::strlen(text); left > 0;) {
    const ssize_t written = ::write(STDERR_FILENO, text, left);
    if (written <= 0) return;
    text += written;
    left -= static_cast<std::size_t>(written);
  }
}

void out_of_memory() {
  util::unlink_temp_files();
  write_all(tool_name().c_str());
  write_all(": out of memory\n");
  ::_exit(util::kExitFailure);
}

}  // namespace

void exit_when_out_of_memory(const std::string& tool) {
  tool_name() = tool;
  std::set_new_handler(out_of_memory);
}

}  // namespace rnnsearch::tools
