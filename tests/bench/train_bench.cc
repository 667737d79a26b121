// Benchmark (not a test): training throughput of RNNsearch on real Multi30k batches in
// the benchmark configuration (emb 256, encoder 256 per direction, decoder 512, attention
// 512, maxout 256, 64 sentences per batch), the GFLOP/s its matrix products achieve
// (model/flops.h counts them), and the ratio to the SGEMM rate measured in the same run
// on the same threads (each thread multiplying on its own, as training does).
//
//   build/bench/train_bench --src train.bpe.de --tgt train.bpe.en [--threads 2]
//                           [--updates 150] [--warmup 20] [--load 0] [--attention additive]
//                           [--precision fp32,bf16]
// --precision: the precisions to train in, one after the other on fresh models with the
// same batches (default fp32, and bf16 where the CPU has it); one row each, with its
// ratio to the SGEMM rate of the same run.
// Inputs: tokenized, BPE'd training text (scripts/bench-train.sh prepares it and runs the
// PyTorch implementation beside this program).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "data/batch.h"
#include "data/parallel_corpus.h"
#include "math/gemm.h"
#include "math/product_precision.h"
#include "model/flops.h"
#include "model/rnnsearch.h"
#include "nn/optimizer.h"
#include "support/busy_load.h"
#include "support/gzip_text.h"
#include "support/sgemm_rate.h"
#include "tools/support/gemm_choice.h"
#include "train/data_parallel.h"
#include "train/work_split.h"
#include "util/allocator.h"

using namespace rnnsearch;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

struct Options {
  std::string source, target;
  std::string attention = nn::attention_form_name(model::ModelOptions{}.attention_form);  // nmt-train --attention
  int threads = 2, updates = 150, warmup = 20, load = 0, runs = 5;
  std::vector<std::string> precisions;
};

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1) {
    parts.push_back(text.substr(start, comma - start));
  }
  parts.push_back(text.substr(start));
  return parts;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--src") o.source = value;
    else if (flag == "--tgt") o.target = value;
    else if (flag == "--threads") o.threads = std::atoi(value);
    else if (flag == "--updates") o.updates = std::atoi(value);
    else if (flag == "--warmup") o.warmup = std::atoi(value);
    else if (flag == "--load") o.load = std::atoi(value);
    else if (flag == "--runs") o.runs = std::atoi(value);
    else if (flag == "--attention") o.attention = value;
    else if (flag == "--precision") o.precisions = split_commas(value);
  }
  if (o.precisions.empty()) {
    o.precisions = {"fp32"};
    if (math::bf16_products_available()) o.precisions.emplace_back("bf16");
  }
  return o;
}

struct Measured {
  double median_rate = 0;  // target tokens/s, median of 10-update windows
  double achieved = 0;     // model GFLOP/s
};

void add_flops(const data::ParallelCorpus& corpus, const std::vector<std::size_t>& indices, int threads,
               const model::ModelOptions& config, model::FlopCount& flops) {
  // FLOPs of the products each thread ran on its part of the batch.
  for (const auto& part : train::split_by_cost(corpus, indices, threads, config)) {
    const data::Batch batch = data::make_batch(corpus, part);
    model::BatchShape shape{batch.sentences, batch.source_length, batch.target_length,
                            static_cast<long>(batch.target_tokens()), static_cast<long>(batch.source_mask.sum())};
    const model::FlopCount f = model::training_flops(config, shape);
    flops.encoder += f.encoder;
    flops.attention += f.attention;
    flops.attention_vectors += f.attention_vectors;
    flops.decoder_recurrence += f.decoder_recurrence;
    flops.deep_output += f.deep_output;
    flops.softmax_layer += f.softmax_layer;
  }
}

void print_flops(const model::FlopCount& flops, double tokens, double counted_flops) {
  std::printf("model FLOPs per target token: %.2f M (encoder %.2f, attention %.2f + %.2f in vector products, "
              "decoder GRU %.2f, deep output %.2f, softmax layer %.2f)\n",
              flops.total() / tokens / 1e6, flops.encoder / tokens / 1e6, flops.attention / tokens / 1e6,
              flops.attention_vectors / tokens / 1e6, flops.decoder_recurrence / tokens / 1e6,
              flops.deep_output / tokens / 1e6, flops.softmax_layer / tokens / 1e6);
  std::printf("cross-check: math::gemm multiplied %.2f M FLOPs per target token, %.2f%% of the count's matrix "
              "products\n", counted_flops / tokens / 1e6, 100.0 * counted_flops / flops.matrix_products());
}

