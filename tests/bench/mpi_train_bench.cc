// Benchmark (not a test): training updates per second across processes, run under
// mpirun (scripts/bench-mpi.sh runs it with 1 and 2 processes and prints the scaling
// efficiency). The benchmark configuration of train_bench (emb 256, encoder 256 per
// direction, decoder 512, attention 512, maxout 256, dropout 0.2) on real Multi30k
// batches of --mini-batch sentences in all (the global batch, cut across the processes),
// the whole update timed: gradients, the all-reduce, clipping and Adam. Rank 0 prints.
//
//   mpirun -np N build/bench/mpi_train_bench --src train.bpe.de --tgt train.bpe.en
//          [--threads 1] [--mini-batch 64] [--updates 100] [--warmup 10]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "data/batch.h"
#include "data/parallel_corpus.h"
#include "model/rnnsearch.h"
#include "nn/optimizer.h"
#include "tools/support/gemm_choice.h"
#include "train/data_parallel.h"
#include "train/process_group.h"
#include "util/allocator.h"

using namespace rnnsearch;

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string source, target;
  int threads = 1, mini_batch = 64, updates = 100, warmup = 10;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--src") o.source = value;
    else if (flag == "--tgt") o.target = value;
    else if (flag == "--threads") o.threads = std::atoi(value);
    else if (flag == "--mini-batch") o.mini_batch = std::atoi(value);
    else if (flag == "--updates") o.updates = std::atoi(value);
    else if (flag == "--warmup") o.warmup = std::atoi(value);
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  rnnsearch::tools::select_gemm_kernels(argv);
  const Options options = parse(argc, argv);
  util::keep_freed_memory_for_reuse();
  if (options.source.empty() || options.target.empty()) {
    std::fprintf(stderr, "usage: [mpirun -np N] mpi_train_bench --src train.bpe.de --tgt train.bpe.en [--threads N] "
                         "[--mini-batch N] [--updates N] [--warmup N]\n");
    return 2;
  }
  const auto group = train::ProcessGroup::join_launched();
  const auto source_vocabulary = data::Vocabulary::from_text_files({options.source});
  const auto target_vocabulary = data::Vocabulary::from_text_files({options.target});
  const auto corpus = data::read_parallel_corpus(options.source, options.target, source_vocabulary, target_vocabulary,
                                                 data::CorpusOptions{});
  model::ModelOptions config;  // the defaults are the benchmark configuration
  config.source_vocabulary = static_cast<int>(source_vocabulary.size());
  config.target_vocabulary = static_cast<int>(target_vocabulary.size());
  model::RnnSearch net(config);
  util::Rng rng(1234);
  net.initialize(model::Initialization::kXavier, rng);
  train::DataParallel workers(net, options.threads, *group);
  nn::Adam adam;
  data::BatchingOptions batching;
  batching.sentences = options.mini_batch;
  const auto batches = data::epoch_batches(corpus, batching, 1234, 0);
  model::LossOptions loss_options;
  loss_options.dropout = 0.2f;

  const std::size_t parameters = net.parameters().scalar_count();
  const double gradient_bytes = static_cast<double>(parameters * sizeof(float));
  const int total = std::min<int>(options.warmup + options.updates, static_cast<int>(batches.size()));
  double seconds = 0.0, sum_seconds = 0.0, tokens = 0.0;
  for (int u = 0; u < total; ++u) {
    const auto start = Clock::now();
    const auto gradients = workers.gradients(corpus, batches[static_cast<std::size_t>(u)], loss_options, 1234, u);
    workers.apply_update(adam, 1e-3f, gradients.norm, 1.0);
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (u < options.warmup) continue;
    seconds += elapsed;
    sum_seconds += gradients.sum_seconds;
    tokens += static_cast<double>(gradients.loss.tokens);
  }
  // The all-reduce alone, after the processes have met (a first sum waits for the
  // slowest): what sending the gradients costs without waiting for anyone.
  double bare_seconds = 0.0;
  constexpr int kBareRounds = 10;
  if (group->size() > 1) {
    double meet = 0.0;
    group->sum(&meet, 1);
    const auto start = Clock::now();
    for (int round = 0; round < kBareRounds; ++round) {
      for (nn::Parameter* parameter : net.parameters().all()) {
        group->sum(parameter->gradient.data(), static_cast<std::size_t>(parameter->gradient.size()));
      }
    }
    bare_seconds = std::chrono::duration<double>(Clock::now() - start).count() / kBareRounds;
  }
  if (!group->is_root()) return 0;
  const int timed = total - options.warmup;
  const int processes = group->size();
  std::printf("RNNsearch training, %s; %zu pairs; %d process(es) x %d thread(s), global batch %d sentences\n",
              config.summary().c_str(), corpus.size(), processes, options.threads, options.mini_batch);
  std::printf("parameters: %zu; gradient per update: %.1f MB (4 bytes each), all-reduced; a ring all-reduce "
              "sends and receives %.1f MB per process\n",
              parameters, gradient_bytes / 1e6, 2.0 * (processes - 1) / processes * gradient_bytes / 1e6);
  std::printf("updates timed: %d (after %d warm-up): %.2f s, %.3f updates/s, %.0f target tokens/s\n", timed,
              options.warmup, seconds, timed / seconds, tokens / seconds);
  std::printf("in the all-reduce (sending, and waiting for the slowest process): %.1f ms per update (%.1f%%); "
              "the all-reduce alone: %.1f ms (%.2f GB/s of gradients)\n",
              1e3 * sum_seconds / timed, 100.0 * sum_seconds / seconds, 1e3 * bare_seconds,
              bare_seconds > 0 ? gradient_bytes / bare_seconds / 1e9 : 0.0);
  std::printf("RESULT processes=%d threads=%d mini_batch=%d updates_per_second=%.4f tokens_per_second=%.0f "
              "allreduce_ms=%.2f bare_allreduce_ms=%.2f gradient_bytes=%.0f\n",
              processes, options.threads, options.mini_batch, timed / seconds, tokens / seconds,
              1e3 * sum_seconds / timed, 1e3 * bare_seconds, gradient_bytes);
  return 0;
}
