#pragma once
// What writing to an output path would replace, so util::AtomicFileWriter renames a new
// file only onto a regular file. A rename swaps the directory entry: onto /dev/null it
// would leave a regular file there, onto a symlink a file instead of the link, onto a
// FIFO data its reader never sees. So the path is looked at first:
//   - symlinks are followed to their final target (which need not exist yet);
//   - "/dev/stdout", "/dev/stderr", "/dev/fd/N" and "/proc/self/fd/N" (also as the target
//     of a link) name a descriptor this process has open: written through a copy of it;
//   - a character or block device or a FIFO is opened and written in place (so is a
//     socket file, which open(2) refuses: an error naming the path);
//   - a regular file, or nothing yet, is replaced by rename.
#include <string>
#include <sys/types.h>

namespace rnnsearch::util {

struct OutputTarget {
  enum class Kind {
    kReplace,     // a regular file or none: write a temporary file beside `path`, rename it there
    kInPlace,     // a device, FIFO or socket file: open `path` and write to it
    kDescriptor,  // an open descriptor of this process: write to `descriptor`
  };
  Kind kind = Kind::kReplace;
  std::string path;     // the final target, symlinks followed
  int descriptor = -1;  // kDescriptor only
  bool exists = false;  // kReplace: a regular file is there now, with these:
  mode_t mode = 0;      // permission bits (07777)
  uid_t owner = 0;
  gid_t group = 0;
};

// Looks `path` up without changing anything. Throws util::Error naming `path` for a
// directory and for a loop of symbolic links; a path that cannot be looked at (a missing
// directory, no permission) is a kReplace target that does not exist, and creating the
// temporary file then reports why.
OutputTarget resolve_output(const std::string& path);

}  // namespace rnnsearch::util
