#pragma once
// An ensemble: several models with one target vocabulary, each thread's copies of them, and
// how one decoder step combines their log-probabilities. Equal weights (the default)
// average them, (lp_1 + ... + lp_n) / n in float; weights w_m average them with the
// normalized weights, sum_m (w_m / W) lp_m, W = sum_m w_m. Equal weights given explicitly
// take the first path, so they print the same bytes as no weights. Marian's --weights sum
// w_m lp_m without the division: the ranking is the same, the scale W times ours.
#include <string>
#include <vector>

#include "math/precision.h"
#include "math/types.h"
#include "model/model_file.h"
#include "model/replicas.h"

namespace rnnsearch::search {

// The largest weight --weights takes (a weight is in (0, kMaxEnsembleWeight]).
constexpr double kMaxEnsembleWeight = 1e6;

// Throws util::UsageError "--weights: 2 values for 3 models" or "--weights must be in
// (0, 1e+06], got 0". Empty `weights` pass (equal weights).
void check_ensemble_weights(const std::vector<double>& weights, std::size_t models);

// The weights combine_members multiplies by: empty when all are equal (or none given),
// else w_m / W in float.
std::vector<float> member_factors(const std::vector<double>& weights);

// out = the combination above of the members' matrices (all of one shape); `factors` as
// member_factors returns them. One member: a copy.
void combine_members(const std::vector<const math::Matrix*>& members, const std::vector<float>& factors,
                     math::Matrix& out);

// The models of `paths`; throws util::Error naming a file whose target vocabulary differs
// from the first's.
std::vector<model::LoadedModel> read_ensemble(const std::vector<std::string>& paths);

// Thread k runs members[k]: the loaded models for k = 0, copies of them after, all
// multiplying in `precision`.
struct ThreadModels {
  std::vector<model::Replicas> replicas;
  std::vector<std::vector<model::RnnSearch*>> members;

  ThreadModels(std::vector<model::LoadedModel>& models, int threads, math::Precision precision);
};

}  // namespace rnnsearch::search
