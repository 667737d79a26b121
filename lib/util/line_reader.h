#pragma once
// Reads UTF-8 text one line at a time from a file or stdin ("-"). Strips the "\n"
// and a "\r" before it (CRLF files read like LF files), counts lines, and reports
// invalid UTF-8 as util::Error "file:line: invalid UTF-8 at byte N".
#include <cstddef>
#include <string>
#include <vector>

namespace rnnsearch::util {

// What to do with bytes that are not UTF-8.
enum class InvalidUtf8 {
  kError,    // util::Error naming the line and byte
  kReplace,  // each maximal invalid subsequence becomes U+FFFD (as Python's "replace")
  kKeep,     // the bytes as they are, unchecked: for callers that check (or pass on) them
};

class LineReader {
 public:
  // Opens `path`; "-" means standard input. Throws util::Error when it cannot.
  explicit LineReader(const std::string& path, InvalidUtf8 policy = InvalidUtf8::kError);
  // Reads the open descriptor `fd` (a pipe from a decompressor, say), which stays open;
  // `name` is what messages call it.
  LineReader(int fd, std::string name, InvalidUtf8 policy = InvalidUtf8::kError);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Reads the next line into `line` (without its line end). Returns false at the end.
  bool next(std::string& line);

  // Keeps a "\r" before "\n" in the line (only the "\n" is cut off): for lines passed on
  // byte for byte.
  void keep_carriage_returns() { keep_cr_ = true; }

  // True when next() would return without waiting for input: a whole line is buffered,
  // the input has ended, or bytes are ready to read now. Tools that batch lines stop
  // collecting when this is false, so a pipe that pauses gets its answers at once.
  bool ready() const;

  // 1-based number of the line last returned by next().
  std::size_t line_number() const { return line_number_; }
  // The name used in messages: the path, or "<stdin>".
  const std::string& name() const { return name_; }

 private:
  bool fill();

  std::string name_;
  InvalidUtf8 policy_;
  int fd_ = -1;  // read with read(2): returns what a pipe has now, for interactive use
  bool owns_fd_ = false;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  bool keep_cr_ = false;
  std::size_t line_number_ = 0;
};

// All lines of `path` ("-" for stdin), validated as UTF-8.
std::vector<std::string> read_lines(const std::string& path);

// Throws util::Error "A: has 1 line, but B has 2; the files must be line-aligned", the
// shorter file named first (`unit` "sentence" counts sentences instead).
[[noreturn]] void throw_line_count_mismatch(const std::string& a, std::size_t a_lines, const std::string& b,
                                            std::size_t b_lines, const std::string& unit = "line");

// For two line-aligned files read in step, once one has ended and the other not: reads
// both to their ends and throws throw_line_count_mismatch's error with their line counts.
[[noreturn]] void throw_unaligned(LineReader& a, LineReader& b);

// The next line of each of two line-aligned files; false when both have ended, and
// throw_unaligned's error when only one has.
bool next_in_step(LineReader& a, std::string& a_line, LineReader& b, std::string& b_line);

}  // namespace rnnsearch::util
