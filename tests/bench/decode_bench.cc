// Benchmark (not a test): nmt-decode's speed through the library (search::translate_stream,
// as the tool runs it) on a BPE'd test set: sentences/s and target tokens/s, median of
// --runs, the GFLOP/s math::gemm achieved, and its share of the SGEMM rate measured in the
// same run on the same threads.
//
//   build/bench/decode_bench --model MODEL --src test.bpe.de [--beam 5] [--threads 2]
//                            [--mini-batch 32] [--runs 3] [--load 0] [--precision fp32] [--shortlist FILE]
// --precision: fp32, int8, bf16 or auto, as nmt-decode's.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "math/gemm.h"
#include "model/model_file.h"
#include "search/translator.h"
#include "support/busy_load.h"
#include "support/gzip_text.h"
#include "support/sgemm_rate.h"
#include "tools/support/gemm_choice.h"
#include "util/allocator.h"
#include "util/line_reader.h"

using namespace rnnsearch;

int main(int argc, char** argv) {
  rnnsearch::tools::select_gemm_kernels(argv);
  util::keep_freed_memory_for_reuse();
  std::string model_path, source, shortlist_path;
  int beam = 5, threads = 2, mini_batch = 32, runs = 3, load = 0;
  math::Precision precision = math::Precision::kFp32;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--model") model_path = value;
    else if (flag == "--src") source = value;
    else if (flag == "--beam") beam = std::atoi(value);
    else if (flag == "--threads") threads = std::atoi(value);
    else if (flag == "--mini-batch") mini_batch = std::atoi(value);
    else if (flag == "--runs") runs = std::atoi(value);
    else if (flag == "--load") load = std::atoi(value);
    else if (flag == "--precision") precision = math::parse_precision(value);
    else if (flag == "--shortlist") shortlist_path = value;
  }
  if (model_path.empty() || source.empty()) {
    std::fprintf(stderr, "usage: decode_bench --model MODEL --src test.bpe.de [--beam N] [--threads N] "
                         "[--mini-batch N] [--runs N] [--load N] [--precision fp32|int8|bf16|auto] [--shortlist FILE]\n");
    return 2;
  }
  std::vector<model::LoadedModel> models;
  models.push_back(model::read_model_file(model_path));
  std::unique_ptr<search::Shortlist> shortlist;
  if (!shortlist_path.empty()) {
    shortlist =
        std::make_unique<search::Shortlist>(data::read_shortlist(shortlist_path), models[0].target_vocabulary);
  }
  search::TranslateOptions config;
  config.beam.beam_size = beam;
  config.beam.batch_size = mini_batch;
  config.threads = threads;
  config.precision = precision;
  const std::size_t sentences = util::read_lines(source).size();
  const std::string output = (std::filesystem::temp_directory_path() / ("decode_bench." + std::to_string(::getpid()))).string();

  const testing::BusyLoad busy(load);
  // Runs alternate between the row-stable products the tools use (a sentence's numbers
  // do not depend on its batch) and the backend's own kernels, to state what the first cost.
  std::vector<double> seconds, backend_seconds;
  double flops = 0;
  for (int r = 0; r < runs; ++r) {
    for (const bool stable : {true, false}) {
      math::allow_row_stable_products(stable);
      const double before = math::gemm_flops_done();
      const auto start = std::chrono::steady_clock::now();
      search::translate_stream(models, config, source, output, {}, shortlist.get());
      (stable ? seconds : backend_seconds)
          .push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      if (stable) flops = math::gemm_flops_done() - before;
    }
  }
  math::allow_row_stable_products(true);
  std::size_t tokens = 0;
  for (const auto& line : util::read_lines(output)) {
    if (!line.empty()) tokens += 1 + static_cast<std::size_t>(std::count(line.begin(), line.end(), ' '));
  }
  std::filesystem::remove(output);
  const double median = testing::median(seconds), backend_median = testing::median(backend_seconds);
  const double sgemm = testing::concurrent_sgemm_rate(threads, 1024, 1024, 1024, 3);
  std::printf("nmt-decode, beam %d, mini-batch %d, %d thread(s), %d busy threads beside it, precision %s%s%s; %s\n",
              beam, mini_batch, threads, load, math::precision_name(precision), shortlist ? ", shortlist " : "",
              shortlist_path.c_str(), models[0].model->config().summary().c_str());
  std::printf("%zu sentences, %zu output tokens (BPE), median of %d runs: %.3f s\n", sentences, tokens, runs, median);
  std::printf("speed (row-stable, as the tools run): %.1f sentences/s, %.0f target tokens/s\n", sentences / median,
              tokens / median);
  std::printf("math::gemm: %.2f GFLOP per run, %.1f GFLOP/s; SGEMM (%s, %d thread(s) each 1024^3): %.1f GFLOP/s; "
              "share %.2f\n", flops / 1e9, flops / median / 1e9, math::gemm_backend(), threads, sgemm,
              flops / median / 1e9 / sgemm);
  std::printf("row-stable products (the tools' setting) against the backend's batch-dependent kernels: %.1f vs %.1f "
              "sentences/s, ratio %.3f (median of %d runs each, alternating)\n",
              sentences / median, sentences / backend_median, backend_median / median, runs);
  std::printf("RESULT sentences_per_second=%.1f tokens_per_second=%.0f share=%.3f\n", sentences / median,
              tokens / median, flops / median / 1e9 / sgemm);
  return 0;
}
