#pragma once
// The name of util::AtomicFileWriter's temporary file beside its target DIR/NAME:
//   DIR/.NAME.tmp.PID.XXXXXX
// Hidden (as rsync's are), so that a glob of the outputs ("nmt-average MODEL.update*",
// "rm out.*") never takes a temporary file; PID tells a later run whose it is
// (remove_stale_temp_files); XXXXXX is what mkstemp draws from [A-Za-z0-9]. When the
// whole name would pass the directory's limit on a name (NAME_MAX, 255 bytes on most file
// systems), NAME is cut, at the start of a UTF-8 character: a temporary name fits whenever
// NAME itself does. Earlier versions named it NAME.tmp.PID.XXXXXX, not hidden and never
// cut; parse_temp_name reads both.
#include <cstddef>
#include <optional>
#include <string>

namespace rnnsearch::util {

// The longest file name the directory `directory` takes (pathconf's _PC_NAME_MAX; 255
// when it cannot be asked, as for a directory that does not exist).
std::size_t file_name_limit(const std::string& directory);

// The mkstemp template for a temporary file of `target` (a path) written by process `pid`.
std::string temp_path_template(const std::string& target, long pid);

// A temporary file's name (a directory entry, no directory) taken apart.
struct TempName {
  std::string base;  // NAME, or its start when it was cut
  long pid = 0;
  bool cut = false;  // the name is so long that NAME may have been cut to fit
};

// `entry` as a temporary file's name, or nothing when it is not one. `limit` is its
// directory's file_name_limit.
std::optional<TempName> parse_temp_name(const std::string& entry, std::size_t limit);

// Throws util::Error naming `path` when its last component is longer than its directory
// takes: "file name of 300 bytes, longer than the 255 this file system takes".
void check_file_name_fits(const std::string& path);

}  // namespace rnnsearch::util
