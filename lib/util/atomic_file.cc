#include "util/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>

#include "util/error.h"
#include "util/output_path.h"
#include "util/temp_name.h"

namespace rnnsearch::util {
namespace {

std::string errno_text() { return std::strerror(errno); }

// What messages call an output: "<stdout>" for "-", as readers call stdin "<stdin>". A
// reference, not a copy: nothing is allocated between a failed write and its errno_text().
const std::string kStdoutName = "<stdout>";
const std::string& shown_name(const std::string& path) { return path == "-" ? kStdoutName : path; }

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
  check_file_name_fits(target.path);  // else the rename would fail only after the work
  remove_stale_temp_files(path);      // what a writer of this file killed outright left
  // The PID tells a later run whose file it is (remove_stale_temp_files). The buffer is
  // registered before mkstemp writes the name into it: whenever the file exists, a signal
  // handler finds its name there (at worst it unlinks a name of this PID that does not exist).
  temp_path_ = temp_path_template(target.path, ::getpid());
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
  ::unlink(temp_path_.c_str());  // also when finish() left it whole: commit() never came
  unregister_temp_path(temp_slot_);
}

void AtomicFileWriter::write(std::string_view data) {
  if (std::fwrite(data.data(), 1, data.size(), file_) != data.size()) {
    throw Error(shown_name(path_), "write failed: " + errno_text());
  }
}

void AtomicFileWriter::write_line(std::string_view line) {
  write(line);
  if (std::fputc('\n', file_) == EOF) throw Error(shown_name(path_), "write failed: " + errno_text());
}

void AtomicFileWriter::flush() {
  if (std::fflush(file_) != 0) throw Error(shown_name(path_), "write failed: " + errno_text());
}

void AtomicFileWriter::finish() {
  if (finished_ || committed_) return;
  finished_ = true;
  if (to_stdout_) {
    if (std::fflush(file_) != 0) throw Error(kStdoutName, "write failed: " + errno_text());
    return;
  }
  // fsync means nothing to a FIFO or a terminal (EINVAL): for them flushing is all there is.
  const bool flushed = std::fflush(file_) == 0 && (direct_ || ::fsync(::fileno(file_)) == 0);
  const int saved_errno = errno;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (flushed && closed) return;
  errno = flushed ? errno : saved_errno;
  const std::string reason = errno_text();
  if (!direct_) {
    ::unlink(temp_path_.c_str());
    unregister_temp_path(temp_slot_);
  }
  throw Error(path_, "write failed: " + reason);
}

void AtomicFileWriter::commit() {
  if (committed_) return;
  finish();
  committed_ = true;
  if (to_stdout_ || direct_) return;
  if (std::rename(temp_path_.c_str(), target_path_.c_str()) != 0) {
    const std::string reason = errno_text();
    ::unlink(temp_path_.c_str());
    unregister_temp_path(temp_slot_);
    throw Error(path_, "cannot rename the temporary file into place: " + reason);
  }
  // Unregistered after the rename: a signal in between unlinks a name that is gone.
  unregister_temp_path(temp_slot_);
}

void commit_together(const std::vector<AtomicFileWriter*>& writers) {
  for (AtomicFileWriter* writer : writers) writer->finish();
  for (AtomicFileWriter* writer : writers) writer->commit();
}

void unlink_temp_files() noexcept {
  for (auto& slot : live_temp_paths) {
    if (const char* path = slot.load()) ::unlink(path);
  }
}

namespace {

// Removes the temporary files beside `path`'s target of processes no longer running whose
// target names `stands_for` accepts, given the target's own name and the temporary file's
// base (the name, or its start when it was cut).
using StandsFor = std::function<bool(const std::string& name, const std::string& base, bool cut)>;
std::vector<std::string> remove_stale(const std::string& path, const StandsFor& stands_for) {
  namespace fs = std::filesystem;
  const OutputTarget target = resolve_output(path);
  if (target.kind != OutputTarget::Kind::kReplace) return {};
  const fs::path target_path(target.path);
  const fs::path directory = target_path.has_parent_path() ? target_path.parent_path() : fs::path(".");
  const std::string name = target_path.filename().string();
  const std::size_t limit = file_name_limit(directory.string());
  std::vector<std::string> removed;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const auto temp = parse_temp_name(it->path().filename().string(), limit);
    if (!temp || !stands_for(name, temp->base, temp->cut) || process_alive(temp->pid)) continue;
    std::error_code remove_error;
    if (it->is_regular_file(remove_error) && fs::remove(it->path(), remove_error)) {
      // Named as the target is: "m.bin"'s beside it, not "./.m.bin.tmp...".
      removed.push_back(target_path.has_parent_path() ? it->path().string() : it->path().filename().string());
    }
  }
  return removed;
}

bool starts_with(const std::string& text, const std::string& start) { return text.compare(0, start.size(), start) == 0; }

}  // namespace

std::vector<std::string> remove_stale_temp_files(const std::string& path) {
  return remove_stale(path, [](const std::string& name, const std::string& base, bool cut) {
    return base == name || (cut && starts_with(name, base));
  });
}

std::vector<std::string> remove_stale_numbered_temp_files(const std::string& stem) {
  return remove_stale(stem, [](const std::string& name, const std::string& base, bool cut) {
    const bool numbered = base.size() > name.size() && starts_with(base, name) &&
                          base.find_first_not_of("0123456789", name.size()) == std::string::npos;
    return numbered || (cut && (starts_with(name, base) || starts_with(base, name)));
  });
}

}  // namespace rnnsearch::util
