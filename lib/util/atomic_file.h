#pragma once
// Writes an output file so that readers see either the old file or the complete new
// one, never a partial file: data goes to a temporary file beside the target
// (.TARGET.tmp.PID.XXXXXX, util/temp_name.h), which commit() flushes, syncs and renames
// into place. A target whose name is longer than its file system takes is refused at once.
// Opening a writer removes the temporary files of the same target that writers killed
// outright (SIGKILL, a crash) left (remove_stale_temp_files). Without
// commit() (an exception unwound past the writer) the temporary file is removed and the
// target untouched; a tool killed by SIGINT, SIGTERM or SIGHUP removes it too (the tools'
// entry, tools/support/tool_entry.h, calls unlink_temp_files()), and nmt-train removes
// those a SIGKILL left (remove_stale_temp_files()).
//
// Only a regular file is replaced (util/output_path.h): a symlink is followed and its
// final target replaced, so the link stays a link; the replacement keeps an existing
// file's permission bits (and owner and group, where the process may set them); a new
// file gets 0666 minus the umask. Devices, FIFOs and /dev/stdout-like names (a pipe, a
// socket, a terminal behind them) are written directly, as a shell's ">" would: there is
// nothing to replace atomically.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace rnnsearch::util {

struct OutputTarget;

class AtomicFileWriter {
 public:
  // "-" writes straight to stdout (commit() then only flushes).
  explicit AtomicFileWriter(const std::string& path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(std::string_view data);
  void write_line(std::string_view line);  // data + "\n"
  // Pushes buffered data to the file (for stdout: to the reader at once).
  void flush();
  // Flushes, syncs and closes the output without making it visible: the part of commit()
  // that can fail for want of space. Throws util::Error on failure (the temporary file is
  // then removed); without a commit() after it, the destructor removes it.
  void finish();
  // Makes the output visible under its final name (finishing it first). Throws
  // util::Error on failure.
  void commit();

  const std::string& path() const { return path_; }
  // Empty when the output is written directly (stdout, a device, a FIFO).
  const std::string& temp_path() const { return temp_path_; }

 private:
  void open_directly(const OutputTarget& target);

  std::string path_;
  std::string target_path_;  // what the rename replaces: path_ with symlinks followed
  std::string temp_path_;
  int temp_slot_ = -1;  // its entry in the list unlink_temp_files() reads
  std::FILE* file_ = nullptr;
  bool to_stdout_ = false;
  bool direct_ = false;  // a device, FIFO or descriptor: no temporary file
  bool finished_ = false;
  bool committed_ = false;
};

// Commits several outputs of one run so that a failure to write any of them (a full disk,
// /dev/full) leaves none: all are finished before the first is renamed into place.
void commit_together(const std::vector<AtomicFileWriter*>& writers);

// Unlinks the temporary files of every writer in this process not yet committed or
// destroyed. Async-signal-safe (it only reads fixed slots and calls unlink), for the
// handler of a signal that ends the process.
void unlink_temp_files() noexcept;

// Removes the temporary files that writers of `path` in processes no longer running left
// beside its target (named as util/temp_name.h says, now or by earlier versions, whose PID
// is not a live process: killed by SIGKILL, a crash or a power cut, when no handler could
// run). Files of live processes,
// this one included, stay; a PID reused since by another process keeps its file until that
// process ends. Returns the files removed; one that cannot be removed is left (none is
// ever read).
std::vector<std::string> remove_stale_temp_files(const std::string& path);

// The same for every target named `stem` followed by digits (MODEL.update1000, ...).
std::vector<std::string> remove_stale_numbered_temp_files(const std::string& stem);

}  // namespace rnnsearch::util
