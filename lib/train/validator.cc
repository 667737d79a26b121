#include "train/validator.h"

#include <algorithm>

#include "eval/bleu.h"
#include "search/greedy.h"
#include "text/bpe_undo.h"
#include "util/error.h"
#include "util/line_reader.h"

namespace rnnsearch::train {

Validator::Validator(const std::string& source_path, const std::string& target_path,
                     const data::Vocabulary& source_vocabulary, const data::Vocabulary& target_vocabulary,
                     std::size_t max_length)
    : target_vocabulary_(target_vocabulary) {
  data::CorpusOptions options;
  options.max_length = max_length;
  options.long_pairs = data::LongPairs::kTruncate;
  options.allow_unknown = true;
  corpus_ = data::read_parallel_corpus(source_path, target_path, source_vocabulary, target_vocabulary, options);
  for (const auto& line : util::read_lines(source_path)) {
    auto ids = data::to_ids(line, source_vocabulary);
    if (max_length > 0 && ids.size() > max_length) ids.resize(max_length);
    sources_.push_back(std::move(ids));
  }
  for (const auto& line : util::read_lines(target_path)) references_.push_back(text::undo_bpe(line));
}

ValidationResult Validator::run(DataParallel& workers, int batch_size) const {
  ValidationResult result;
  const int threads = workers.threads();
  // Cross-entropy: batches of length-sorted pairs, dealt round-robin to the threads.
  const auto batches = data::batches_by_length(corpus_.target, batch_size);
  std::vector<double> loss(static_cast<std::size_t>(threads), 0.0);
  std::vector<std::size_t> tokens(static_cast<std::size_t>(threads), 0);
  workers.run([&](model::RnnSearch& replica, int k) {
    for (std::size_t i = static_cast<std::size_t>(k); i < batches.size(); i += static_cast<std::size_t>(threads)) {
      const auto sum = replica.loss(data::make_batch(corpus_, batches[i]), model::LossOptions{}, 0.0f);
      loss[static_cast<std::size_t>(k)] += sum.loss;
      tokens[static_cast<std::size_t>(k)] += sum.tokens;
    }
  });
  double total_loss = 0.0;
  for (int k = 0; k < threads; ++k) {
    total_loss += loss[static_cast<std::size_t>(k)];
    result.tokens += tokens[static_cast<std::size_t>(k)];
  }
  result.cross_entropy = total_loss / static_cast<double>(std::max<std::size_t>(1, result.tokens));

  // Greedy translations, the lines split into one contiguous share per thread.
  std::vector<std::vector<std::int32_t>> translations(sources_.size());
  workers.run([&](model::RnnSearch& replica, int k) {
    const std::size_t begin = sources_.size() * static_cast<std::size_t>(k) / static_cast<std::size_t>(threads);
    const std::size_t end = sources_.size() * static_cast<std::size_t>(k + 1) / static_cast<std::size_t>(threads);
    const std::vector<std::vector<std::int32_t>> share(sources_.begin() + static_cast<std::ptrdiff_t>(begin),
                                                       sources_.begin() + static_cast<std::ptrdiff_t>(end));
    search::GreedyOptions options;
    options.batch_size = batch_size;
    auto out = search::greedy_translate(replica, share, options);
    for (std::size_t i = 0; i < out.size(); ++i) translations[begin + i] = std::move(out[i]);
  });
  for (const auto& ids : translations) result.translations.push_back(text::undo_bpe(target_vocabulary_.decode(ids)));
  const eval::Bleu bleu({references_}, eval::BleuOptions{});
  const auto sums = bleu.segment_stats(result.translations).column_sums();
  result.bleu = bleu.score_from_stats(sums.data()).score;
  return result;
}

}  // namespace rnnsearch::train
