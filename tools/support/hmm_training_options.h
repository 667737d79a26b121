#pragma once
// nmt-align hmm's training options (align::HmmOptions: the iterations, agreement, jumps, the
// empty word, the prior and the position cache) and the stem rule of its rare words, apart from
// the command's table of files and decoding options.
#include <boost/program_options.hpp>

#include "align/hmm.h"
#include "align/word_stems.h"

namespace rnnsearch::tools {

// Adds them to `options`, each writing its field of `model` or `stems` (defaults: the fields' values).
void add_hmm_training_options(boost::program_options::options_description& options, align::HmmOptions& model,
                              align::StemRule& stems);

}  // namespace rnnsearch::tools
