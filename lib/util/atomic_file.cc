#include "util/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "util/error.h"
#include "util/output_path.h"

namespace rnnsearch::util {
namespace {

std::string errno_text() { return std::strerror(errno); }

// The temporary files of the live writers, for unlink_temp_files() in a signal handler:
// fixed slots of lock-free atomic pointers, so the handler takes no lock and allocates
// nothing. Each pointer is a writer's temp_path_ buffer, alive while registered.
constexpr int kTempSlots = 64;
std::atomic<const char*> live_temp_paths[kTempSlots];
static_assert(std::atomic<const char*>::is_always_lock_free);

// A free slot holding `path`, or -1 when more than kTempSlots writers are open at once:
// that writer's temporary file is then not removed on a signal.
int register_temp_path(const char* path) {
  for (int i = 0; i < kTempSlots; ++i) {
    const char* expected = nullptr;
    if (live_temp_paths[i].compare_exchange_strong(expected, path)) return i;
  }
  return -1;
}

void unregister_temp_path(int& slot) {
  if (slot >= 0) live_temp_paths[slot].store(nullptr);
  slot = -1;
}

// ".tmp.PID.XXXXXX" after the target's name: PID and the six characters mkstemp draws
// from [A-Za-z0-9]. Returns the PID, or -1 when `suffix` is not such a name.
long temp_suffix_pid(const std::string& suffix) {
  const std::string start = ".tmp.";
  if (suffix.compare(0, start.size(), start) != 0) return -1;
  const std::size_t dot = suffix.find('.', start.size());
  if (dot == std::string::npos || dot == start.size() || dot - start.size() > 9) return -1;
  for (std::size_t i = start.size(); i < dot; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(suffix[i]))) return -1;
  }
  if (suffix.size() != dot + 7) return -1;
  for (std::size_t i = dot + 1; i < suffix.size(); ++i) {
    if (!std::isalnum(static_cast<unsigned char>(suffix[i]))) return -1;
  }
  return std::stol(suffix.substr(start.size(), dot - start.size()));
}

bool process_alive(long pid) {
  if (pid == static_cast<long>(::getpid())) return true;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;  // EPERM: alive, another user's
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(const std::string& path) : path_(path) {
  if (path == "-") {
    to_stdout_ = true;
    file_ = stdout;
    return;
  }
  const OutputTarget target = resolve_output(path);
  if (target.kind != OutputTarget::Kind::kReplace) {
    open_directly(target);
    return;
  }
  target_path_ = target.path;
  // The PID tells a later run whose file it is (remove_stale_temp_files). The buffer is
  // registered before mkstemp writes the name into it: whenever the file exists, a signal
  // handler finds its name there (at worst it unlinks a name of this PID that does not exist).
  temp_path_ = target.path + ".tmp." + std::to_string(::getpid()) + ".XXXXXX";
  temp_slot_ = register_temp_path(temp_path_.c_str());
  const int fd = ::mkstemp(temp_path_.data());
  if (fd < 0) {
    const std::string reason = errno_text();
    unregister_temp_path(temp_slot_);
    throw Error(path, "cannot create a temporary file beside it: " + reason);
  }
  if (target.exists) {
    // The replacement takes the place of the old file: same owner, group and permission
    // bits. Only root may give a file away, so a failed fchown leaves this process's owner.
    if (target.owner != ::geteuid() || target.group != ::getegid()) {
      if (::fchown(fd, target.owner, target.group) != 0) {
        [[maybe_unused]] const int ignored = ::fchown(fd, static_cast<uid_t>(-1), target.group);
      }
    }
    ::fchmod(fd, target.mode);
  } else {
    // mkstemp creates 0600; give a new file the usual permissions under the umask.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
  }
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const std::string reason = errno_text();
    ::close(fd);
    ::unlink(temp_path_.c_str());
    unregister_temp_path(temp_slot_);
    throw Error(path, "cannot open a temporary file: " + reason);
  }
}

