#include "search/ensemble.h"

#include "util/error.h"
#include "util/number_format.h"

namespace rnnsearch::search {

void check_ensemble_weights(const std::vector<double>& weights, std::size_t models) {
  if (weights.empty()) return;
  if (weights.size() != models) {
    throw util::UsageError("--weights: " + std::to_string(weights.size()) + (weights.size() == 1 ? " value" : " values") +
                           " for " + std::to_string(models) + (models == 1 ? " model" : " models"));
  }
  for (const double w : weights) {
    if (!(w > 0.0 && w <= kMaxEnsembleWeight)) {
      throw util::UsageError("--weights must be in (0, " + util::general(kMaxEnsembleWeight) + "], got " +
                             util::general(w));
    }
  }
}

std::vector<float> member_factors(const std::vector<double>& weights) {
  bool equal = true;
  double total = 0.0;
  for (const double w : weights) {
    equal = equal && w == weights.front();
    total += w;
  }
  if (equal) return {};
  std::vector<float> factors;
  for (const double w : weights) factors.push_back(static_cast<float>(w / total));
  return factors;
}

void combine_members(const std::vector<const math::Matrix*>& members, const std::vector<float>& factors,
                     math::Matrix& out) {
  if (factors.empty()) {
    out = *members[0];
    if (members.size() == 1) return;
    for (std::size_t m = 1; m < members.size(); ++m) out += *members[m];
    out /= static_cast<float>(members.size());
    return;
  }
  out = factors[0] * *members[0];
  for (std::size_t m = 1; m < members.size(); ++m) out += factors[m] * *members[m];
}

std::vector<model::LoadedModel> read_ensemble(const std::vector<std::string>& paths) {
  std::vector<model::LoadedModel> models;
  for (const auto& path : paths) {
    models.push_back(model::read_model_file(path));
    if (!(models.back().target_vocabulary == models.front().target_vocabulary)) {
      throw util::Error(path, "its target vocabulary (" + std::to_string(models.back().target_vocabulary.size()) +
                                  " entries) differs from that of " + paths.front() + " (" +
                                  std::to_string(models.front().target_vocabulary.size()) +
                                  "): an ensemble needs the same target vocabulary");
    }
  }
  return models;
}

ThreadModels::ThreadModels(std::vector<model::LoadedModel>& models, int threads, math::Precision precision)
    : members(static_cast<std::size_t>(threads)) {
  for (auto& m : models) replicas.emplace_back(*m.model, threads);
  for (std::size_t k = 0; k < members.size(); ++k) {
    for (auto& r : replicas) {
      members[k].push_back(&r[k]);
      if (r[k].inference_precision() != precision) r[k].set_inference_precision(precision);
    }
  }
}

}  // namespace rnnsearch::search
