#include "util/rng.h"

#include <cmath>
#include <cstring>

namespace rnnsearch::util {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

Rng::Rng(std::uint64_t seed) {
  for (auto& word : s_) word = splitmix64(seed);
}

float Rng::uniform() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }

std::uint64_t Rng::below(std::uint64_t n) {
  __extension__ typedef unsigned __int128 u128;
  u128 m = static_cast<u128>(next()) * n;
  auto low = static_cast<std::uint64_t>(m);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<u128>(next()) * n;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

float Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // u1 in (0, 1] so that log(u1) is finite.
  const double u1 = (static_cast<double>(next() >> 11) + 1.0) * (1.0 / 9007199254740992.0);
  const double u2 = static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0);
  const double radius = std::sqrt(-2.0 * std::log(u1));
  const double angle = 6.283185307179586 * u2;
  spare_ = static_cast<float>(radius * std::sin(angle));
  has_spare_ = true;
  return static_cast<float>(radius * std::cos(angle));
}

Rng::State Rng::state() const {
  std::uint32_t spare_bits;
  std::memcpy(&spare_bits, &spare_, sizeof spare_bits);
  return {s_[0], s_[1], s_[2], s_[3], (static_cast<std::uint64_t>(has_spare_) << 32) | spare_bits};
}

void Rng::set_state(const State& state) {
  for (int i = 0; i < 4; ++i) s_[i] = state[i];
  has_spare_ = (state[4] >> 32) != 0;
  const auto spare_bits = static_cast<std::uint32_t>(state[4]);
  std::memcpy(&spare_, &spare_bits, sizeof spare_);
}

}  // namespace rnnsearch::util
