// Benchmark (not a test): nmt-bleu's wall time for BLEU, chrF and TER on the 100,000-line
// pair the reference timings in shared/golden/README.md were taken on, beside
// sacreBLEU 2.6.0's times from that README (sacreBLEU itself cannot run here: no PyPI).
//
//   build/bench/bleu_bench [--runs N] [--threads N] [--load N]
//
// The pair: Multi30k train en, de, fr, cs joined, first 100,000 lines = reference; the
// hypothesis drops every word (split on ASCII whitespace) whose (position + line number)
// % 5 == 0, both counted from 1. That reproduces the README's figures exactly (BLEU 47.6,
// 100.0/79.2/55.9/31.6, BP 0.778, hyp_len 1009333, ref_len 1262287; chrF2 73.8; TER 20.0).
//
// The README's sacreBLEU times were taken while another 2-thread job ran; --load N runs N
// busy threads of our own during the measurement to reproduce that condition.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_process.h"
#include "support/busy_load.h"
#include "support/gzip_text.h"
#include "support/shared_data.h"

namespace rt = rnnsearch::testing;

namespace {


std::string drop_words(const std::string& line, std::size_t line_number) {
  std::istringstream in(line);
  std::string word, out;
  for (std::size_t pos = 0; in >> word; ++pos) {
    if ((pos + 1 + line_number + 1) % 5 == 0) continue;
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}


}  // namespace

int main(int argc, char** argv) {
  int runs = 5, load = 0;
  std::string threads = "1";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--threads")) threads = argv[i + 1];
    if (!std::strcmp(argv[i], "--load")) load = std::atoi(argv[i + 1]);
  }
  std::vector<std::string> ref;
  for (const char* lang : {"en", "de", "fr", "cs"}) {
    const std::string path = rt::shared_path(std::string("data/multi30k/train.") + lang + ".gz");
    for (auto& line : rt::gunzip_lines(path)) {
      if (ref.size() < 100000) ref.push_back(std::move(line));
    }
  }
  if (ref.size() != 100000) {
    std::fprintf(stderr, "bleu_bench: could not read 100,000 lines of Multi30k under %s\n", rt::shared_dir().c_str());
    return 1;
  }
  const std::string dir = "/tmp/rnnsearch-bleu-bench-" + std::to_string(getpid());
  std::system(("mkdir -p " + dir).c_str());
  {
    std::ofstream r(dir + "/ref.100k"), h(dir + "/hyp.100k");
    for (std::size_t i = 0; i < ref.size(); ++i) {
      r << ref[i] << '\n';
      h << drop_words(ref[i], i) << '\n';
    }
  }

  struct Task {
    const char* name;
    std::vector<std::string> options;
    double sacrebleu_seconds;
  };
  const std::vector<Task> tasks = {
      {"BLEU", {"-f", "text"}, 17.35}, {"chrF", {"-m", "chrf", "-f", "text"}, 33.66}, {"TER", {"-m", "ter", "-f", "text"}, 13.44}};

  const rt::BusyLoad busy(load);

  std::printf("nmt-bleu on 100,000 lines (%s), --threads %s, %d busy threads beside it, median of %d runs\n",
              dir.c_str(), threads.c_str(), load, runs);
  std::printf("%-5s %10s %14s %12s %10s  %s\n", "metric", "seconds", "lines/s", "sacreBLEU s", "speed-up", "score line");
  for (const auto& task : tasks) {
    std::vector<std::string> args = {rt::tool_path("nmt-bleu"), dir + "/ref.100k", "-i", dir + "/hyp.100k", "--threads", threads};
    args.insert(args.end(), task.options.begin(), task.options.end());
    std::vector<double> seconds;
    std::string line;
    for (int r = 0; r < runs; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const auto result = rt::run_process(args);
      seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      if (result.exit_code != 0) {
        std::fprintf(stderr, "bleu_bench: nmt-bleu failed: %s\n", result.err.c_str());
        return 1;
      }
      line = result.out.substr(0, result.out.find('\n'));
    }
    const double m = rt::median(seconds);
    std::printf("%-6s %10.3f %14.0f %12.2f %9.1fx  %s\n", task.name, m, 100000 / m, task.sacrebleu_seconds,
                task.sacrebleu_seconds / m, line.substr(line.find(" = ")).c_str());
  }
  std::printf("sacreBLEU times: shared/golden/README.md (same pair, same machines, under load 2-3.5).\n");
  std::system(("rm -rf " + dir).c_str());
  return 0;
}
