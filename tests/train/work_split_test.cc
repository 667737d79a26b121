// train::split_by_cost: data-parallel groups keep every sentence in batch order, are never
// empty, and the largest group's estimated cost is the smallest any cut can give.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "data/parallel_corpus.h"
#include "model/flops.h"
#include "model/model_options.h"
#include "train/work_split.h"
#include "util/rng.h"

using namespace rnnsearch;

namespace {

// Sentences sorted by target length (as a batch's are), with source lengths that vary.
data::ParallelCorpus random_batch_corpus(std::size_t pairs, std::uint64_t seed) {
  util::Rng rng(seed);
  data::ParallelCorpus corpus;
  std::vector<std::size_t> targets(pairs);
  for (auto& t : targets) t = 1 + rng.below(30);
  std::sort(targets.begin(), targets.end());
  for (std::size_t i = 0; i < pairs; ++i) {
    corpus.source.push_back(std::vector<std::int32_t>(1 + rng.below(40), 4));
    corpus.target.push_back(std::vector<std::int32_t>(targets[i], 5));
    corpus.line_numbers.push_back(i + 1);
  }
  return corpus;
}

model::ModelOptions config() {
  model::ModelOptions c;
  c.source_vocabulary = 5000;
  c.target_vocabulary = 4000;
  return c;
}

double group_cost(const data::ParallelCorpus& corpus, const std::vector<std::size_t>& group) {
  model::BatchShape shape;
  for (const std::size_t s : group) {
    shape.sentences += 1;
    shape.source_length = std::max(shape.source_length, static_cast<int>(corpus.source[s].size() + 1));
    shape.target_length = std::max(shape.target_length, static_cast<int>(corpus.target[s].size() + 1));
    shape.real_source_tokens += static_cast<long>(corpus.source[s].size() + 1);
    shape.real_target_tokens += static_cast<long>(corpus.target[s].size() + 1);
  }
  return model::training_flops(config(), shape).total();
}

std::vector<std::size_t> range(std::size_t begin, std::size_t end) {
  std::vector<std::size_t> r;
  for (std::size_t i = begin; i < end; ++i) r.push_back(i);
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(work_split)

BOOST_AUTO_TEST_CASE(groups_keep_every_sentence_in_order_and_are_never_empty) {
  const auto corpus = random_batch_corpus(64, 7);
  const auto indices = range(0, 64);
  for (const int parts : {1, 2, 3, 5}) {
    const auto groups = train::split_by_cost(corpus, indices, parts, config());
    BOOST_TEST(groups.size() == static_cast<std::size_t>(parts));
    std::vector<std::size_t> joined;
    for (const auto& group : groups) {
      BOOST_TEST(!group.empty());
      joined.insert(joined.end(), group.begin(), group.end());
    }
    BOOST_TEST(joined == indices);
  }
  BOOST_TEST(train::split_by_cost(corpus, {3}, 2, config()).size() == 1u);
  BOOST_TEST(train::split_by_cost(corpus, {3, 4}, 4, config()).size() == 2u);
  BOOST_TEST(train::split_by_cost(corpus, {}, 2, config()).empty());
}

BOOST_AUTO_TEST_CASE(two_groups_have_the_smallest_largest_cost_of_any_cut) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto corpus = random_batch_corpus(64, seed);
    const auto indices = range(0, 64);
    const auto groups = train::split_by_cost(corpus, indices, 2, config());
    const double chosen = std::max(group_cost(corpus, groups[0]), group_cost(corpus, groups[1]));
    double best = group_cost(corpus, indices);
    for (std::size_t cut = 1; cut < 64; ++cut) {
      best = std::min(best, std::max(group_cost(corpus, range(0, cut)), group_cost(corpus, range(cut, 64))));
    }
    BOOST_TEST(chosen == best);
  }
}

BOOST_AUTO_TEST_CASE(three_groups_beat_or_equal_the_equal_sentence_cut) {
  const auto corpus = random_batch_corpus(60, 11);
  const auto groups = train::split_by_cost(corpus, range(0, 60), 3, config());
  double chosen = 0, equal = 0;
  for (const auto& group : groups) chosen = std::max(chosen, group_cost(corpus, group));
  for (std::size_t g = 0; g < 3; ++g) equal = std::max(equal, group_cost(corpus, range(20 * g, 20 * g + 20)));
  BOOST_TEST(chosen <= equal);
}

BOOST_AUTO_TEST_SUITE_END()
