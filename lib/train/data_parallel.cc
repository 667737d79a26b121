#include "train/data_parallel.h"

#include <chrono>
#include <cmath>

#include "math/gemm.h"
#include "train/work_split.h"
#include "util/parallel.h"

namespace rnnsearch::train {

namespace {

const ProcessGroup& this_process_alone() {
  static const ProcessGroup alone;
  return alone;
}

}  // namespace

DataParallel::DataParallel(model::RnnSearch& master, int threads) : DataParallel(master, threads, this_process_alone()) {}

DataParallel::DataParallel(model::RnnSearch& master, int threads, const ProcessGroup& group) : group_(&group) {
  replicas_.push_back(&master);
  for (int k = 1; k < threads; ++k) {
    owned_.push_back(std::make_unique<model::RnnSearch>(master.config()));
    replicas_.push_back(owned_.back().get());
  }
  for (std::size_t k = 1; k < replicas_.size(); ++k) replicas_[k]->copy_parameters_from(master);
  for (model::RnnSearch* replica : replicas_) replica->parameters().allocate_gradients();  // summed before some have a loss
  math::set_gemm_threads(1);
  // Shards of about equal size: parameter i goes to the thread whose share its middle falls in.
  const auto all = master.parameters().all();
  const double total = static_cast<double>(master.parameters().scalar_count());
  shards_.assign(static_cast<std::size_t>(threads), {0, 0});
  double before = 0.0;
  std::size_t thread = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const double size = static_cast<double>(all[i]->value.size());
    while (thread + 1 < shards_.size() && (before + size / 2) * threads >= total * static_cast<double>(thread + 1)) {
      shards_[thread + 1].first = shards_[thread + 1].second = i;
      ++thread;
    }
    shards_[thread].second = i + 1;
    before += size;
  }
}

void DataParallel::run(const std::function<void(model::RnnSearch&, int)>& work) {
  util::run_on_threads(threads(), [&](int k) {
    if (k > 0) math::set_gemm_threads(1);  // per thread for oneDNN: the parallelism is this pool
    work(*replicas_[static_cast<std::size_t>(k)], k);
  });
}

DataParallel::Gradients DataParallel::gradients(const data::ParallelCorpus& corpus,
                                                const std::vector<std::size_t>& indices,
                                                const model::LossOptions& options, std::uint64_t seed, long update) {
  const auto parts = split_by_cost(corpus, indices, workers(), replicas_[0]->config());
  std::size_t total_tokens = 0;
  for (const std::size_t i : indices) total_tokens += corpus.target[i].size() + 1;
  const float scale = 1.0f / static_cast<float>(total_tokens);
  std::vector<nn::CrossEntropySum> sums(replicas_.size());
  const bool zero_first = !gradients_are_zero_;
  gradients_are_zero_ = false;
  model::LossOptions shared = options;
  if (!options.alignment_head_only) {  // the translation model's backward pass runs
    run([&](model::RnnSearch&, int k) { replicas_[0]->transpose_weights(transposed_, k, threads()); });
    shared.transposed = &transposed_;
  }
  run([&](model::RnnSearch& replica, int k) {
    if (zero_first) replica.parameters().zero_gradients();
    const auto part = static_cast<std::size_t>(worker(k));
    if (part >= parts.size()) return;
    const data::Batch batch = data::make_batch(corpus, parts[part]);
    util::Rng rng((seed * 1000003ull + static_cast<std::uint64_t>(update)) * 64ull + part);
    sums[static_cast<std::size_t>(k)] = replica.loss(batch, shared, scale, &rng);
  });
  Gradients result;
  for (const auto& sum : sums) {
    result.loss.loss += sum.loss;
    result.loss.tokens += sum.tokens;
  }
  // Each thread sums its shard over the replicas (zeroing theirs) and, in this process
  // alone, measures each summed parameter while it is in cache; the figures add up in
  // registry order.
  nn::ParameterRegistry& master = replicas_[0]->parameters();
  const auto all = master.all();
  const bool alone = group_->size() == 1;
  std::vector<double> squares(all.size(), 0.0);
  run([&](model::RnnSearch&, int k) {
    const auto [first, last] = shards_[static_cast<std::size_t>(k)];
    std::vector<std::vector<nn::Parameter*>> theirs;
    for (std::size_t j = 1; j < replicas_.size(); ++j) theirs.push_back(replicas_[j]->parameters().all());
    std::vector<nn::Parameter*> others(theirs.size());
    for (std::size_t p = first; p < last; ++p) {
      for (std::size_t j = 0; j < theirs.size(); ++j) others[j] = theirs[j][p];
      const double square = nn::add_gradients_and_square(*all[p], others);
      if (alone) squares[p] = square;
    }
  });
  if (!alone) {
    const auto start = std::chrono::steady_clock::now();
    for (nn::Parameter* parameter : all) group_->sum(parameter->gradient.data(), static_cast<std::size_t>(parameter->gradient.size()));
    double loss[2] = {result.loss.loss, static_cast<double>(result.loss.tokens)};
    group_->sum(loss, 2);
    result.loss.loss = loss[0];
    result.loss.tokens = static_cast<std::size_t>(loss[1]);
    result.sum_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run([&](model::RnnSearch&, int k) {
      const auto [first, last] = shards_[static_cast<std::size_t>(k)];
      for (std::size_t p = first; p < last; ++p) squares[p] = nn::squared_gradient_norm(master, p, p + 1);
    });
  }
  double square_sum = 0.0;
  for (const double square : squares) square_sum += square;
  result.norm = std::sqrt(square_sum);
  return result;
}

void DataParallel::apply_update(nn::Optimizer& optimizer, float learning_rate, double norm, double clip_norm,
                                nn::ExponentialSmoothing* smoothing) {
  nn::ParameterRegistry& master = replicas_[0]->parameters();
  optimizer.begin_step(master);
  const bool clip = clip_norm > 0.0 && std::isfinite(norm) && norm > clip_norm;
  const auto factor = static_cast<float>(clip ? clip_norm / norm : 1.0);
  std::vector<nn::ParameterRegistry*> copies;
  for (std::size_t k = 1; k < replicas_.size(); ++k) copies.push_back(&replicas_[k]->parameters());
  run([&](model::RnnSearch&, int k) {
    const auto [first, last] = shards_[static_cast<std::size_t>(k)];
    nn::fused_update(optimizer, master, learning_rate, factor, first, last, copies, smoothing);
  });
  gradients_are_zero_ = true;
}

void DataParallel::copy_master_to_replicas() {
  run([&](model::RnnSearch& replica, int k) {
    if (k > 0) replica.copy_parameters_from(*replicas_[0]);
  });
}

}  // namespace rnnsearch::train
