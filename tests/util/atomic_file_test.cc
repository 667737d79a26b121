// What AtomicFileWriter may replace and what it must write in place: a device, a FIFO
// and a descriptor are written directly; a symlink stays a link and its target is
// replaced; the replacement keeps the old file's permission bits. And the temporary
// files: named .TARGET.tmp.PID.XXXXXX (cut to fit the file system's limit on a name),
// removed by unlink_temp_files() (the signal path), and those of dead processes by
// remove_stale_temp_files().
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/dead_pid.h"
#include "support/golden_cases.h"
#include "support/temp_dir.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/output_path.h"
#include "util/temp_name.h"

namespace fs = std::filesystem;
using namespace rnnsearch::util;
using rnnsearch::testing::TempDir;

namespace {

void write_file(const std::string& path, const std::string& text) {
  AtomicFileWriter writer(path);
  writer.write(text);
  writer.commit();
}

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

mode_t permission_bits(const std::string& path) {
  struct stat info;
  BOOST_TEST_REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(atomic_file_targets)

BOOST_AUTO_TEST_CASE(a_fifo_is_written_to_its_reader_and_stays_a_fifo) {
  TempDir dir;
  const std::string fifo = (dir.path() / "pipe").string();
  BOOST_TEST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // The read end opened first, so the writer's open does not wait for a reader; the text
  // fits the pipe's buffer. Had the writer renamed a file over the FIFO, the read would
  // see no writer and return nothing, instead of hanging.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  BOOST_TEST_REQUIRE(reader >= 0);
  ::fcntl(reader, F_SETFL, 0);
  write_file(fifo, "through the pipe\n");
  std::string received;
  char buffer[64];
  for (ssize_t n; (n = ::read(reader, buffer, sizeof(buffer))) > 0;) received.append(buffer, static_cast<std::size_t>(n));
  ::close(reader);
  BOOST_TEST(received == "through the pipe\n");
  BOOST_TEST(fs::is_fifo(fifo));
  BOOST_TEST(entries(dir.path()) == 1u);  // no temporary file beside it
}

BOOST_AUTO_TEST_CASE(dev_null_stays_a_character_device) {
  // Renamed over, /dev/null would become a regular file holding this text (as root).
  write_file("/dev/null", "discarded\n");
  BOOST_TEST(fs::is_character_file("/dev/null"));
  BOOST_TEST(rnnsearch::testing::read_file("/dev/null").empty());
  BOOST_TEST((resolve_output("/dev/null").kind == OutputTarget::Kind::kInPlace));
}

BOOST_AUTO_TEST_CASE(a_dev_fd_path_writes_to_that_descriptor) {
  int fds[2];
  BOOST_TEST_REQUIRE(::pipe(fds) == 0);
  write_file("/dev/fd/" + std::to_string(fds[1]), "via the descriptor\n");
  ::close(fds[1]);  // the writer wrote through a copy and closed it: this was the last end
  char buffer[64];
  const ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
  ::close(fds[0]);
  BOOST_TEST(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0) == "via the descriptor\n");
  BOOST_TEST(resolve_output("/dev/stdout").descriptor == 1);
  BOOST_TEST(resolve_output("/proc/self/fd/2").descriptor == 2);
}

BOOST_AUTO_TEST_CASE(a_symlink_stays_a_link_and_its_final_target_is_replaced) {
  TempDir dir;
  fs::create_directory(dir.path() / "data");
  const std::string target = dir.write("data/real.txt", "old\n");
  fs::create_symlink("data/real.txt", dir.path() / "hop");  // relative to the link's directory
  fs::create_symlink(dir.path() / "hop", dir.path() / "link");  // a chain of two
  const std::string link = (dir.path() / "link").string();
  {
    AtomicFileWriter writer(link);
    // The temporary file lies beside the final target, so the rename stays in its directory.
    BOOST_TEST(fs::path(writer.temp_path()).parent_path() == dir.path() / "data");
    writer.write_line("new");
    writer.commit();
  }
  BOOST_TEST(fs::is_symlink(link));
  BOOST_TEST(fs::is_symlink(dir.path() / "hop"));
  BOOST_TEST(rnnsearch::testing::read_file(target) == "new\n");
  BOOST_TEST(entries(dir.path() / "data") == 1u);
}

BOOST_AUTO_TEST_CASE(a_dangling_symlink_creates_its_target) {
  TempDir dir;
  fs::create_symlink("made.txt", dir.path() / "link");
  write_file((dir.path() / "link").string(), "made\n");
  BOOST_TEST(fs::is_symlink(dir.path() / "link"));
  BOOST_TEST(rnnsearch::testing::read_file((dir.path() / "made.txt").string()) == "made\n");
}

BOOST_AUTO_TEST_CASE(a_symlink_loop_and_a_directory_are_errors_naming_the_path) {
  TempDir dir;
  fs::create_symlink("b", dir.path() / "a");
  fs::create_symlink("a", dir.path() / "b");
  const std::string loop = (dir.path() / "a").string();
  BOOST_CHECK_EXCEPTION(AtomicFileWriter{loop}, Error,
                        [&](const Error& e) { return e.file() == loop && e.detail().find("symbolic links") != std::string::npos; });
  BOOST_CHECK_EXCEPTION(AtomicFileWriter{dir.path().string()}, Error,
                        [&](const Error& e) { return e.detail() == "is a directory"; });
}

BOOST_AUTO_TEST_CASE(the_replacement_keeps_the_old_files_permission_bits) {
  TempDir dir;
  for (const mode_t mode : {0600, 0640, 0755}) {
    const std::string path = dir.write("secret" + std::to_string(mode), "old\n");
    BOOST_TEST_REQUIRE(::chmod(path.c_str(), mode) == 0);
    write_file(path, "new\n");
    BOOST_TEST(rnnsearch::testing::read_file(path) == "new\n");
    BOOST_TEST(permission_bits(path) == mode, "mode " << std::oct << mode);
  }
}

BOOST_AUTO_TEST_CASE(a_new_file_gets_the_umask_mode) {
  TempDir dir;
  const mode_t old_mask = ::umask(027);
  const std::string path = (dir.path() / "new.txt").string();
  write_file(path, "x\n");
  ::umask(old_mask);
  BOOST_TEST(permission_bits(path) == 0640u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(atomic_file_temporaries)

BOOST_AUTO_TEST_CASE(the_temporary_name_holds_the_process_id) {
  TempDir dir;
  const std::string path = (dir.path() / "out.txt").string();
  AtomicFileWriter writer(path);
  const std::string prefix = (dir.path() / ".out.txt.tmp.").string() + std::to_string(::getpid()) + ".";
  const std::string& temp = writer.temp_path();
  BOOST_TEST_REQUIRE(temp.rfind(prefix, 0) == 0u, temp);
  BOOST_TEST(std::regex_match(temp.substr(prefix.size()), std::regex("[A-Za-z0-9]{6}")), temp);
}

BOOST_AUTO_TEST_CASE(unlink_temp_files_removes_the_live_writers_temporaries_only) {
  TempDir dir;
  const std::string done = (dir.path() / "done.txt").string();
  write_file(done, "complete\n");
  const std::string path = dir.write("out.txt", "old\n");
  AtomicFileWriter writer(path);
  writer.write_line("partial");
  writer.flush();
  BOOST_TEST_REQUIRE(fs::exists(writer.temp_path()));
  unlink_temp_files();  // what the SIGINT/SIGTERM handler of util/cli.cc does
  BOOST_TEST(!fs::exists(writer.temp_path()));
  BOOST_TEST(rnnsearch::testing::read_file(path) == "old\n");
  BOOST_TEST(rnnsearch::testing::read_file(done) == "complete\n");
  BOOST_TEST(entries(dir.path()) == 2u);
}

BOOST_AUTO_TEST_CASE(remove_stale_temp_files_takes_only_dead_processes_files_of_that_target) {
  TempDir dir;
  const std::string model = dir.write("model.bin", "model\n");
  const std::string dead = std::to_string(rnnsearch::testing::dead_pid()), alive = std::to_string(::getpid());
  const std::vector<std::string> stale = {dir.write(".model.bin.tmp." + dead + ".Ab3xYz", "stale"),
                                          dir.write("model.bin.tmp." + dead + ".Cd4xYz", "an earlier version's")};
  const std::vector<std::string> kept = {
      dir.write(".model.bin.tmp." + alive + ".Ab3xYz", "a live process's"),
      dir.write(".model.bin.ckpt.tmp." + dead + ".Ab3xYz", "another target's"),
      dir.write(".model.bin.tmp." + dead + ".Ab3x", "not mkstemp's six characters"),
      dir.write("model.bin.tmp." + dead + ".Ab3x", "not mkstemp's six characters"),
      dir.write("model.bin.tmp." + dead + ".Ab3xY-", "not mkstemp's characters"),
      dir.write("model.bin.tmp.x" + dead + ".Ab3xYz", "no process id"),
      dir.write("model.bin.tmp", "no process id either"),
  };
  auto removed = remove_stale_temp_files(model);
  std::sort(removed.begin(), removed.end());
  BOOST_TEST(removed == stale);
  for (const auto& path : stale) BOOST_TEST(!fs::exists(path), path);
  for (const auto& path : kept) BOOST_TEST(fs::exists(path), path);
  BOOST_TEST(rnnsearch::testing::read_file(model) == "model\n");
  // A checkpoint's own call finds its file; a symlinked model is looked up at its target.
  fs::create_symlink("model.bin.ckpt", dir.path() / "link.ckpt");
  const auto through_link = remove_stale_temp_files((dir.path() / "link.ckpt").string());
  BOOST_TEST(through_link == std::vector<std::string>{kept[1]});
}

// Writing a file clears what writers of it killed outright left, and nothing else.
BOOST_AUTO_TEST_CASE(a_new_writer_removes_its_targets_stale_temporaries) {
  TempDir dir;
  const std::string dead = std::to_string(rnnsearch::testing::dead_pid()), alive = std::to_string(::getpid());
  const std::string stale = dir.write(".out.txt.tmp." + dead + ".Ab3xYz", "partial");
  const std::string live = dir.write(".out.txt.tmp." + alive + ".Ab3xYz", "a live writer's");
  const std::string other = dir.write(".other.txt.tmp." + dead + ".Ab3xYz", "another target's");
  write_file((dir.path() / "out.txt").string(), "whole\n");
  BOOST_TEST(!fs::exists(stale));
  BOOST_TEST(fs::exists(live));
  BOOST_TEST(fs::exists(other));
}

// The kept models of nmt-train --keep-checkpoints: MODEL.update followed by digits.
BOOST_AUTO_TEST_CASE(remove_stale_numbered_temp_files_takes_every_number) {
  TempDir dir;
  const std::string dead = std::to_string(rnnsearch::testing::dead_pid()), alive = std::to_string(::getpid());
  std::vector<std::string> stale = {dir.write(".m.bin.update40.tmp." + dead + ".Ab3xYz", "stale"),
                                    dir.write(".m.bin.update7.tmp." + dead + ".Ab3xYz", "stale"),
                                    dir.write("m.bin.update40.tmp." + dead + ".Ab3xYz", "an earlier version's")};
  const std::vector<std::string> kept = {dir.write(".m.bin.update40.tmp." + alive + ".Ab3xYz", "a live process's"),
                                         dir.write(".m.bin.update.tmp." + dead + ".Ab3xYz", "no number"),
                                         dir.write(".m.bin.update4x.tmp." + dead + ".Ab3xYz", "not a number"),
                                         dir.write(".m.bin.tmp." + dead + ".Ab3xYz", "the model's own"),
                                         dir.write("m.bin.update40", "a kept model")};
  auto removed = remove_stale_numbered_temp_files((dir.path() / "m.bin.update").string());
  std::sort(removed.begin(), removed.end());
  std::sort(stale.begin(), stale.end());
  BOOST_TEST(removed == stale);
  for (const auto& path : kept) BOOST_TEST(fs::exists(path), path);
}

// A name as long as the file system takes still gets a temporary file (its name cut to
// fit, at a character's start), found again as stale; a longer one is refused at once.
BOOST_AUTO_TEST_CASE(a_name_at_the_file_systems_limit_gets_a_temporary_file_that_fits) {
  TempDir dir;
  const std::size_t limit = file_name_limit(dir.path().string());
  std::string name = std::string(limit - 3, 'n') + "\xc3\xa9x";  // é across the cut
  BOOST_TEST_REQUIRE(name.size() == limit);
  const std::string path = (dir.path() / name).string();
  {
    AtomicFileWriter writer(path);
    const std::string temp = fs::path(writer.temp_path()).filename().string();
    BOOST_TEST(temp.size() <= limit, temp.size());
    BOOST_TEST(temp.rfind("." + name.substr(0, 10), 0) == 0u);
    // Not inside é: the cut name is valid UTF-8 as the target's is.
    BOOST_TEST(temp.find("\xc3.tmp.") == std::string::npos);
    writer.write_line("whole");
    writer.commit();
  }
  BOOST_TEST(rnnsearch::testing::read_file(path) == "whole\n");

  const std::string dead = std::to_string(rnnsearch::testing::dead_pid());
  const std::string suffix = ".tmp." + dead + ".Ab3xYz";
  const std::string cut = "." + name.substr(0, limit - suffix.size() - 1) + suffix;
  const std::string other = "." + std::string(limit - suffix.size() - 1, 'o') + suffix;  // another target's
  dir.write(cut, "stale");
  dir.write(other, "another target's");
  BOOST_TEST(remove_stale_temp_files(path) == std::vector<std::string>{(dir.path() / cut).string()});
  BOOST_TEST(fs::exists(dir.path() / other));

  const std::string too_long = (dir.path() / std::string(limit + 1, 'n')).string();
  try {
    AtomicFileWriter refused(too_long);
    BOOST_FAIL("a name longer than the limit was taken");
  } catch (const Error& e) {
    BOOST_TEST(std::string(e.what()) == too_long + ": file name of " + std::to_string(limit + 1) +
                                            " bytes, longer than the " + std::to_string(limit) + " this file system takes");
  }
  BOOST_TEST(entries(dir.path()) == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
