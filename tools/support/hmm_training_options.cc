#include "tools/support/hmm_training_options.h"

#include <string>

#include "util/cli.h"

namespace rnnsearch::tools {

namespace po = boost::program_options;

void add_hmm_training_options(po::options_description& options, align::HmmOptions& model, align::StemRule& stems) {
  options.add_options()
      ("model1-iterations", util::defaulted(&model.model1_iterations), "IBM Model 1 EM iterations first")
      ("hmm-iterations", util::defaulted(&model.hmm_iterations), "HMM EM iterations after them (0: Model 1 links)")
      ("no-agreement", po::bool_switch()->notifier([&model](bool alone) { model.agreement = !alone; }),
       "train the two directions each alone, not by agreement")
      ("agreement-empty", util::enum_value(&model.agreement_empty, "own", align::parse_hmm_agreement_empty),
       "by agreement, a word's empty-word count: own (its own direction's empty-word posterior) or product (what "
       "the products of both directions' link posteriors leave)")
      ("jump-width", util::defaulted(&model.jump_width), "jump classes either side; wider jumps share the last")
      ("no-boundary-jumps", po::bool_switch()->notifier([&model](bool off) { model.boundary_jumps = !off; }),
       "one set of jump weights for every move, not separate ones for the first move (from before the sentence) "
       "and the move past its end")
      ("p-empty", po::value(&model.p_empty)->default_value(model.p_empty, "0.2"),
       "the empty word's probability (with --p-empty-mode learned, its starting value)")
      ("p-empty-mode", util::enum_value(&model.p_empty_mode, "learned", align::parse_p_empty_mode),
       "learned (re-estimated by each HMM iteration), fixed (--p-empty throughout) or by-length (1 / (I + 1) for a "
       "sentence of I conditioning words)")
      ("alpha", po::value(&model.alpha)->default_value(model.alpha, "0"),
       "Dirichlet prior on the translation tables, variational Bayes (0 = maximum likelihood)")
      ("stem-length", util::defaulted(&stems.length),
       "read a rare word as its first N letters (code points), shared with its inflections (0: never)")
      ("stem-below", util::defaulted(&stems.below),
       "a word seen fewer times than this on its side of the pairs is rare (0: none is)")
      ("cache-mb", util::defaulted(&model.index_cache_mb),
       "memory (MiB) for the table positions of the first pairs, found once instead of every iteration");
}

}  // namespace rnnsearch::tools
