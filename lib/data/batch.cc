#include "data/batch.h"

#include <algorithm>
#include <numeric>

#include "util/error.h"
#include "util/rng.h"

namespace rnnsearch::data {

namespace {

// Fisher-Yates with the project's generator (std::shuffle's algorithm is not specified).
template <typename T>
void shuffle_items(std::vector<T>& items, util::Rng& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    std::swap(items[i - 1], items[static_cast<std::size_t>(rng.below(i))]);
  }
}

}  // namespace

std::size_t Batch::target_tokens() const {
  return static_cast<std::size_t>(target_mask.sum() + 0.5f);
}

Batch make_batch(const std::vector<std::vector<std::int32_t>>& source,
                 const std::vector<std::vector<std::int32_t>>* target, const std::vector<std::size_t>& indices,
                 const std::vector<Alignment>* alignments) {
  Batch batch;
  const int B = static_cast<int>(indices.size());
  batch.sentences = B;
  batch.indices = indices;
  std::size_t source_length = 0, target_length = 0;
  for (const std::size_t i : indices) {
    source_length = std::max(source_length, source[i].size() + 1);
    if (target) target_length = std::max(target_length, (*target)[i].size() + 1);
  }
  batch.source_length = static_cast<int>(source_length);
  batch.source.assign(source_length * B, Vocabulary::kPad);
  batch.source_mask.setZero(static_cast<Eigen::Index>(source_length), B);
  for (int b = 0; b < B; ++b) {
    const auto& sentence = source[indices[b]];
    for (std::size_t t = 0; t <= sentence.size(); ++t) {
      batch.source[t * B + b] = t < sentence.size() ? sentence[t] : Vocabulary::kEos;
      batch.source_mask(static_cast<Eigen::Index>(t), b) = 1.0f;
    }
  }
  if (!target) return batch;
  batch.target_length = static_cast<int>(target_length);
  batch.target_input.assign(target_length * B, Vocabulary::kPad);
  batch.target_output.assign(target_length * B, Vocabulary::kPad);
  batch.target_mask.setZero(static_cast<Eigen::Index>(target_length), B);
  for (int b = 0; b < B; ++b) {
    const auto& sentence = (*target)[indices[b]];
    for (std::size_t t = 0; t <= sentence.size(); ++t) {
      batch.target_input[t * B + b] = t == 0 ? Vocabulary::kBos : sentence[t - 1];
      batch.target_output[t * B + b] = t < sentence.size() ? sentence[t] : Vocabulary::kEos;
      batch.target_mask(static_cast<Eigen::Index>(t), b) = 1.0f;
    }
  }
  if (!alignments) return batch;
  if (alignments->size() != source.size()) {
    throw util::Error("make_batch: " + std::to_string(alignments->size()) + " alignments for " +
                      std::to_string(source.size()) + " sentences");
  }
  batch.guide.setZero(static_cast<Eigen::Index>(target_length) * B, static_cast<Eigen::Index>(source_length));
  std::vector<int> links_of_target;
  for (int b = 0; b < B; ++b) {
    const std::size_t i = indices[b];
    const Alignment& links = (*alignments)[i];
    const int source_pieces = static_cast<int>(source[i].size()), target_pieces = static_cast<int>((*target)[i].size());
    links_of_target.assign(static_cast<std::size_t>(target_pieces), 0);
    for (const Link& link : links) {
      if (link.source < 0 || link.source >= source_pieces || link.target < 0 || link.target >= target_pieces) {
        throw util::Error("make_batch: link " + std::to_string(link.source) + "-" + std::to_string(link.target) +
                          " of sentence " + std::to_string(i) + " is outside its " + std::to_string(source_pieces) +
                          " x " + std::to_string(target_pieces) + " pieces");
      }
      ++links_of_target[static_cast<std::size_t>(link.target)];
    }
    for (const Link& link : links) {
      batch.guide(static_cast<Eigen::Index>(link.target) * B + b, link.source) =
          1.0f / static_cast<float>(links_of_target[static_cast<std::size_t>(link.target)]);
    }
  }
  return batch;
}

std::vector<std::vector<std::size_t>> batches_by_length(const std::vector<std::vector<std::int32_t>>& sentences,
                                                        int batch_size) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < sentences.size(); ++i) {
    if (!sentences[i].empty()) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return sentences[a].size() < sentences[b].size(); });
  const std::size_t size = static_cast<std::size_t>(std::max(1, batch_size));
  std::vector<std::vector<std::size_t>> batches;
  for (std::size_t begin = 0; begin < order.size(); begin += size) {
    batches.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(begin),
                         order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), begin + size)));
  }
  return batches;
}

std::vector<std::vector<std::size_t>> epoch_batches(const ParallelCorpus& corpus, const BatchingOptions& options,
                                                    std::uint64_t seed, long epoch) {
  if (options.sentences < 1 && options.target_tokens < 1) throw util::Error("batch size must be positive");
  util::Rng rng(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(epoch) + 1);
  std::vector<std::size_t> order(corpus.size());
  std::iota(order.begin(), order.end(), 0);
  if (options.shuffle) shuffle_items(order, rng);

  // A window holds about sort_window batches' worth of sentences.
  std::size_t window = static_cast<std::size_t>(std::max(1, options.sort_window));
  if (options.target_tokens > 0) {
    const double mean_tokens = static_cast<double>(corpus.target_tokens()) / static_cast<double>(corpus.size());
    window *= static_cast<std::size_t>(std::max(1.0, options.target_tokens / mean_tokens));
  } else {
    window *= static_cast<std::size_t>(options.sentences);
  }

  std::vector<std::vector<std::size_t>> batches;
  for (std::size_t begin = 0; begin < order.size(); begin += window) {
    const auto first = order.begin() + static_cast<std::ptrdiff_t>(begin);
    const auto last = order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), begin + window));
    if (options.sort_window > 1) {
      std::stable_sort(first, last, [&](std::size_t a, std::size_t b) {
        if (corpus.target[a].size() != corpus.target[b].size()) return corpus.target[a].size() < corpus.target[b].size();
        return corpus.source[a].size() < corpus.source[b].size();
      });
    }
    std::vector<std::size_t> batch;
    std::size_t longest = 0;
    for (auto it = first; it != last; ++it) {
      const std::size_t length = corpus.target[*it].size() + 1;
      bool full;
      if (options.target_tokens > 0) {
        full = !batch.empty() &&
               std::max(longest, length) * (batch.size() + 1) > static_cast<std::size_t>(options.target_tokens);
      } else {
        full = batch.size() >= static_cast<std::size_t>(options.sentences);
      }
      if (full) {
        batches.push_back(std::move(batch));
        batch.clear();
        longest = 0;
      }
      batch.push_back(*it);
      longest = std::max(longest, length);
    }
    if (!batch.empty()) batches.push_back(std::move(batch));
  }
  if (options.shuffle) shuffle_items(batches, rng);
  return batches;
}

}  // namespace rnnsearch::data
