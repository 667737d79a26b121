#include "train/checkpoint.h"

#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

#include "util/error.h"

namespace rnnsearch::train {

namespace {

void write_matrices(boost::archive::binary_oarchive& archive, const std::vector<const math::Matrix*>& matrices) {
  std::uint64_t count = matrices.size();
  archive << count;
  for (const math::Matrix* m : matrices) {
    std::int64_t rows = m->rows(), cols = m->cols();
    archive << rows << cols;
    archive.save_binary(m->data(), static_cast<std::size_t>(m->size()) * sizeof(float));
  }
}

// `what` names the matrices in messages ("optimizer", "smoothed").
std::vector<math::Matrix> read_matrices(model::CheckedBinaryIArchive& archive, const std::string& path,
                                        const std::string& what) {
  std::uint64_t count = 0;
  archive >> count;
  if (count > (1u << 20)) throw util::Error(path, "damaged checkpoint: " + std::to_string(count) + " " + what + " matrices");
  std::vector<math::Matrix> matrices;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::int64_t rows = 0, cols = 0;
    archive >> rows >> cols;
    // No matrix holds more floats than the file has bytes left: checked before allocating,
    // and without rows * cols, which a damaged shape overflows (found by fuzzing).
    const std::uint64_t most_floats = archive.bytes_left() / sizeof(float);
    if (rows < 0 || cols < 0 ||
        (rows > 0 && static_cast<std::uint64_t>(cols) > most_floats / static_cast<std::uint64_t>(rows))) {
      throw util::Error(path, "damaged checkpoint: " + what + " matrix of shape " + std::to_string(rows) + " x " +
                                  std::to_string(cols));
    }
    matrices.emplace_back(rows, cols);
    archive.load_binary(matrices.back().data(), static_cast<std::size_t>(rows * cols) * sizeof(float));
  }
  return matrices;
}

}  // namespace

void write_checkpoint(const std::string& path, const model::RnnSearch& model, const data::Vocabulary& source_vocabulary,
                      const data::Vocabulary& target_vocabulary, const TrainingState& state, nn::Optimizer& optimizer,
                      const std::string& training_options, const data::SourceProfile& source_profile,
                      const nn::ExponentialSmoothing* smoothing) {
  model::write_model_file(path, model::FileKind::kCheckpoint, model, source_vocabulary, target_vocabulary,
                          training_options, source_profile, [&](boost::archive::binary_oarchive& archive) {
                            archive << state;
                            std::string name = optimizer.name();
                            long steps = optimizer.steps();
                            archive << name << steps;
                            const auto matrices = optimizer.state();
                            write_matrices(archive, std::vector<const math::Matrix*>(matrices.begin(), matrices.end()));
                            float decay = smoothing ? smoothing->decay() : 0.0f;
                            archive << decay;
                            std::vector<const math::Matrix*> smoothed;
                            if (smoothing) {
                              for (const math::Matrix& m : smoothing->values()) smoothed.push_back(&m);
                            }
                            write_matrices(archive, smoothed);
                          });
}

LoadedCheckpoint read_checkpoint(const std::string& path) {
  LoadedCheckpoint checkpoint;
  checkpoint.model = model::read_model_file(path, model::FileKind::kCheckpoint, [&](model::CheckedBinaryIArchive& archive) {
    // The archive checks the name's stored length against the bytes left before allocating.
    archive >> checkpoint.state >> checkpoint.optimizer_name;
    if (checkpoint.optimizer_name.size() > 64) {
      throw util::Error(path, "damaged checkpoint: optimizer name of " + std::to_string(checkpoint.optimizer_name.size()) +
                                  " bytes");
    }
    archive >> checkpoint.optimizer_steps;
    checkpoint.optimizer_state = read_matrices(archive, path, "optimizer");
    if (archive.bytes_left() == 0) return;  // written before --exponential-smoothing existed
    archive >> checkpoint.smoothing_decay;
    checkpoint.smoothed = read_matrices(archive, path, "smoothed");
  });
  return checkpoint;
}

void restore_optimizer(const LoadedCheckpoint& checkpoint, nn::Optimizer& optimizer, nn::ParameterRegistry& parameters,
                       const std::string& path) {
  if (checkpoint.optimizer_name != optimizer.name()) {
    throw util::Error(path, "was trained with --optimizer " + checkpoint.optimizer_name + ", resumed with " +
                                optimizer.name());
  }
  optimizer.set_steps(checkpoint.optimizer_steps);
  if (checkpoint.optimizer_state.empty()) return;  // saved before the first update
  optimizer.allocate_state(parameters);
  const auto matrices = optimizer.state();
  if (matrices.size() != checkpoint.optimizer_state.size()) {
    throw util::Error(path, "optimizer state has " + std::to_string(checkpoint.optimizer_state.size()) +
                                " matrices, expected " + std::to_string(matrices.size()));
  }
  for (std::size_t i = 0; i < matrices.size(); ++i) {
    const math::Matrix& saved = checkpoint.optimizer_state[i];
    if (saved.rows() != matrices[i]->rows() || saved.cols() != matrices[i]->cols()) {
      throw util::Error(path, "optimizer state matrix " + std::to_string(i) + " does not fit its parameter");
    }
    *matrices[i] = saved;
  }
}

}  // namespace rnnsearch::train
