#include "model/average.h"

#include "util/error.h"

namespace rnnsearch::model {

void AverageOptions::validate() const {
  if (models.empty()) throw util::UsageError("give the model files to average");
  if (output.empty()) throw util::UsageError("--output must name the file to write");
}

void check_same_model(const LoadedModel& first, const std::string& first_path, const LoadedModel& other,
                      const std::string& path) {
  const std::string mine = other.model->config().summary(), theirs = first.model->config().summary();
  if (mine != theirs) {
    throw util::Error(path, "has another model (" + mine + ") than " + first_path + " (" + theirs +
                                "): only models of one training run can be averaged");
  }
  if (!(other.source_vocabulary == first.source_vocabulary) || !(other.target_vocabulary == first.target_vocabulary)) {
    throw util::Error(path, "has other vocabularies than " + first_path +
                                ": only models of one training run can be averaged");
  }
  const auto a = first.model->parameters().all();
  const auto b = other.model->parameters().all();
  for (std::size_t i = 0; i < a.size() || i < b.size(); ++i) {
    if (i >= a.size() || i >= b.size() || a[i]->name != b[i]->name || a[i]->value.rows() != b[i]->value.rows() ||
        a[i]->value.cols() != b[i]->value.cols()) {
      throw util::Error(path, "has other parameters than " + first_path + " (at " +
                                  (i < b.size() ? b[i]->name : std::string("the end")) + ")");
    }
  }
}

void average_models(const AverageOptions& options) {
  options.validate();
  LoadedModel first = read_model_file(options.models[0]);
  const auto parameters = first.model->parameters().all();
  std::vector<std::vector<double>> sums;
  for (const nn::Parameter* p : parameters) sums.emplace_back(p->value.data(), p->value.data() + p->value.size());
  for (std::size_t m = 1; m < options.models.size(); ++m) {
    const LoadedModel other = read_model_file(options.models[m]);
    check_same_model(first, options.models[0], other, options.models[m]);
    const auto theirs = other.model->parameters().all();
    for (std::size_t i = 0; i < theirs.size(); ++i) {
      const float* values = theirs[i]->value.data();
      for (std::size_t k = 0; k < sums[i].size(); ++k) sums[i][k] += static_cast<double>(values[k]);
    }
  }
  const double count = static_cast<double>(options.models.size());
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    float* values = parameters[i]->value.data();
    for (std::size_t k = 0; k < sums[i].size(); ++k) values[k] = static_cast<float>(sums[i][k] / count);
  }
  write_model_file(options.output, FileKind::kModel, *first.model, first.source_vocabulary, first.target_vocabulary,
                   first.training_options, first.source_profile);
}

}  // namespace rnnsearch::model
