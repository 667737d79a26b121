#pragma once
// Dynamic beam allocation (Post and Vilar 2018): a constrained sentence's beam is shared out
// among banks, bank b holding the candidates that have met b constraint tokens, so that
// hypotheses that have met more constraints are not crowded out by likelier ones that have
// met fewer, whatever the number of constraints: the beam stays `width` wide.
// Each bank gets width / (banks) places, the remainder going to the top bank; a bank with
// fewer candidates than places passes the rest down to the bank below it, and places still
// free at the bottom go back up, to the highest banks with candidates left. Within a bank
// the best candidates are kept, in the order given.
#include <cstddef>
#include <vector>

namespace rnnsearch::search {

// banks[i]: the bank (0..top_bank) of candidate i, the candidates sorted best first.
// Puts the indices of the kept candidates (at most width of them) in `kept`, ascending.
void allocate_beam(const std::vector<int>& banks, int top_bank, std::size_t width, std::vector<std::size_t>& kept);

}  // namespace rnnsearch::search
