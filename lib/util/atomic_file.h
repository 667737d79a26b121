#pragma once
// Writes an output file so that readers see either the old file or the complete new
// one, never a partial file: data goes to a temporary file beside the target, which
// commit() flushes, syncs and renames into place. Without commit() (an exception
// unwound past the writer) the temporary file is removed and the target untouched.
#include <cstdio>
#include <string>
#include <string_view>

namespace rnnsearch::util {

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
  // Makes the output visible under its final name. Throws util::Error on failure.
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }

 private:
  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  bool to_stdout_ = false;
  bool committed_ = false;
};

}  // namespace rnnsearch::util
