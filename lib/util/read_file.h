#pragma once
// Opening named input files, in one place: a directory is refused here, since open(2)
// succeeds on one and an ifstream of it reads as an empty file (or fails later with a
// library's text, "basic_filebuf::underflow ...").
#include <string>

namespace rnnsearch::util {

// Throws util::Error "PATH: is a directory" when the open descriptor `fd` is one.
void refuse_directory(const std::string& path, int fd);

// The whole content of `path`. Throws util::Error naming the file when it cannot be
// opened ("PATH: cannot open WHAT: No such file or directory"), is a directory or
// cannot be read.
std::string read_file(const std::string& path, const std::string& what);

}  // namespace rnnsearch::util
