#pragma once
// The project's random numbers: xoshiro256** seeded through splitmix64, with our own
// uniform and Gaussian transforms, so a seed gives the same numbers on every platform
// and standard library (std::normal_distribution does not promise that). The state is
// four words, saved in checkpoints for exact resume.
#include <array>
#include <cstdint>

namespace rnnsearch::util {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 1);

  // Inline: dropout masks draw one per two entries, millions per update.
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1) with 24 random bits.
  float uniform();
  // Uniform integer in [0, n), unbiased.
  std::uint64_t below(std::uint64_t n);
  // Standard normal (Box-Muller; the second value of each pair is kept for the next call).
  float normal();

  using State = std::array<std::uint64_t, 5>;  // 4 words + the cached normal's bits and flag
  State state() const;
  void set_state(const State& state);

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  std::array<std::uint64_t, 4> s_{};
  bool has_spare_ = false;
  float spare_ = 0.0f;
};

}  // namespace rnnsearch::util
