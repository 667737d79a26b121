#include "train/data_parallel.h"

#include <exception>
#include <thread>

#include "math/gemm.h"

namespace rnnsearch::train {

DataParallel::DataParallel(model::RnnSearch& master, int threads) {
  replicas_.push_back(&master);
  for (int k = 1; k < threads; ++k) {
    owned_.push_back(std::make_unique<model::RnnSearch>(master.config()));
    replicas_.push_back(owned_.back().get());
  }
  broadcast();
  math::set_gemm_threads(1);
}

void DataParallel::broadcast() {
  for (std::size_t k = 1; k < replicas_.size(); ++k) replicas_[k]->copy_parameters_from(*replicas_[0]);
}

void DataParallel::run(const std::function<void(model::RnnSearch&, int)>& work) {
  std::vector<std::exception_ptr> errors(replicas_.size());
  std::vector<std::thread> workers;
  for (std::size_t k = 1; k < replicas_.size(); ++k) {
    workers.emplace_back([&, k] {
      try {
        work(*replicas_[k], static_cast<int>(k));
      } catch (...) {
        errors[k] = std::current_exception();
      }
    });
  }
  try {
    work(*replicas_[0], 0);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto& worker : workers) worker.join();
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

nn::CrossEntropySum DataParallel::gradients(const data::ParallelCorpus& corpus, const std::vector<std::size_t>& indices,
                                            const model::LossOptions& options, std::uint64_t seed, long update) {
  const auto parts = data::split_for_threads(corpus, indices, threads());
  std::size_t total_tokens = 0;
  for (const std::size_t i : indices) total_tokens += corpus.target[i].size() + 1;
  const float scale = 1.0f / static_cast<float>(total_tokens);
  std::vector<nn::CrossEntropySum> sums(replicas_.size());
  run([&](model::RnnSearch& replica, int k) {
    replica.parameters().zero_gradients();
    if (static_cast<std::size_t>(k) >= parts.size()) return;
    const data::Batch batch = data::make_batch(corpus, parts[static_cast<std::size_t>(k)]);
    util::Rng rng((seed * 1000003ull + static_cast<std::uint64_t>(update)) * 64ull + static_cast<std::uint64_t>(k));
    sums[static_cast<std::size_t>(k)] = replica.loss(batch, options, scale, &rng);
  });
  nn::CrossEntropySum total;
  const auto master = replicas_[0]->parameters().all();
  for (std::size_t k = 0; k < replicas_.size(); ++k) {
    total.loss += sums[k].loss;
    total.tokens += sums[k].tokens;
    if (k == 0) continue;
    const auto theirs = replicas_[k]->parameters().all();
    for (std::size_t p = 0; p < master.size(); ++p) master[p]->gradient += theirs[p]->gradient;
  }
  return total;
}

}  // namespace rnnsearch::train
