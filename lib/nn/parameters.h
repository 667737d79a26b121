#pragma once
// Every trainable matrix lives in one registry: name, value, gradient. Optimizers,
// gradient clipping, serialization and gradient checks walk it; layers keep references
// to their own entries. Addresses are stable for the registry's lifetime.
#include <cstddef>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "math/types.h"

namespace rnnsearch::nn {

struct Parameter {
  std::string name;        // "decoder.gru.W_input"
  math::Matrix value;      // [rows x cols]
  math::Matrix gradient;   // same shape; backward passes add into it
};

// Whether a per-step backward pass adds its weight gradients at once (kNow), or leaves
// them to the caller, who adds those of all steps with one large product afterwards
// (kDeferred): the per-step products have only B rows of depth and run far below the
// machine's GEMM rate.
enum class WeightGradients { kNow, kDeferred };

// What a layer's forward pass keeps: everything its backward pass reads
// (kForwardBackward), or only what the forward pass itself needs (kForwardOnly, for
// inference and for a loss without gradients): per-step caches then share one scratch.
enum class Pass { kForwardBackward, kForwardOnly };

// When a parameter's gradient gets its memory: with the parameter (kEager), or at the
// first allocate_gradients or zero_gradients (kOnDemand: a model read for decoding never
// holds a second copy of its size in gradients).
enum class GradientStorage { kEager, kOnDemand };

class ParameterRegistry {
 public:
  explicit ParameterRegistry(GradientStorage storage = GradientStorage::kEager) : storage_(storage) {}

  // A new zero-valued parameter, with a zero gradient of its shape (kEager) or an empty one
  // (kOnDemand). Throws util::Error when the name is taken.
  Parameter& add(const std::string& name, int rows, int cols);
  // Throws util::Error naming the parameter when it does not exist.
  Parameter& get(const std::string& name);
  const Parameter& get(const std::string& name) const;

  // In registration order.
  std::vector<Parameter*> all();
  std::vector<const Parameter*> all() const;

  // Every gradient zero, of its parameter's shape.
  void zero_gradients();
  // Gives every parameter without a gradient a zero one of its shape (kOnDemand); the
  // others keep theirs.
  void allocate_gradients();
  // Total number of scalars.
  std::size_t scalar_count() const;

 private:
  GradientStorage storage_;
  std::deque<Parameter> parameters_;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace rnnsearch::nn
