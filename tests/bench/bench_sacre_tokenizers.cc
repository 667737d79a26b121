// Throughput of the sacreBLEU tokenizers. Usage: bench_sacre_tokenizers TEXT [LINES]
// TEXT is plain UTF-8; its lines are cycled to reach LINES (default: the file's).
// Prints, per tokenizer, the best of 5 runs of tokenize() and of tokenize_into().
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "eval/sacre_tokenizers.h"

namespace {

using rnnsearch::eval::SacreTokenizer;

template <typename F>
double best_seconds(F&& run) {
  double best = 1e9;
  for (int rep = 0; rep < 5; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    run();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_sacre_tokenizers TEXT [LINES]\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::vector<std::string_view> file_lines;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    file_lines.emplace_back(text.data() + pos, end - pos);
    pos = end + 1;
  }
  if (file_lines.empty()) return 1;
  const std::size_t count = argc > 2 ? std::stoul(argv[2]) : file_lines.size();
  std::vector<std::string_view> lines;
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < count; ++i) {
    lines.push_back(file_lines[i % file_lines.size()]);
    bytes += lines.back().size();
  }
  std::printf("%zu lines, %.1f MB\n", lines.size(), bytes / 1e6);
  for (const std::string& name : rnnsearch::eval::sacre_tokenizer_names()) {
    const auto tok = rnnsearch::eval::make_sacre_tokenizer(name);
    std::size_t sink = 0;
    const double whole = best_seconds([&] {
      for (std::string_view line : lines) sink += tok->tokenize(line).size();
    });
    std::vector<std::string_view> tokens;
    std::string buffer;
    const double into = best_seconds([&] {
      for (std::string_view line : lines) {
        tok->tokenize_into(line, tokens, buffer);
        sink += tokens.size();
      }
    });
    std::printf("%-5s tokenize %6.1f ms (%4.0f MB/s)  tokenize_into %6.1f ms (%4.0f MB/s)  [%zu]\n",
                name.c_str(), whole * 1e3, bytes / whole / 1e6, into * 1e3, bytes / into / 1e6,
                sink);
  }
  return 0;
}
