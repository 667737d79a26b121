#pragma once
// The options of a resumed run (nmt-train --resume). The checkpoint fixes some: the
// architecture, the vocabularies, the initialization and the seed, the optimizer, the
// precision and the exponential smoothing. A resumed run takes those from the checkpoint's
// stored options, so that MODEL records what trained it, and refuses a command line (or
// --config file) that gives one of them another value. The rest (the data, the budget,
// the learning-rate schedule, validation, saving) may change; the stored options then
// record the change as a comment line.
#include <boost/program_options.hpp>
#include <string>

#include "util/cli.h"

namespace rnnsearch::train {

// Whether a resumed run must keep the checkpoint's value of the option `name`.
bool fixed_on_resume(const std::string& name);

// The hook util::ToolInfo::options_beneath for nmt-train. Under --resume, when MODEL.ckpt
// exists: the checkpoint's stored values of the fixed options that `vm` does not give, as
// config lines from MODEL.ckpt; otherwise nothing (the trainer reports a missing
// checkpoint). Throws util::UsageError naming the option, the checkpoint's value and the
// given one when they differ, and util::Error naming MODEL.ckpt when it cannot be read.
util::ToolInfo::Beneath fixed_options_of_checkpoint(const boost::program_options::options_description& options,
                                                    const boost::program_options::variables_map& vm);

// The options to store in a resumed run's files: `now` (this run's config lines), after the
// comment lines of `stored` (the checkpoint's, which keep the earlier resumptions) and one
// more comment naming the options whose values differ from `stored`'s, at update `update`:
//   "# resumed after update 500 with max-updates = 1000 (was 500), valid-freq = 100 (was 50)"
// `now` alone when nothing changed. `changed` receives that comment's list (empty if none).
std::string resumed_stored_options(const std::string& stored, const std::string& now, long update,
                                   std::string& changed);

}  // namespace rnnsearch::train
