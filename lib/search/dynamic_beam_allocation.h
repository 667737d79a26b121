#pragma once
// Dynamic beam allocation: a constrained sentence's beam is shared out among banks, bank b
// holding the candidates that have met b constraint pieces, so that hypotheses that have met
// more constraints are not crowded out by likelier ones that have met fewer, and the beam
// stays `width` wide whatever the number of constraints (Post and Vilar 2018). The places go
// round robin (Hu et al. 2019, vectorized dynamic beam allocation): each bank's best
// candidate first, from the highest bank down, then each bank's second best, and so on.
// Post and Vilar's equal shares, beam / (constraint pieces + 1) per bank, leave no place for
// the hypotheses that have met fewer constraints once the beam is narrower than the pieces
// are many, and with them the model's own word order: round robin keeps one place for every
// bank that has a candidate while the beam is at least as wide as the banks are many.
#include <cstddef>
#include <vector>

namespace rnnsearch::search {

// banks[i]: the bank (0..top_bank) of candidate i, the candidates sorted best first.
// Puts the indices of the kept candidates (at most width of them) in `kept`, ascending.
void allocate_beam(const std::vector<int>& banks, int top_bank, std::size_t width, std::vector<std::size_t>& kept);

}  // namespace rnnsearch::search
