// Benchmark (not a test): Tokenizer -l en, one thread, on Multi30k train.en (29,000 lines)
// and on 100,000 lines (train.en repeated), beside tokenizer.perl's 4.43 s for those
// 100,000 lines (shared/golden/README.md).
//
//   build/bench/tokenize_bench [--runs N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "support/gzip_text.h"
#include "support/shared_data.h"
#include "text/nonbreaking_prefixes.h"
#include "text/tokenizer.h"

namespace rt = rnnsearch::testing;
namespace text = rnnsearch::text;

namespace {



// Median wall time of `runs` passes over `lines`.
double time_tokenize(const text::Tokenizer& tokenizer, const std::vector<std::string>& lines, int runs) {
  std::vector<double> seconds;
  std::size_t bytes = 0;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (const auto& line : lines) bytes += tokenizer.tokenize(line).size();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (bytes == 0) std::fprintf(stderr, "tokenize_bench: empty output\n");
  return rt::median(seconds);
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
  }
  const std::vector<std::string> train = rt::gunzip_lines(rt::shared_path("data/multi30k/train.en.gz"));
  if (train.empty()) {
    std::fprintf(stderr, "tokenize_bench: could not read Multi30k train.en under %s\n", rt::shared_dir().c_str());
    return 1;
  }
  std::vector<std::string> many;
  while (many.size() < 100000) many.push_back(train[many.size() % train.size()]);

  text::TokenizerOptions options;
  options.language = "en";
  const text::Tokenizer tokenizer(options, text::NonbreakingPrefixes::built_in("en"));

  const double perl_seconds = 4.43;
  std::printf("Tokenizer -l en, 1 thread, median of %d runs\n", runs);
  std::printf("%-28s %10s %12s %14s %10s\n", "input", "lines", "seconds", "lines/s", "vs perl");
  const double t_train = time_tokenize(tokenizer, train, runs);
  std::printf("%-28s %10zu %12.3f %14.0f %10s\n", "train.en", train.size(), t_train, train.size() / t_train, "");
  const double t_many = time_tokenize(tokenizer, many, runs);
  std::printf("%-28s %10zu %12.3f %14.0f %9.1fx\n", "train.en repeated to 100k", many.size(), t_many,
              many.size() / t_many, perl_seconds / t_many);
  std::printf("tokenizer.perl -l en on the 100,000 lines: %.2f s (shared/golden/README.md).\n", perl_seconds);
  return 0;
}
