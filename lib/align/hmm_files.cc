#include "align/hmm_files.h"

#include <unistd.h>

#include "align/hmm_params.h"
#include "align/ibm2_files.h"
#include "align/word_stems.h"
#include "data/alignment.h"
#include "util/atomic_file.h"
#include "util/distinct_outputs.h"
#include "util/error.h"
#include "util/number_format.h"
#include "util/option_range.h"
#include "util/progress_meter.h"

namespace rnnsearch::align {

namespace {

std::string iteration_note(std::size_t number, const HmmIteration& iteration) {
  std::string note = std::string(iteration.hmm ? "hmm" : "model1") + " iteration " + std::to_string(number) +
                     ": log-likelihood forward " + util::general(iteration.forward_log_likelihood) + ", reverse " +
                     util::general(iteration.reverse_log_likelihood);
  if (iteration.hmm && iteration.p_empty_by_length) {
    note += "; p-empty 1 / (I + 1)";
  } else if (iteration.hmm) {
    note += "; p-empty forward " + util::general(iteration.forward_p_empty) + ", reverse " +
            util::general(iteration.reverse_p_empty);
  }
  return note;
}

}  // namespace

void HmmFilesOptions::validate() const {
  if (source.empty() || target.empty()) throw util::UsageError("-s SOURCE and -t TARGET are required");
  if (!save_params.empty() && !load_params.empty()) {
    throw util::UsageError("--save-params and --load-params exclude each other: loaded parameters are not trained");
  }
  util::check_range("params-threshold", params_threshold, 0.0, 1.0);
  util::check_range("stem-length", stems.length, 0, 100);
  util::check_range<std::int64_t>("stem-below", stems.below, 0, std::int64_t{1} << 31);
  util::check_distinct_outputs({{"-o", output}, {"--save-params", save_params}});
  data::check_unknown_warning(unknown_warning);
  hmm.validate();
}

void hmm_files(const HmmFilesOptions& options, const util::Messages& messages) {
  options.validate();
  const bool show_progress = options.progress && !util::is_terminal(options.output, STDOUT_FILENO);
  const bool train = options.load_params.empty();
  Ibm2Corpus pairs = read_word_pairs(options.source, options.target, false, "nmt-align hmm", show_progress);
  // The tables' words: the training's rare words as stems, or new text in a file's words.
  const Ibm2Corpus corpus = train ? stem_rare_words(std::move(pairs), options.stems)
                                  : in_params_words(options.load_params, std::move(pairs));
  const int passes = train ? options.hmm.model1_iterations + options.hmm.hmm_iterations + 1 : 1;
  util::ProgressMeter meter("nmt-align hmm", "pairs in all passes", show_progress,
                            static_cast<std::uint64_t>(passes) * corpus.size());
  const HmmProgress progress = [&](std::size_t pairs) { meter.advance(pairs); };
  data::UnknownTokens unknown;
  HmmModel model = train ? hmm_start_model(corpus, options.hmm)
                         : read_hmm_params(options.load_params, corpus, options.hmm.threads, &unknown);
  if (train && options.stems.on()) model.stems = options.stems;
  util::AtomicFileWriter writer(options.output);
  const HmmLinkSink write = [&](std::size_t, const data::Alignment& links) {
    writer.write_line(data::format_pharaoh(links));
  };
  std::vector<HmmIteration> iterations;
  if (train) {
    iterations = hmm_train(corpus, options.hmm, model, progress, write);
  } else {
    hmm_decode(corpus, options.hmm, model, write, progress);
  }
  meter.finish();
  if (!options.save_params.empty()) write_hmm_params(options.save_params, corpus, model, options.params_threshold);
  for (std::size_t k = 0; k < iterations.size(); ++k) messages.note(iteration_note(k + 1, iterations[k]));
  for (const auto side : {data::UnknownTokens::kSource, data::UnknownTokens::kTarget}) {
    const std::string line = unknown.warning(
        side, options.unknown_warning, side == data::UnknownTokens::kSource ? options.source : options.target,
        "are words " + options.load_params +
            " never names; were the parameters trained on text like it, with -s and -t the same way round?");
    if (!line.empty()) messages.warn(line);
  }
  writer.commit();
}

}  // namespace rnnsearch::align
