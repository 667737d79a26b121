#include "train/work_split.h"

#include <algorithm>
#include <limits>

#include "model/flops.h"

namespace rnnsearch::train {

namespace {

// cost[i][j]: the estimated FLOPs of sentences i..j-1 (i < j) as one padded batch.
std::vector<std::vector<double>> group_costs(const data::ParallelCorpus& corpus, const std::vector<std::size_t>& indices,
                                             const model::ModelOptions& config) {
  const std::size_t n = indices.size();
  std::vector<std::vector<double>> cost(n, std::vector<double>(n + 1, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    model::BatchShape shape;
    for (std::size_t j = i; j < n; ++j) {
      const std::size_t s = indices[j];
      shape.sentences += 1;
      shape.source_length = std::max(shape.source_length, static_cast<int>(corpus.source[s].size() + 1));
      shape.target_length = std::max(shape.target_length, static_cast<int>(corpus.target[s].size() + 1));
      shape.real_source_tokens += static_cast<long>(corpus.source[s].size() + 1);
      shape.real_target_tokens += static_cast<long>(corpus.target[s].size() + 1);
      cost[i][j + 1] = model::training_flops(config, shape).total();
    }
  }
  return cost;
}

}  // namespace

std::vector<std::vector<std::size_t>> split_by_cost(const data::ParallelCorpus& corpus,
                                                    const std::vector<std::size_t>& indices, int parts,
                                                    const model::ModelOptions& config) {
  const std::size_t n = indices.size();
  const std::size_t groups = std::max<std::size_t>(1, std::min<std::size_t>(parts > 0 ? parts : 1, n));
  if (n == 0) return {};
  const auto cost = group_costs(corpus, indices, config);
  // best[g][j]: the smallest largest cost of cutting the first j sentences into g groups;
  // cut[g][j]: where the last of those groups starts.
  const double infinity = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> best(groups + 1, std::vector<double>(n + 1, infinity));
  std::vector<std::vector<std::size_t>> cut(groups + 1, std::vector<std::size_t>(n + 1, 0));
  best[0][0] = 0.0;
  for (std::size_t g = 1; g <= groups; ++g) {
    for (std::size_t j = g; j <= n; ++j) {
      for (std::size_t i = g - 1; i < j; ++i) {
        const double largest = std::max(best[g - 1][i], cost[i][j]);
        if (largest < best[g][j]) {
          best[g][j] = largest;
          cut[g][j] = i;
        }
      }
    }
  }
  std::vector<std::vector<std::size_t>> result(groups);
  std::size_t end = n;
  for (std::size_t g = groups; g > 0; --g) {
    const std::size_t begin = cut[g][end];
    result[g - 1].assign(indices.begin() + static_cast<std::ptrdiff_t>(begin),
                         indices.begin() + static_cast<std::ptrdiff_t>(end));
    end = begin;
  }
  return result;
}

}  // namespace rnnsearch::train
