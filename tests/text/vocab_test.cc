// Token vocabularies as subword-nmt's get_vocab.py writes them, and reading them back.
#include <boost/test/unit_test.hpp>

#include <sstream>

#include "support/golden_cases.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"
#include "text/vocab_counts.h"
#include "util/error.h"

using namespace rnnsearch::text;
namespace rt = rnnsearch::testing;

namespace {

std::string vocab_of(const std::vector<std::string>& lines, const VocabOptions& options = {},
                     LineBreaks breaks = LineBreaks::kSplitlines) {
  WordCounter counter(breaks);
  for (const auto& line : lines) counter.add_line(line);
  std::ostringstream out;
  write_vocab(out, sorted_vocab(counter.counts(), options));
  return out.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(vocab)

BOOST_AUTO_TEST_CASE(count_descending_ties_in_first_occurrence_order) {
  BOOST_TEST(vocab_of({"b a c", "a  b d ", "", "   "}) == "b 2\na 2\nc 1\nd 1\n");
}

BOOST_AUTO_TEST_CASE(min_count_and_max_size) {
  VocabOptions options;
  options.min_count = 2;
  BOOST_TEST(vocab_of({"b a c", "a b d", "c"}, options) == "b 2\na 2\nc 2\n");
  options.max_size = 1;
  BOOST_TEST(vocab_of({"b a c", "a b d", "c"}, options) == "b 2\n");
}

BOOST_AUTO_TEST_CASE(words_split_on_single_spaces_only) {
  // A tab is part of a word; get_vocab's codecs reader also breaks lines at \v, \f,
  // U+2028 and the like, keeping the break in the word before it.
  BOOST_TEST(vocab_of({"a\tb a"}) == "a\tb 1\na 1\n");
  BOOST_TEST(vocab_of({"a\x0b" "b a\x0b"}) == "a\x0b 2\nb 1\n");
  BOOST_TEST(vocab_of({"a\x0b" "b"}, {}, LineBreaks::kUniversal) == "a\x0b" "b 1\n");
  BOOST_TEST(vocab_of({"a\rb a"}) == "a 2\nb 1\n");
}

BOOST_AUTO_TEST_CASE(read_vocab_file) {
  rt::TempDir dir;
  const std::string good = dir.write("good", "the 10\nHaus@@ 3\r\nx -1\n");
  const auto vocab = read_vocab(good);
  BOOST_REQUIRE(vocab.size() == 3u);
  BOOST_TEST(vocab[1].word == "Haus@@");
  BOOST_TEST(vocab[2].count == -1);
  BOOST_TEST(read_vocab_map(dir.write("twice", "a 1\na 5\na 2\n")).at("a") == 5);
  for (const std::string bad : {"a 1\nb\n", "a 1\nb 2 3\n", "a 1\nb two\n"}) {
    try {
      read_vocab(dir.write("bad", bad));
      BOOST_FAIL("no error for " + bad);
    } catch (const rnnsearch::util::Error& e) {
      BOOST_TEST(e.line() == 2u);
      BOOST_TEST(std::string(e.what()).find("bad:2: ") != std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(golden_small_vocab_from_file) {
  const std::string bpe = rt::shared_path("golden/bpe/small/val.tok.bpe500.en");
  if (!rt::require_shared(bpe)) return;
  std::ostringstream out;
  write_vocab(out, build_vocab({bpe}));
  BOOST_TEST(out.str() == rt::read_file(rt::shared_path("golden/bpe/small/vocab.val.bpe500.en")));
}

BOOST_AUTO_TEST_SUITE_END()
