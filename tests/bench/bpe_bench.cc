// Benchmark (not a test): BPE learn and apply times beside subword-nmt's from
// shared/golden/README.md (learn_bpe 8000 merges on train de+en: 10.72 s; apply_bpe on
// 100k tokenized lines: 2.77 s). subword-nmt itself cannot run here (no PyPI).
//
//   build/bench/bpe_bench [--runs N] [--only learn|apply]
//
// learn: word counting of the 58,000 in-memory lines of golden/bpe/input/train.tok.{de,en}.gz
// (de first) plus 8000 merges. apply: a fresh BpeApplier (empty word cache) with
// golden/bpe/codes.8000 over Multi30k train en (29,000 lines), and over 100,000 lines made
// of train.tok.de then train.tok.en, repeated (the README's tok.100k is the same text).
// Times are in-process, without reading files or starting an interpreter.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "support/gzip_text.h"
#include "support/shared_data.h"
#include "text/bpe_apply.h"
#include "text/bpe_learn.h"

namespace rt = rnnsearch::testing;
namespace tx = rnnsearch::text;

namespace {



double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Timing {
  double wall, cpu;  // medians, seconds
};

template <typename F>
Timing median_seconds(int runs, F&& f) {
  std::vector<double> wall, cpu;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_seconds();
    f();
    cpu.push_back(thread_cpu_seconds() - cpu_start);
    wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return {rt::median(wall), rt::median(cpu)};
}

void report(const char* task, std::size_t lines, Timing t, double reference) {
  std::printf("%-32s %7zu %8.3f %8.3f %10.0f", task, lines, t.wall, t.cpu, lines / t.wall);
  if (reference > 0) {
    std::printf(" %12.2f %8.1fx\n", reference, reference / t.wall);
  } else {
    std::printf(" %12s %9s\n", "-", "-");
  }
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--runs")) runs = std::max(1, std::atoi(argv[i + 1]));
    if (!std::strcmp(argv[i], "--only")) only = argv[i + 1];
  }
  const std::string dir = rt::shared_path("golden/bpe/");
  const auto de = rt::gunzip_lines(dir + "input/train.tok.de.gz");
  const auto en = rt::gunzip_lines(dir + "input/train.tok.en.gz");
  if (de.size() != 29000 || en.size() != 29000) {
    std::fprintf(stderr, "bpe_bench: could not read golden/bpe/input/train.tok.{de,en}.gz under %s\n",
                 rt::shared_dir().c_str());
    return 1;
  }
  std::vector<std::string> joint = de;
  joint.insert(joint.end(), en.begin(), en.end());
  std::vector<std::string> tok100k;
  while (tok100k.size() < 100000) tok100k.push_back(joint[tok100k.size() % joint.size()]);

  std::printf("BPE, median of %d runs, 1 thread\n", runs);
  std::printf("%-32s %7s %8s %8s %10s %12s %9s\n", "task", "lines", "wall s", "cpu s", "lines/s", "subword-nmt",
              "speed-up");

  std::size_t merges = 0;
  if (only != "apply") {
    auto learn_on = [&](const std::vector<std::string>& lines) {
      return median_seconds(runs, [&] {
        tx::WordCounter counter;
        for (const auto& line : lines) counter.add_line(line);
        tx::BpeLearnOptions options;
        options.symbols = 8000;
        merges = tx::learn_bpe(counter.counts(), options).merges.size();
      });
    };
    report("learn 8000 merges, train de+en", joint.size(), learn_on(joint), 10.72);
    report("learn 8000 merges, tok.100k", tok100k.size(), learn_on(tok100k), 0);
  }

  const tx::BpeCodes codes = tx::read_bpe_codes(dir + "codes.8000");
  std::size_t bytes = 0;
  auto apply_all = [&](const std::vector<std::string>& lines) {
    tx::BpeApplier bpe(codes);
    std::string out;
    bytes = 0;
    for (const auto& line : lines) {
      out.clear();
      bpe.apply(line, out);
      bytes += out.size() + 1;
    }
  };
  if (only != "learn") {
    report("apply codes.8000, train en", en.size(), median_seconds(runs, [&] { apply_all(en); }), 0);
    report("apply codes.8000, tok.100k", tok100k.size(), median_seconds(runs, [&] { apply_all(tok100k); }), 2.77);
  }
  std::printf("(learned %zu merges; apply wrote %zu bytes on the last run; lines/s and speed-up from wall "
              "time; cpu s = this thread's CPU time; subword-nmt times: shared/golden/README.md)\n",
              merges, bytes);
  return 0;
}
