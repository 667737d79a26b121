#include "util/output_path.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <vector>

#include "util/error.h"

namespace rnnsearch::util {
namespace {

constexpr int kMaxLinks = 40;  // Linux's limit (ELOOP)

// The descriptor a /dev/stdout-like name stands for. Such names are links the kernel
// resolves per process ("/proc/self/fd/1" -> "pipe:[1234]"), whose text is no path.
std::optional<int> descriptor_named(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.compare(0, prefix.size(), prefix) != 0 || path.size() == prefix.size()) continue;
    const std::string number = path.substr(prefix.size());
    if (number.size() > 9) return std::nullopt;
    for (char c : number) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    }
    return std::stoi(number);
  }
  return std::nullopt;
}

std::string read_link(const std::string& path, std::size_t size_hint) {
  std::vector<char> buffer(size_hint + 1);
  for (;;) {
    const ssize_t n = ::readlink(path.c_str(), buffer.data(), buffer.size());
    if (n < 0) throw Error(path, std::string("cannot read the symbolic link: ") + std::strerror(errno));
    if (static_cast<std::size_t>(n) < buffer.size()) return std::string(buffer.data(), static_cast<std::size_t>(n));
    buffer.resize(buffer.size() * 2);  // the link changed under us and grew
  }
}

}  // namespace

OutputTarget resolve_output(const std::string& path) {
  OutputTarget target;
  std::string current = path;
  for (int links = 0;; ++links) {
    if (const auto descriptor = descriptor_named(current)) {
      target.kind = OutputTarget::Kind::kDescriptor;
      target.path = current;
      target.descriptor = *descriptor;
      return target;
    }
    struct stat info;
    if (::lstat(current.c_str(), &info) != 0) {
      target.path = current;  // nothing there (yet): created by rename
      return target;
    }
    if (S_ISLNK(info.st_mode)) {
      if (links == kMaxLinks) throw Error(path, "too many levels of symbolic links");
      const std::filesystem::path link = read_link(current, static_cast<std::size_t>(info.st_size));
      // A relative link is relative to the directory holding it.
      current = link.is_absolute() ? link.string() : (std::filesystem::path(current).parent_path() / link).string();
      continue;
    }
    target.path = current;
    if (S_ISDIR(info.st_mode)) throw Error(path, "is a directory");
    if (!S_ISREG(info.st_mode)) {
      target.kind = OutputTarget::Kind::kInPlace;
      return target;
    }
    target.exists = true;
    target.mode = info.st_mode & 07777;
    target.owner = info.st_uid;
    target.group = info.st_gid;
    return target;
  }
}

}  // namespace rnnsearch::util
