// Corpus reading (line checks, filtering, unknown tokens), word alignments for guided
// alignment (word links to piece links, filtering, errors), vocabularies, batch layout
// and gold attention, and the epoch's batches: deterministic per (seed, epoch), covering
// every pair once.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <set>

#include "data/alignment.h"
#include "data/batch.h"
#include "data/parallel_corpus.h"
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

// A BPE'd corpus with word alignments: line 2 has an empty side, line 3 is the only one
// over 4 pieces (its source), "a@@ b" and "y@@ z" are words of two pieces.
struct AlignedCorpus {
  rt::TempDir dir;
  data::Vocabulary vocab{{"a@@", "b", "c", "d", "x", "y@@", "z", "w"}};
  std::string source = dir.write("train.src", "a@@ b c\n\nc d c d c\nd a@@ b\n");
  std::string target = dir.write("train.tgt", "x y@@ z\nx\nx\nw x\n");

  // The corpus with alignment file `links` (written as train.align).
  data::ParallelCorpus read(const std::string& links, std::size_t max_length = 4,
                            data::LongPairs long_pairs = data::LongPairs::kSkip) const {
    data::CorpusOptions options;
    options.max_length = max_length;
    options.long_pairs = long_pairs;
    options.alignment_path = alignment_path(links);
    return data::read_parallel_corpus(source, target, vocab, vocab, options);
  }
  std::string alignment_path(const std::string& links) const { return dir.write("train.align", links); }
  // The message of reading with alignment file `links`.
  std::string error(const std::string& links) const {
    return rt::error_message([&] { read(links); });
  }
};

const char* const kGoodLinks = "0-1 1-0\n\n4-0\n1-1 0-0\n";

std::string pharaoh_lines(const std::vector<data::Alignment>& alignments) {
  std::string text;
  for (const auto& links : alignments) text += data::format_pharaoh(links) + "|";
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(data_layer)

BOOST_AUTO_TEST_CASE(pieces_map_to_their_words_and_word_links_to_piece_links) {
  BOOST_TEST((data::word_of_piece(std::vector<std::string>{"a@@", "b", "c"}) == std::vector<int>{0, 0, 1}));
  BOOST_TEST((data::word_of_piece(std::vector<std::string>{"a@@", "b@@", "c", "d", "e@@", "f"}) ==
             std::vector<int>{0, 0, 0, 1, 2, 2}));
  BOOST_TEST(data::word_of_piece(std::vector<std::string>{}).empty());
  BOOST_TEST((data::word_of_piece(std::vector<std::string>{"@@", "b"}) == std::vector<int>{0, 0}));
  // "a@@ b c" -> "x y@@ z": ab-yz, c-x.
  const auto links = data::piece_links(data::parse_pharaoh("0-1 1-0", "t", 1), {0, 0, 1}, {0, 1, 1});
  BOOST_TEST(data::format_pharaoh(links) == "0-1 0-2 1-1 1-2 2-0");
}

BOOST_AUTO_TEST_CASE(corpus_alignments_become_piece_links_of_the_kept_pairs) {
  AlignedCorpus c;
  const auto corpus = c.read(kGoodLinks);
  // Line 2 (empty side) and line 3 (long) are skipped, and so are their links.
  BOOST_TEST((corpus.line_numbers == std::vector<std::size_t>{1, 4}));
  BOOST_TEST(pharaoh_lines(corpus.alignments) == "0-1 0-2 1-1 1-2 2-0|0-0 1-1 2-1|");
  BOOST_TEST(corpus.alignment_word_links == 4u);
  BOOST_TEST(data::read_parallel_corpus(c.source, c.target, c.vocab, c.vocab, {}).alignments.empty());
}

BOOST_AUTO_TEST_CASE(truncated_pairs_keep_the_links_of_their_kept_pieces) {
  AlignedCorpus c;
  // Two pieces per side: "a@@ b" / "x y@@", "c d" / "x", "d a@@" / "w x".
  const auto corpus = c.read(kGoodLinks, 2, data::LongPairs::kTruncate);
  BOOST_TEST((corpus.line_numbers == std::vector<std::size_t>{1, 3, 4}));
  BOOST_TEST(pharaoh_lines(corpus.alignments) == "0-1 1-1||0-0 1-1|");
}

BOOST_AUTO_TEST_CASE(batch_guide_is_uniform_over_the_linked_source_pieces) {
  AlignedCorpus c;
  const auto corpus = c.read(kGoodLinks);
  const auto batch = data::make_batch(corpus, {0, 1});
  // Rows t*B + b over S = 4 source positions (3 pieces + </s>), T = 4 target positions.
  math::Matrix expected = math::Matrix::Zero(8, 4);
  expected.row(0) << 0, 0, 1, 0;        // x (sentence 0): c
  expected.row(2) << 0.5, 0.5, 0, 0;    // y@@: a@@ b
  expected.row(4) << 0.5, 0.5, 0, 0;    // z: a@@ b
  expected.row(1) << 1, 0, 0, 0;        // w (sentence 1): d
  expected.row(3) << 0, 0.5, 0.5, 0;    // x: a@@ b
  BOOST_TEST((batch.guide == expected), "guide:\n" << batch.guide);  // </s> and padding rows 0
  data::ParallelCorpus plain = corpus;
  plain.alignments.clear();
  BOOST_TEST(data::make_batch(plain, {0, 1}).guide.size() == 0);
}

BOOST_AUTO_TEST_CASE(bad_alignment_files_name_file_and_line) {
  AlignedCorpus c;
  const std::string path = c.alignment_path("");
  BOOST_TEST(c.error("0-1 1-0\n0-0 1x1\n4-0\n0-0\n").find(path + ":2: malformed alignment pair '1x1'") == 0u);
  BOOST_TEST(c.error("0-1 2-0\n\n4-0\n0-0\n") ==
             path + ":1: link 2-0 is outside the pair: 2 source words, 2 target words "
                    "(links are source-target word indices from 0, over the text before BPE)");
  BOOST_TEST(c.error("0-2\n\n4-0\n0-0\n").find(path + ":1: link 0-2 is outside the pair") == 0u);
  // The lines of skipped pairs are checked too.
  BOOST_TEST(c.error("0-1\n0-0\n4-0\n0-0\n").find(path + ":2: link 0-0 is outside the pair: 0 source words, 1 target word ") == 0u);
  BOOST_TEST(c.error("0-1\n\n4-0\n") == path + ":4: missing: the alignment file has 3 lines, but " + c.source +
                                               " has more; the alignments must be line-aligned with the training text");
  BOOST_TEST(c.error("").find(path + ":1: missing: the alignment file has 0 lines") == 0u);
  BOOST_TEST(c.error("0-1\n\n4-0\n0-0\n0-0\n") == path + ":5: more lines than " + c.source +
                                                        " (4 lines); the alignments must be line-aligned with the training text");
}

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

BOOST_AUTO_TEST_CASE(long_pair_policies_parse_from_their_names) {
  for (const auto policy : {data::LongPairs::kSkip, data::LongPairs::kError, data::LongPairs::kTruncate}) {
    BOOST_TEST((data::parse_long_pairs(data::long_pairs_name(policy)) == policy));
  }
  BOOST_TEST(rnnsearch::testing::usage_message([] { data::parse_long_pairs("wrap"); }) ==
             "--long-pairs must be one of skip, error, truncate, got 'wrap'");
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

BOOST_AUTO_TEST_SUITE_END()