// Trains a fresh model (same seed, same batches) for warmup + updates updates with its
// products in `precision`, and prints what it measured.
Measured measure(const data::ParallelCorpus& corpus, const model::ModelOptions& config, const Options& options,
                 math::Precision precision) {
  model::RnnSearch net(config);
  util::Rng rng(1234);
  net.initialize(model::Initialization::kXavier, rng);
  train::DataParallel workers(net, options.threads);
  nn::Adam adam;
  data::BatchingOptions batching;  // 64 sentences, sorted in windows of 20 batches
  const auto batches = data::epoch_batches(corpus, batching, 1234, 0);
  model::LossOptions loss_options;
  loss_options.dropout = 0.2f;
  loss_options.precision = precision;
  const int total = std::min<int>(options.warmup + options.updates, static_cast<int>(batches.size()));
  double tokens = 0, seconds = 0, loss = 0;
  model::FlopCount flops;
  double counted_flops = 0;  // what math::gemm actually multiplied
  std::vector<double> window_rates;
  double window_tokens = 0, window_seconds = 0;
  for (int u = 0; u < total; ++u) {
    const auto& indices = batches[static_cast<std::size_t>(u)];
    const double flops_before = math::gemm_flops_done();
    const auto start = Clock::now();
    const auto gradients = workers.gradients(corpus, indices, loss_options, 1234, u);
    workers.apply_update(adam, 1e-3f, gradients.norm, 1.0);
    const double elapsed = seconds_since(start);
    if (u < options.warmup) continue;
    counted_flops += math::gemm_flops_done() - flops_before;
    const auto& sum = gradients.loss;
    tokens += static_cast<double>(sum.tokens);
    loss += sum.loss;
    seconds += elapsed;
    window_tokens += static_cast<double>(sum.tokens);
    window_seconds += elapsed;
    if ((u - options.warmup + 1) % 10 == 0) {
      window_rates.push_back(window_tokens / window_seconds);
      window_tokens = window_seconds = 0;
    }
    add_flops(corpus, indices, options.threads, config, flops);
  }
  // A corpus with fewer batches than warm-up + 10 updates leaves no window: the overall rate.
  Measured result{window_rates.empty() ? tokens / seconds : testing::median(window_rates), flops.total() / seconds / 1e9};
  std::printf("updates timed: %d (after %d warm-up), target tokens %.0f, %.2f s, training cross-entropy %.4f\n",
              total - options.warmup, options.warmup, tokens, seconds, loss / tokens);
  std::printf("throughput: %.0f target tokens/s overall, %.0f median of 10-update windows\n", tokens / seconds,
              result.median_rate);
  print_flops(flops, tokens, counted_flops);
  std::printf("achieved: %.1f GFLOP/s\n", result.achieved);
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  rnnsearch::tools::select_gemm_kernels(argv);
  const Options options = parse(argc, argv);
  util::keep_freed_memory_for_reuse();
  if (options.updates < 10 || options.warmup < 0 || options.threads < 1) {
    std::fprintf(stderr, "train_bench: --updates must be at least 10 (rates are medians of 10-update windows), "
                         "--warmup at least 0 and --threads at least 1\n");
    return 2;
  }
  if (options.source.empty() || options.target.empty()) {
    std::fprintf(stderr, "usage: train_bench --src train.bpe.de --tgt train.bpe.en [--threads N] [--updates N] "
                         "[--warmup N] [--load N] [--runs N] [--attention FORM] [--precision fp32,bf16]\n");
    return 2;
  }
  const auto source_vocabulary = data::Vocabulary::from_text_files({options.source});
  const auto target_vocabulary = data::Vocabulary::from_text_files({options.target});
  data::CorpusOptions corpus_options;  // 50 tokens, longer pairs skipped, as the PyTorch peer does
  const auto corpus = data::read_parallel_corpus(options.source, options.target, source_vocabulary, target_vocabulary,
                                                 corpus_options);
  model::ModelOptions config;  // the defaults are the benchmark configuration
  config.source_vocabulary = static_cast<int>(source_vocabulary.size());
  config.target_vocabulary = static_cast<int>(target_vocabulary.size());
  config.attention_form = model::parse_attention_form(options.attention);
  std::vector<math::Precision> precisions;
  for (const std::string& name : options.precisions) precisions.push_back(math::parse_training_precision(name));
  for (const math::Precision precision : precisions) {
    try {
      math::check_precision_available(precision);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "train_bench: %s\n", error.what());
      return 1;
    }
  }
  std::printf("RNNsearch training, %s; %zu pairs; %d thread(s), %d busy threads beside it\n", config.summary().c_str(),
              corpus.size(), options.threads, options.load);
  const testing::BusyLoad busy(options.load);
  std::vector<Measured> results;
  for (const math::Precision precision : precisions) {
    std::printf("== %s products\n", math::precision_name(precision));
    results.push_back(measure(corpus, config, options, precision));
  }
  const double square = testing::concurrent_sgemm_rate(options.threads, 1024, 1024, 1024, options.runs);
  const double step = testing::concurrent_sgemm_rate(options.threads, 64 / options.threads, 1536, 512, options.runs);
  std::printf("SGEMM (%s), %d thread(s) each multiplying alone: %.1f GFLOP/s at 1024x1024x1024, %.1f at the decoder "
              "step %dx1536x512\n", math::gemm_backend(), options.threads, square, step, 64 / options.threads);
  std::printf("precision  tokens/s (median)  model GFLOP/s  ratio to SGEMM 1024^3  ratio to decoder-step SGEMM\n");
  for (std::size_t i = 0; i < results.size(); ++i) {
    std::printf("%-9s  %17.0f  %13.1f  %21.2f  %27.2f\n", math::precision_name(precisions[i]), results[i].median_rate,
                results[i].achieved, results[i].achieved / square, results[i].achieved / step);
  }
  for (std::size_t i = 0; i < results.size(); ++i) {
    std::printf("RESULT precision=%s median_tokens_per_second=%.0f gflops=%.1f sgemm=%.1f ratio=%.3f\n",
                math::precision_name(precisions[i]), results[i].median_rate, results[i].achieved, square,
                results[i].achieved / square);
  }
  return 0;
}