// There is no old file to keep: what is written goes straight to the device, the FIFO's
// reader or the descriptor, as with a shell's ">".
void AtomicFileWriter::open_directly(const OutputTarget& target) {
  direct_ = true;
  const int fd = target.kind == OutputTarget::Kind::kDescriptor
                     ? ::fcntl(target.descriptor, F_DUPFD_CLOEXEC, 0)
                     : ::open(target.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw Error(path_, "cannot open for writing: " + errno_text());
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const std::string reason = errno_text();
    ::close(fd);
    throw Error(path_, "cannot open for writing: " + reason);
  }
}

AtomicFileWriter::~AtomicFileWriter() {
  if (to_stdout_ || committed_) return;
  if (file_) std::fclose(file_);
  if (direct_) return;
  ::unlink(temp_path_.c_str());
  unregister_temp_path(temp_slot_);
}

void AtomicFileWriter::write(std::string_view data) {
  if (std::fwrite(data.data(), 1, data.size(), file_) != data.size()) {
    throw Error(path_, "write failed: " + errno_text());
  }
}

void AtomicFileWriter::write_line(std::string_view line) {
  write(line);
  if (std::fputc('\n', file_) == EOF) throw Error(path_, "write failed: " + errno_text());
}

void AtomicFileWriter::flush() {
  if (std::fflush(file_) != 0) throw Error(to_stdout_ ? "<stdout>" : path_, "write failed: " + errno_text());
}

void AtomicFileWriter::commit() {
  if (committed_) return;
  if (to_stdout_) {
    if (std::fflush(file_) != 0) throw Error("<stdout>", "write failed: " + errno_text());
    committed_ = true;
    return;
  }
  if (direct_) {
    // fsync means nothing to a FIFO or a terminal (EINVAL): flushing is all there is.
    const bool flushed = std::fflush(file_) == 0;
    const int saved_errno = errno;
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    committed_ = true;
    if (!flushed || !closed) {
      errno = flushed ? errno : saved_errno;
      throw Error(path_, "write failed: " + errno_text());
    }
    return;
  }
  const bool flushed = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
  const int saved_errno = errno;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed || !closed) {
    errno = flushed ? errno : saved_errno;
    const std::string reason = errno_text();
    ::unlink(temp_path_.c_str());
    unregister_temp_path(temp_slot_);
    throw Error(path_, "write failed: " + reason);
  }
  if (std::rename(temp_path_.c_str(), target_path_.c_str()) != 0) {
    const std::string reason = errno_text();
    ::unlink(temp_path_.c_str());
    unregister_temp_path(temp_slot_);
    throw Error(path_, "cannot rename the temporary file into place: " + reason);
  }
  // Unregistered after the rename: a signal in between unlinks a name that is gone.
  unregister_temp_path(temp_slot_);
  committed_ = true;
}

void unlink_temp_files() noexcept {
  for (auto& slot : live_temp_paths) {
    if (const char* path = slot.load()) ::unlink(path);
  }
}

std::vector<std::string> remove_stale_temp_files(const std::string& path) {
  namespace fs = std::filesystem;
  const OutputTarget target = resolve_output(path);
  if (target.kind != OutputTarget::Kind::kReplace) return {};
  const fs::path target_path(target.path);
  const fs::path directory = target_path.has_parent_path() ? target_path.parent_path() : fs::path(".");
  const std::string name = target_path.filename().string();
  std::vector<std::string> removed;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const std::string entry = it->path().filename().string();
    if (entry.size() <= name.size() || entry.compare(0, name.size(), name) != 0) continue;
    const long pid = temp_suffix_pid(entry.substr(name.size()));
    if (pid <= 0 || process_alive(pid)) continue;
    std::error_code remove_error;
    if (it->is_regular_file(remove_error) && fs::remove(it->path(), remove_error)) removed.push_back(it->path().string());
  }
  return removed;
}

}  // namespace rnnsearch::util
