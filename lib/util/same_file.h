#pragma once
// Whether two paths name one file, so a tool can refuse to write over its own input.
#include <string>

namespace rnnsearch::util {

// True when `a` and `b` are the same file: the same device and inode when both exist
// (hard links, symlinks, "./a" and "a"), else the same path once symbolic links are
// followed (a link to a file not written yet is that file) and "d/../a" is "a".
bool same_file(const std::string& a, const std::string& b);

}  // namespace rnnsearch::util
