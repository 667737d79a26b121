// Corpus reading (line checks, filtering, unknown tokens), vocabularies, batch layout,
// and the epoch's batches: deterministic per (seed, epoch), covering every pair once.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <set>

#include "data/batch.h"
#include "data/corpus.h"
#include "data/vocabulary.h"
#include "support/error_message.h"
#include "support/temp_dir.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

data::ParallelCorpus numbered_corpus(std::size_t pairs) {
  data::ParallelCorpus corpus;
  for (std::size_t i = 0; i < pairs; ++i) {
    corpus.source.push_back(std::vector<std::int32_t>(1 + i % 7, 4));
    corpus.target.push_back(std::vector<std::int32_t>(1 + (i * 3) % 11, 5));
    corpus.line_numbers.push_back(i + 1);
  }
  return corpus;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(data_layer)

BOOST_AUTO_TEST_CASE(vocabulary_puts_specials_first_and_keeps_file_order) {
  rt::TempDir dir;
  const auto path = dir.write("vocab", "der 10\nHund 5\nläuft 2\n");
  const auto vocab = data::Vocabulary::from_vocab_file(path);
  BOOST_TEST(vocab.size() == 7u);
  BOOST_TEST(vocab.token(data::Vocabulary::kEos) == "</s>");
  BOOST_TEST(*vocab.find("der") == 4);
  BOOST_TEST(*vocab.find("läuft") == 6);
  BOOST_TEST(vocab.id_or_unk("Katze") == data::Vocabulary::kUnk);
  BOOST_TEST(data::Vocabulary::from_vocab_file(path, 6).size() == 6u);  // the least frequent dropped
  BOOST_TEST(vocab.decode({4, 5, data::Vocabulary::kEos, 6}) == "der Hund");
}

BOOST_AUTO_TEST_CASE(corpus_checks_line_counts_and_filters_long_and_empty_pairs) {
  rt::TempDir dir;
  const data::Vocabulary vocab({"a", "b", "c"});
  const auto src = dir.write("s", "a b\n\na a a a\nc\n");
  const auto tgt = dir.write("t", "b\nc\nb\na b\n");
  data::CorpusOptions options;
  options.max_length = 3;
  const auto corpus = data::read_parallel_corpus(src, tgt, vocab, vocab, options);
  BOOST_TEST(corpus.lines == 4u);
  BOOST_TEST(corpus.size() == 2u);
  BOOST_TEST(corpus.skipped_empty == 1u);
  BOOST_TEST(corpus.skipped_long == 1u);
  BOOST_TEST(corpus.first_skipped_line == 2u);
  BOOST_TEST((corpus.line_numbers == std::vector<std::size_t>{1, 4}));

  options.long_pairs = data::LongPairs::kError;
  BOOST_TEST(rt::error_message([&] { data::read_parallel_corpus(src, tgt, vocab, vocab, options); }).find(src + ":3: 4 tokens") == 0u);
  options.long_pairs = data::LongPairs::kTruncate;
  BOOST_TEST(data::read_parallel_corpus(src, tgt, vocab, vocab, options).source[1].size() == 3u);

  const auto short_target = dir.write("t2", "b\nc\n");
  BOOST_TEST(rt::error_message([&] { data::read_parallel_corpus(src, short_target, vocab, vocab, options); })
                 .find(short_target + ": has 2 lines, but " + src + " has more") == 0u);
  const auto empty = dir.write("e", "");
  BOOST_TEST(rt::error_message([&] { data::read_parallel_corpus(empty, tgt, vocab, vocab, options); }).find(empty + ": is empty") == 0u);
}

BOOST_AUTO_TEST_CASE(unknown_tokens_are_errors_unless_allowed) {
  rt::TempDir dir;
  const data::Vocabulary vocab({"a", "b"});
  const auto src = dir.write("s", "a b\na x\n");
  const auto tgt = dir.write("t", "b\na\n");
  data::CorpusOptions options;
  options.allow_unknown = false;
  BOOST_TEST(rt::error_message([&] { data::read_parallel_corpus(src, tgt, vocab, vocab, options); })
                 .find(src + ":2: token 'x' is not in the source vocabulary") == 0u);
  options.allow_unknown = true;
  const auto corpus = data::read_parallel_corpus(src, tgt, vocab, vocab, options);
  BOOST_TEST(corpus.unknown_tokens == 1u);
  BOOST_TEST(corpus.source[1][1] == data::Vocabulary::kUnk);
}

BOOST_AUTO_TEST_CASE(batch_layout_is_time_major_with_eos_and_bos) {
  data::ParallelCorpus corpus;
  corpus.source = {{4, 5}, {6}};
  corpus.target = {{7}, {8, 9}};
  const auto batch = data::make_batch(corpus, {0, 1});
  BOOST_TEST(batch.source_length == 3);
  BOOST_TEST(batch.target_length == 3);
  const std::int32_t P = data::Vocabulary::kPad, E = data::Vocabulary::kEos, S = data::Vocabulary::kBos;
  BOOST_TEST((batch.source == std::vector<std::int32_t>{4, 6, 5, E, E, P}));
  BOOST_TEST((batch.target_input == std::vector<std::int32_t>{S, S, 7, 8, P, 9}));
  BOOST_TEST((batch.target_output == std::vector<std::int32_t>{7, 8, E, 9, P, E}));
  BOOST_TEST(batch.source_mask(2, 1) == 0.0f);
  BOOST_TEST(batch.target_mask(2, 0) == 0.0f);
  BOOST_TEST(batch.target_tokens() == 5u);
}

BOOST_AUTO_TEST_CASE(epoch_batches_are_deterministic_sorted_and_complete) {
  const auto corpus = numbered_corpus(1000);
  data::BatchingOptions options;
  options.sentences = 16;
  options.sort_window = 4;
  const auto a = data::epoch_batches(corpus, options, 7, 0);
  BOOST_TEST((a == data::epoch_batches(corpus, options, 7, 0)));
  BOOST_TEST((a != data::epoch_batches(corpus, options, 7, 1)));
  BOOST_TEST((a != data::epoch_batches(corpus, options, 8, 0)));
  std::multiset<std::size_t> seen;
  for (const auto& batch : a) {
    BOOST_TEST(batch.size() <= 16u);
    for (std::size_t k = 0; k + 1 < batch.size(); ++k) {
      BOOST_TEST(corpus.target[batch[k]].size() <= corpus.target[batch[k + 1]].size());
    }
    seen.insert(batch.begin(), batch.end());
  }
  BOOST_TEST(seen.size() == 1000u);
  BOOST_TEST(std::set<std::size_t>(seen.begin(), seen.end()).size() == 1000u);
}

BOOST_AUTO_TEST_CASE(token_batches_stay_under_their_budget) {
  const auto corpus = numbered_corpus(500);
  data::BatchingOptions options;
  options.target_tokens = 60;
  for (const auto& batch : data::epoch_batches(corpus, options, 3, 0)) {
    std::size_t longest = 0;
    for (const std::size_t i : batch) longest = std::max(longest, corpus.target[i].size() + 1);
    BOOST_TEST((batch.size() == 1u || longest * batch.size() <= 60u));
  }
}

BOOST_AUTO_TEST_CASE(thread_split_balances_tokens_and_keeps_every_sentence) {
  const auto corpus = numbered_corpus(64);
  std::vector<std::size_t> indices(64);
  for (std::size_t i = 0; i < 64; ++i) indices[i] = i;
  const auto parts = data::split_for_threads(corpus, indices, 2);
  BOOST_TEST(parts.size() == 2u);
  BOOST_TEST(parts[0].size() + parts[1].size() == 64u);
  std::size_t tokens[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    for (const std::size_t i : parts[k]) tokens[k] += corpus.target[i].size() + 1;
  }
  BOOST_TEST(std::max(tokens[0], tokens[1]) - std::min(tokens[0], tokens[1]) <= 12u);
  BOOST_TEST(data::split_for_threads(corpus, {3}, 2).size() == 1u);
  BOOST_TEST(data::split_for_threads(corpus, {3, 4}, 4).size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
