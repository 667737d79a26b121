#include "train/validator.h"

#include <algorithm>
#include <cstring>

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

namespace {

// Translations (token ids) as bytes and back, to gather them from the processes.
std::string pack(const std::vector<std::vector<std::int32_t>>& sentences, std::size_t begin, std::size_t end) {
  std::string bytes;
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint32_t length = static_cast<std::uint32_t>(sentences[i].size());
    bytes.append(reinterpret_cast<const char*>(&length), sizeof(length));
    bytes.append(reinterpret_cast<const char*>(sentences[i].data()), length * sizeof(std::int32_t));
  }
  return bytes;
}

void unpack(const std::string& bytes, std::vector<std::vector<std::int32_t>>& sentences, std::size_t begin) {
  std::size_t at = 0;
  for (std::size_t i = begin; at < bytes.size(); ++i) {
    std::uint32_t length = 0;
    std::memcpy(&length, bytes.data() + at, sizeof(length));
    at += sizeof(length);
    sentences[i].resize(length);
    // An empty translation's data() may be null, which memcpy must not be given (UBSan).
    if (length > 0) std::memcpy(sentences[i].data(), bytes.data() + at, length * sizeof(std::int32_t));
    at += length * sizeof(std::int32_t);
  }
}

}  // namespace

ValidationResult Validator::run(DataParallel& workers, int batch_size) const {
  ValidationResult result;
  const ProcessGroup& group = workers.group();
  const int threads = workers.threads();
  const auto all = static_cast<std::size_t>(workers.workers());  // threads of all processes
  // Cross-entropy: batches of length-sorted pairs, dealt round-robin to the threads of all processes.
  const auto batches = data::batches_by_length(corpus_.target, batch_size);
  std::vector<double> loss(static_cast<std::size_t>(threads), 0.0);
  std::vector<std::size_t> tokens(static_cast<std::size_t>(threads), 0);
  workers.run([&](model::RnnSearch& replica, int k) {
    for (auto i = static_cast<std::size_t>(workers.worker(k)); i < batches.size(); i += all) {
      const auto sum = replica.loss(data::make_batch(corpus_, batches[i]), model::LossOptions{}, 0.0f);
      loss[static_cast<std::size_t>(k)] += sum.loss;
      tokens[static_cast<std::size_t>(k)] += sum.tokens;
    }
  });
  double sums[2] = {0.0, 0.0};  // loss, tokens
  for (int k = 0; k < threads; ++k) {
    sums[0] += loss[static_cast<std::size_t>(k)];
    sums[1] += static_cast<double>(tokens[static_cast<std::size_t>(k)]);
  }
  group.sum(sums, 2);
  result.tokens = static_cast<std::size_t>(sums[1]);
  result.cross_entropy = sums[0] / static_cast<double>(std::max<std::size_t>(1, result.tokens));

  // Greedy translations, the lines split into one contiguous share per thread of all processes.
  const std::size_t lines = sources_.size();
  const auto share_begin = [&](std::size_t worker) { return lines * worker / all; };
  std::vector<std::vector<std::int32_t>> translations(lines);
  workers.run([&](model::RnnSearch& replica, int k) {
    const std::size_t begin = share_begin(static_cast<std::size_t>(workers.worker(k)));
    const std::size_t end = share_begin(static_cast<std::size_t>(workers.worker(k)) + 1);
    const std::vector<std::vector<std::int32_t>> share(sources_.begin() + static_cast<std::ptrdiff_t>(begin),
                                                       sources_.begin() + static_cast<std::ptrdiff_t>(end));
    search::GreedyOptions options;
    options.batch_size = batch_size;
    auto out = search::greedy_translate(replica, share, options);
    for (std::size_t i = 0; i < out.size(); ++i) translations[begin + i] = std::move(out[i]);
  });
  if (group.size() > 1) {  // every process gets every translation and computes the same BLEU
    const auto process_begin = [&](int rank) { return share_begin(static_cast<std::size_t>(rank * threads)); };
    const auto shares = group.all_gather(pack(translations, process_begin(group.rank()), process_begin(group.rank() + 1)));
    for (int rank = 0; rank < group.size(); ++rank) {
      if (rank != group.rank()) unpack(shares[static_cast<std::size_t>(rank)], translations, process_begin(rank));
    }
  }
  for (const auto& ids : translations) result.translations.push_back(text::undo_bpe(target_vocabulary_.decode(ids)));
  const eval::Bleu bleu({references_}, eval::BleuOptions{});
  const auto bleu_sums = bleu.segment_stats(result.translations).column_sums();
  result.bleu = bleu.score_from_stats(bleu_sums.data()).score;
  return result;
}

}  // namespace rnnsearch::train
