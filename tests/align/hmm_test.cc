// nmt-align hmm's training, decoding and saved parameters (align/hmm.h, align/hmm_params.h):
// agreement's E-step against counts computed from both directions' posteriors, a toy lexicon
// with reordering aligned right, the same tables and links on any thread count, a saved and
// loaded model aligning as the trained one, and errors naming the params file and line.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "align/hmm.h"
#include "align/hmm_params.h"
#include "data/unknown_tokens.h"
#include "support/temp_dir.h"
#include "util/error.h"
#include "util/rng.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

align::Ibm2Corpus corpus_of(const Pairs& pairs) {
  align::Ibm2CorpusBuilder builder;
  for (const auto& [source, target] : pairs) builder.add(source, target);
  return builder.take();
}

std::vector<data::Alignment> decode(const align::Ibm2Corpus& corpus, const align::HmmOptions& options,
                                    const align::HmmModel& model) {
  std::vector<data::Alignment> links(corpus.size());
  std::vector<std::size_t> order;
  align::hmm_decode(corpus, options, model, [&](std::size_t pair, const data::Alignment& pair_links) {
    order.push_back(pair);
    links[pair] = pair_links;
  });
  BOOST_TEST(order.size() == corpus.size());
  BOOST_TEST(std::is_sorted(order.begin(), order.end()));
  return links;
}

std::string text_of(const std::vector<data::Alignment>& links) {
  std::string text;
  for (const auto& l : links) text += data::format_pharaoh(l) + "\n";
  return text;
}

// Random pairs over small vocabularies, frequent words more often, the target words
// loosely following the source's (so that the model has something to learn).
Pairs random_pairs(std::size_t count, std::uint64_t seed) {
  util::Rng rng(seed);
  Pairs pairs;
  for (std::size_t k = 0; k < count; ++k) {
    const auto length = 1 + rng.below(10);
    std::string source, target;
    for (std::uint64_t w = 0; w < length; ++w) {
      const auto word = rng.below(1 + rng.below(40));
      source += (w ? " s" : "s") + std::to_string(word);
      if (rng.below(5) != 0) target += (target.empty() ? "t" : " t") + std::to_string((word * 3) % 40);
      if (rng.below(4) == 0) target += (target.empty() ? "t" : " t") + std::to_string(rng.below(50));
    }
    if (target.empty()) target = "t0";
    pairs.emplace_back(source, target);
  }
  return pairs;
}

float t_at(const align::CooccurrenceTable& table, std::size_t row, std::int32_t column) {
  return table.probability(table.find(row, column));
}

// One pair's Model 1 posteriors of one direction: row w of the generated words, column 0 the
// empty word, column c the conditioning word c - 1, from t(generated | conditioning).
std::vector<std::vector<double>> model1_posteriors(const align::CooccurrenceTable& table,
                                                   const std::vector<std::size_t>& rows,
                                                   const std::vector<std::int32_t>& columns) {
  std::vector<std::vector<double>> posterior;
  for (const std::int32_t f : columns) {
    std::vector<double> row{t_at(table, 0, f)};
    for (const std::size_t e : rows) row.push_back(t_at(table, e, f));
    double total = 0.0;
    for (const double p : row) total += p;
    for (double& p : row) p /= total;
    posterior.push_back(row);
  }
  return posterior;
}

using Counts = std::map<std::pair<std::size_t, std::int32_t>, double>;  // (row, column) of a table

// How one E-step counts: each direction alone, or by agreement with a word's empty-word count
// what the products leave of 1, or its own direction's empty-word posterior.
enum class Counting { kAlone, kAgreedProduct, kAgreedOwnEmpty };

// The expected counts of one Model 1 E-step over `corpus` under `start`: each direction's own
// posteriors, or with agreement the product of both directions' (the empty word's count as
// `counting` says).
void model1_counts(const align::Ibm2Corpus& corpus, const align::HmmModel& start, Counting counting, Counts (&counts)[2]) {
  const bool agreement = counting != Counting::kAlone, own_empty = counting == Counting::kAgreedOwnEmpty;
  for (std::size_t k = 0; k < corpus.size(); ++k) {
    const std::vector<std::int32_t> s(corpus.source.begin() + static_cast<std::ptrdiff_t>(corpus.source_begin[k]),
                                      corpus.source.begin() + static_cast<std::ptrdiff_t>(corpus.source_begin[k + 1]));
    const std::vector<std::int32_t> t(corpus.target.begin() + static_cast<std::ptrdiff_t>(corpus.target_begin[k]),
                                      corpus.target.begin() + static_cast<std::ptrdiff_t>(corpus.target_begin[k + 1]));
    // Forward rows are source ids, reverse rows target ids + 1.
    std::vector<std::size_t> forward_rows, reverse_rows;
    for (const auto e : s) forward_rows.push_back(static_cast<std::size_t>(e));
    for (const auto f : t) reverse_rows.push_back(static_cast<std::size_t>(f) + 1);
    const auto fwd = model1_posteriors(start.forward.table, forward_rows, t);  // [j][i]
    const auto rev = model1_posteriors(start.reverse.table, reverse_rows, s);  // [i][j]
    std::vector<double> reverse_rest(s.size(), 1.0);
    for (std::size_t j = 0; j < t.size(); ++j) {
      double rest = 1.0;
      for (std::size_t i = 0; i < s.size(); ++i) {
        const double both = fwd[j][i + 1] * rev[i][j + 1];
        counts[0][{forward_rows[i], t[j]}] += agreement ? both : fwd[j][i + 1];
        counts[1][{reverse_rows[j], s[i]}] += agreement ? both : rev[i][j + 1];
        rest -= both;
        reverse_rest[i] -= both;
      }
      counts[0][{0, t[j]}] += agreement && !own_empty ? std::max(0.0, rest) : fwd[j][0];
    }
    for (std::size_t i = 0; i < s.size(); ++i) {
      counts[1][{0, s[i]}] += agreement && !own_empty ? std::max(0.0, reverse_rest[i]) : rev[i][0];
    }
  }
}

// The digamma function by its series psi(x) = -gamma + sum_{k >= 0} (1 / (k + 1) - 1 / (k + x)),
// summed far enough for 1e-9 (the tail's terms shrink as 1 / k^2; the rest is its integral).
double digamma_by_series(double x) {
  constexpr double kEulerGamma = 0.57721566490153286;
  constexpr int kTerms = 2000000;
  double sum = -kEulerGamma;
  for (int k = 0; k < kTerms; ++k) sum += 1.0 / (k + 1.0) - 1.0 / (k + x);
  return sum + (x - 1.0) / (kTerms + x - 0.5);
}

// Every entry of `table` against `counts` normalized per row.
void check_table_is_normalized_counts(const align::CooccurrenceTable& table, const Counts& counts, const std::string& name) {
  for (std::size_t row = 0; row < table.rows(); ++row) {
    double total = 0.0;
    for (std::size_t at = table.row_begin(row); at < table.row_end(row); ++at) {
      const auto found = counts.find({row, table.column(at)});
      if (found != counts.end()) total += found->second;
    }
    BOOST_TEST_REQUIRE(total > 0.0, name << " row " << row << " has no counts");
    for (std::size_t at = table.row_begin(row); at < table.row_end(row); ++at) {
      const auto found = counts.find({row, table.column(at)});
      const double expected = std::max(1e-9, (found == counts.end() ? 0.0 : found->second) / total);
      BOOST_TEST(table.probability(at) == expected, boost::test_tools::tolerance(1e-5)
                                                        << name << " row " << row << " column " << table.column(at));
    }
  }
}

// The links of a pair whose source word i is the translation of target word gold[i].
data::Alignment gold_links(const std::vector<int>& gold) {
  data::Alignment links;
  for (std::size_t i = 0; i < gold.size(); ++i) links.push_back({static_cast<int>(i), gold[i]});
  std::sort(links.begin(), links.end());
  return links;
}

void check_same_tables(const align::HmmModel& a, const align::HmmModel& b, const std::string& name) {
  for (int d = 0; d < 2; ++d) {
    const align::HmmDirection& x = d == 0 ? a.forward : a.reverse;
    const align::HmmDirection& y = d == 0 ? b.forward : b.reverse;
    BOOST_TEST_REQUIRE(x.table.size() == y.table.size(), name);
    std::size_t different = 0;
    for (std::size_t at = 0; at < x.table.size(); ++at) {
      different += x.table.column(at) != y.table.column(at) || x.table.probability(at) != y.table.probability(at);
    }
    BOOST_TEST(different == 0u, name << " direction " << d);
    BOOST_TEST((x.jumps.weight == y.jumps.weight), name << " direction " << d);
    BOOST_TEST(x.jumps.p_empty == y.jumps.p_empty, name << " direction " << d);
  }
}

// One Model 1 and one HMM iteration, jump width 2, on "a b" / "x y" and "b" / "y": the
// model whose parameters file the tests of its format change line by line.
struct TinyModel {
  align::Ibm2Corpus corpus = corpus_of({{"a b", "x y"}, {"b", "y"}});
  align::HmmModel model;
  TinyModel() {
    align::HmmOptions options;
    options.model1_iterations = 1;
    options.hmm_iterations = 1;
    options.jump_width = 2;
    options.boundary_jumps = false;  // the file's lines where the tests of its format expect them
    model = align::hmm_start_model(corpus, options);
    align::hmm_train(corpus, options, model);
  }
  // Its parameters file, written as `name` in `dir`; the path.
  std::string saved(const rt::TempDir& dir, const std::string& name) const {
    const std::string path = (dir.path() / name).string();
    align::write_hmm_params(path, corpus, model);
    return path;
  }
};

std::string error_of(const std::string& path, const align::Ibm2Corpus& corpus) {
  try {
    align::read_hmm_params(path, corpus, 1);
  } catch (const util::Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string joined_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hmm)

// One Model 1 iteration from uneven starting tables: each direction's table is its expected
// counts normalized per row, the counts being the product of the forward and reverse link
// posteriors with agreement, each direction's own posteriors without.
BOOST_AUTO_TEST_CASE(agreement_counts_are_the_product_of_both_directions_posteriors) {
  const align::Ibm2Corpus corpus = corpus_of({{"a b", "x y z"}, {"b c", "y w"}, {"a c a", "x w"}, {"c", "w w y"}});
  // --alpha does not change Model 1's iterations: they stay maximum likelihood.
  for (const auto& [counting, alpha] : {std::pair{Counting::kAgreedProduct, 0.0}, {Counting::kAlone, 0.0},
                                        {Counting::kAgreedOwnEmpty, 0.0}, {Counting::kAgreedOwnEmpty, 0.5}}) {
    const bool agreement = counting != Counting::kAlone;
    align::HmmOptions options;
    options.model1_iterations = 1;
    options.hmm_iterations = 0;
    options.agreement = agreement;
    options.alpha = alpha;
    options.agreement_empty =
        counting == Counting::kAgreedOwnEmpty ? align::HmmAgreementEmpty::kOwn : align::HmmAgreementEmpty::kProduct;
    align::HmmModel model = align::hmm_start_model(corpus, options);
    for (align::CooccurrenceTable* table : {&model.forward.table, &model.reverse.table}) {
      for (std::size_t at = 0; at < table->size(); ++at) {
        table->set_probability(at, 0.05F + 0.9F * static_cast<float>((at * 37 + 11) % 17) / 16.0F);
      }
    }
    const align::HmmModel start = model;
    const auto iterations = align::hmm_train(corpus, options, model);
    BOOST_TEST_REQUIRE(iterations.size() == 1u);
    BOOST_TEST(!iterations[0].hmm);
    Counts counts[2];
    model1_counts(corpus, start, counting, counts);
    const std::string how = std::to_string(static_cast<int>(counting)) + " alpha " + std::to_string(alpha);
    check_table_is_normalized_counts(model.forward.table, counts[0], how + " forward");
    check_table_is_normalized_counts(model.reverse.table, counts[1], how + " reverse");
    // The agreed counts are not each direction's own, and the agreed empty-word counts differ
    // by how they are taken: the runs differ.
    if (counting == Counting::kAgreedProduct) {
      Counts own[2], own_empty[2];
      model1_counts(corpus, start, Counting::kAlone, own);
      model1_counts(corpus, start, Counting::kAgreedOwnEmpty, own_empty);
      BOOST_TEST(own[0].at({0, 0}) != counts[0].at({0, 0}), boost::test_tools::tolerance(1e-3));
      BOOST_TEST(own_empty[0].at({0, 0}) != counts[0].at({0, 0}), boost::test_tools::tolerance(1e-3));
      const std::pair<std::size_t, std::int32_t> empty_first_source{0, corpus.source[0]};
      BOOST_TEST(own_empty[1].at(empty_first_source) != counts[1].at(empty_first_source),
                 boost::test_tools::tolerance(1e-3));
    }
  }
}

// The variational-Bayes M-step of a table against the digamma function summed as its series:
// rows with counts get exp(psi(c + alpha) - psi(sum (c + alpha))), a row without keeps its
// probabilities, and the counts start again at 0.
BOOST_AUTO_TEST_CASE(variational_bayes_m_step_matches_the_digamma_series) {
  const align::Ibm2Corpus corpus = corpus_of({{"a b", "x y z"}, {"b c", "y w"}, {"c", "w"}});
  const align::CorpusSide source{&corpus.source, &corpus.source_begin, 1, corpus.source_types};
  const align::CorpusSide target{&corpus.target, &corpus.target_begin, 0, corpus.target_types};
  for (const double alpha : {0.001, 0.05, 2.0}) {
    align::CooccurrenceTable table(source, target, 1);
    Counts counts;
    for (std::size_t row = 0; row < table.rows(); ++row) {
      for (std::size_t at = table.row_begin(row); at < table.row_end(row); ++at) {
        if (row == 3) continue;  // one row without counts
        const double count = 0.01 + static_cast<double>((at * 7 + 3) % 5);
        table.add(at, count);
        counts[{row, table.column(at)}] = count;
      }
    }
    table.fill(0.25F);
    table.normalize(alpha);
    for (std::size_t at = table.row_begin(3); at < table.row_end(3); ++at) BOOST_TEST(table.probability(at) == 0.25F);
    for (std::size_t row = 0; row < table.rows(); ++row) {
      if (row == 3) continue;
      const double entries = static_cast<double>(table.row_end(row) - table.row_begin(row));
      double total = 0.0;
      for (std::size_t at = table.row_begin(row); at < table.row_end(row); ++at) total += counts.at({row, table.column(at)});
      for (std::size_t at = table.row_begin(row); at < table.row_end(row); ++at) {
        const double expected = std::exp(digamma_by_series(counts.at({row, table.column(at)}) + alpha) -
                                         digamma_by_series(total + alpha * entries));
        BOOST_TEST(table.probability(at) == std::max(1e-9, expected),
                   boost::test_tools::tolerance(1e-5) << "alpha " << alpha << " row " << row);
      }
    }
    // The counts were reset: normalizing again changes nothing.
    std::vector<float> before;
    for (std::size_t at = 0; at < table.size(); ++at) before.push_back(table.probability(at));
    table.normalize(alpha);
    for (std::size_t at = 0; at < table.size(); ++at) BOOST_TEST(table.probability(at) == before[at]);
  }
}

// A one-to-one toy lexicon (24 words, sentences of 2 to 7 different words), the target
// swapping every two neighbours: trained by agreement, every pair's links are the right ones,
// read off either way and in either direction or both.
BOOST_AUTO_TEST_CASE(links_of_a_reordering_toy_lexicon_are_right) {
  util::Rng rng(11);
  Pairs pairs;
  std::vector<data::Alignment> gold;
  for (int k = 0; k < 400; ++k) {
    std::vector<std::uint64_t> words;
    const auto length = 2 + rng.below(6);
    while (words.size() < length) {
      const auto word = rng.below(24);
      if (std::find(words.begin(), words.end(), word) == words.end()) words.push_back(word);
    }
    std::vector<int> to;
    std::string source, target;
    for (std::size_t i = 0; i < words.size(); ++i) {
      const std::size_t swapped = (i ^ 1U) < words.size() ? i ^ 1U : i;
      source += (i ? " e" : "e") + std::to_string(words[i]);
      target += (i ? " f" : "f") + std::to_string((words[swapped] * 7 + 3) % 24);
      to.push_back(static_cast<int>(swapped));
    }
    pairs.emplace_back(source, target);
    gold.push_back(gold_links(to));
  }
  const align::Ibm2Corpus corpus = corpus_of(pairs);
  align::HmmOptions options;
  align::HmmModel model = align::hmm_start_model(corpus, options);
  align::hmm_train(corpus, options, model);
  for (const auto kind : {align::HmmLinks::kAgreed, align::HmmLinks::kForward, align::HmmLinks::kReverse,
                          align::HmmLinks::kAverage}) {
    for (const auto& [decoding, competitive] : {std::pair{align::HmmDecoding::kPosterior, false},
                                                {align::HmmDecoding::kPosterior, true},
                                                {align::HmmDecoding::kViterbi, false}}) {
      options.links = kind;
      options.decoding = decoding;
      options.competitive = competitive;
      const auto links = decode(corpus, options, model);
      std::size_t wrong = 0;
      for (std::size_t k = 0; k < links.size(); ++k) {
        if (links[k] != gold[k] && wrong++ < 3) {
          BOOST_TEST_MESSAGE("pair " << k << " '" << pairs[k].first << "' / '" << pairs[k].second << "': "
                                     << data::format_pharaoh(links[k]) << ", expected " << data::format_pharaoh(gold[k]));
        }
      }
      BOOST_TEST(wrong == 0u, "links " << static_cast<int>(kind) << ", decoding " << static_cast<int>(decoding)
                                       << (competitive ? ", competitive" : ""));
    }
  }
}

// More than one block of pairs (2,048 a block), with and without the position cache: threads
// change neither the tables, the jumps, the log-likelihoods nor the links, bit for bit.
BOOST_AUTO_TEST_CASE(threads_give_the_same_tables_and_links) {
  const align::Ibm2Corpus corpus = corpus_of(random_pairs(2300, 3));
  for (const bool variants : {false, true}) {
  align::HmmOptions options;
  options.model1_iterations = 2;
  options.hmm_iterations = 2;
  if (variants) {  // every other training option that changes the arithmetic
    options.agreement_empty = align::HmmAgreementEmpty::kProduct;
    options.p_empty_mode = align::PEmptyMode::kByLength;
    options.alpha = 0.05;
    options.boundary_jumps = false;
  }
  align::HmmModel first;
  std::vector<align::HmmIteration> first_iterations;
  std::string first_links;
  for (const auto& [threads, cache_mb] : {std::pair{1, 4096}, {2, 4096}, {3, 4096}, {3, 0}}) {
    options.threads = threads;
    options.index_cache_mb = static_cast<std::size_t>(cache_mb);
    align::HmmModel model = align::hmm_start_model(corpus, options);
    const auto iterations = align::hmm_train(corpus, options, model);
    std::string links;
    for (const auto kind : {align::HmmLinks::kForward, align::HmmLinks::kAgreed, align::HmmLinks::kAverage}) {
      for (const auto decoding : {align::HmmDecoding::kPosterior, align::HmmDecoding::kViterbi}) {
        options.links = kind;
        options.decoding = decoding;
        links += text_of(decode(corpus, options, model));
      }
    }
    options.decoding = align::HmmDecoding::kPosterior;
    options.competitive = true;
    links += text_of(decode(corpus, options, model));
    options.competitive = false;
    const std::string name = std::to_string(threads) + " threads, cache " + std::to_string(cache_mb) +
                             (variants ? ", product empty, by length, alpha, no boundary jumps" : "");
    if (threads == 1) {
      first = model;
      first_iterations = iterations;
      first_links = links;
      continue;
    }
    check_same_tables(first, model, name);
    BOOST_TEST((links == first_links), name);
    BOOST_TEST_REQUIRE(iterations.size() == first_iterations.size());
    for (std::size_t i = 0; i < iterations.size(); ++i) {
      BOOST_TEST(iterations[i].forward_log_likelihood == first_iterations[i].forward_log_likelihood, name);
      BOOST_TEST(iterations[i].reverse_log_likelihood == first_iterations[i].reverse_log_likelihood, name);
    }
  }
  }
}

// --p-empty-mode: learned moves the empty word's probability, fixed keeps --p-empty, by length
// keeps the stored value (each pair's is 1 / (I + 1)); a saved model aligns as the trained one,
// by length with boundary jumps too, and a file that lacks one of their lines is refused.
BOOST_AUTO_TEST_CASE(p_empty_is_learned_only_when_asked) {
  const align::Ibm2Corpus corpus = corpus_of(random_pairs(200, 4));
  const rt::TempDir dir;
  for (const auto mode : {align::PEmptyMode::kLearned, align::PEmptyMode::kFixed, align::PEmptyMode::kByLength}) {
    align::HmmOptions options;
    options.model1_iterations = 2;
    options.hmm_iterations = 3;
    options.p_empty = 0.3;
    options.p_empty_mode = mode;
    options.boundary_jumps = mode != align::PEmptyMode::kFixed;  // and their weights saved and read
    align::HmmModel model = align::hmm_start_model(corpus, options);
    align::hmm_train(corpus, options, model);
    const std::string name = "mode " + std::to_string(static_cast<int>(mode));
    for (const align::HmmDirection* direction : {&model.forward, &model.reverse}) {
      BOOST_TEST((direction->jumps.p_empty_mode == mode), name);
      BOOST_TEST((direction->jumps.p_empty != 0.3) == (mode == align::PEmptyMode::kLearned), name);
    }
    const std::string path = (dir.path() / "params").string();
    align::write_hmm_params(path, corpus, model, 0.0);
    const align::HmmModel loaded = align::read_hmm_params(path, corpus, 1);
    BOOST_TEST((loaded.forward.jumps.p_empty_mode == (mode == align::PEmptyMode::kByLength ? mode : align::PEmptyMode::kLearned)),
               name);
    BOOST_TEST(loaded.forward.jumps.start == model.forward.jumps.start, name);
    BOOST_TEST(loaded.reverse.jumps.end == model.reverse.jumps.end, name);
    for (const auto decoding : {align::HmmDecoding::kPosterior, align::HmmDecoding::kViterbi}) {
      options.links = align::HmmLinks::kAverage;
      options.decoding = decoding;
      BOOST_TEST((text_of(decode(corpus, options, loaded)) == text_of(decode(corpus, options, model))), name);
    }
    if (options.boundary_jumps) {  // a start line left out
      std::vector<std::string> lines = lines_of(path);
      BOOST_TEST(lines.at(0) == "nmt-hmm-params 3 model=hmm jump-width=7 boundary-jumps");
      lines.erase(std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("reverse\tstart\t", 0) == 0; }));
      lines.back() = "end\t" + std::to_string(lines.size() - 1);
      std::ofstream(path) << joined_lines(lines);
      BOOST_TEST(error_of(path, corpus) == path + ": the reverse direction's p-empty or jump, start or end lines are missing");
    }
  }
}

// write_hmm_params then read_hmm_params (every entry written): on the training pairs, the
// loaded tables are the trained ones and give the same links for every --links and decoding;
// on new pairs (some of the training ones, and one of unseen words), the training pairs get
// the links they had in training.
BOOST_AUTO_TEST_CASE(saved_params_align_as_the_trained_model) {
  const Pairs pairs = random_pairs(300, 8);
  const align::Ibm2Corpus corpus = corpus_of(pairs);
  Pairs subset;
  std::vector<std::size_t> subset_of;
  for (std::size_t k = 0; k < pairs.size(); k += 3) {
    subset.push_back(pairs[k]);
    subset_of.push_back(k);
  }
  subset.emplace_back("s0 unseen-source s1", "never-seen t0");
  const align::Ibm2Corpus new_corpus = corpus_of(subset);
  const rt::TempDir dir;
  for (const int hmm_iterations : {0, 3}) {
    align::HmmOptions options;
    options.model1_iterations = 3;
    options.hmm_iterations = hmm_iterations;
    align::HmmModel model = align::hmm_start_model(corpus, options);
    align::hmm_train(corpus, options, model);
    const std::string path = (dir.path() / ("params" + std::to_string(hmm_iterations))).string();
    align::write_hmm_params(path, corpus, model, 0.0);
    const std::string header = hmm_iterations > 0 ? "nmt-hmm-params 3 model=hmm jump-width=7 boundary-jumps"
                                                   : "nmt-hmm-params 3 model=model1 jump-width=7";
    BOOST_TEST(lines_of(path).at(0) == header);
    const align::HmmModel loaded = align::read_hmm_params(path, corpus, 2);
    BOOST_TEST(loaded.hmm == model.hmm);
    check_same_tables(model, loaded, "loaded, " + std::to_string(hmm_iterations) + " hmm iterations");
    const align::HmmModel loaded_new = align::read_hmm_params(path, new_corpus, 1);
    for (const auto kind : {align::HmmLinks::kForward, align::HmmLinks::kReverse, align::HmmLinks::kAgreed,
                            align::HmmLinks::kAverage}) {
      for (const auto decoding : {align::HmmDecoding::kPosterior, align::HmmDecoding::kViterbi}) {
        options.links = kind;
        options.decoding = decoding;
        const std::string name = std::to_string(hmm_iterations) + " hmm iterations, links " +
                                 std::to_string(static_cast<int>(kind)) + ", decoding " +
                                 std::to_string(static_cast<int>(decoding));
        const auto trained = decode(corpus, options, model);
        BOOST_TEST((text_of(decode(corpus, options, loaded)) == text_of(trained)), name);
        const auto again = decode(new_corpus, options, loaded_new);
        std::size_t different = 0;
        for (std::size_t s = 0; s < subset_of.size(); ++s) different += again[s] != trained[subset_of[s]];
        BOOST_TEST(different == 0u, name);
      }
    }
  }
}

// Bad params files are util::Errors naming the file and the line.
BOOST_AUTO_TEST_CASE(bad_params_files_name_the_file_and_line) {
  const TinyModel tiny;
  const align::Ibm2Corpus& corpus = tiny.corpus;
  const rt::TempDir dir;
  const std::string good = tiny.saved(dir, "good");
  const std::vector<std::string> lines = lines_of(good);
  // Header, then p-empty and 5 jump lines a direction, then the entries.
  BOOST_TEST_REQUIRE(lines.size() > 13u);
  BOOST_TEST_REQUIRE(lines[1].rfind("forward\tp-empty\t", 0) == 0);
  BOOST_TEST_REQUIRE(lines[2].rfind("forward\tjump\t-2\t", 0) == 0);
  BOOST_TEST_REQUIRE(lines[12].rfind("reverse\tjump\t2\t", 0) == 0);
  BOOST_TEST_REQUIRE(lines[13].rfind("forward\tt\t", 0) == 0);
  BOOST_TEST(error_of(good, corpus) == "(no error)");
  const auto with = [&](std::size_t at, const std::string& line) {
    auto changed = lines;
    changed[at] = line;
    return changed;
  };
  auto without_jump = lines;
  without_jump.erase(without_jump.begin() + 4);
  without_jump.back() = "end\t" + std::to_string(without_jump.size() - 1);
  BOOST_TEST_REQUIRE(lines.back() == "end\t" + std::to_string(lines.size() - 1));
  const std::vector<std::string> cut_short(lines.begin(), lines.end() - 3);
  auto with_line_after_end = lines;
  with_line_after_end.push_back(lines[13]);
  std::vector<std::string> version1_without_reverse_table;
  for (std::size_t k = 0; k + 1 < lines.size(); ++k) {
    if (k == 0) {
      version1_without_reverse_table.push_back("nmt-hmm-params 1 model=hmm jump-width=2");
    } else if (k < 13 || lines[k].rfind("forward\tt\t", 0) == 0) {
      version1_without_reverse_table.push_back(lines[k]);
    }
  }
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, ":1: is empty"},
      {with(0, "nmt-ibm2-table 1 direction=forward p-null=0.08 tension=4"), ":1: not the parameters of nmt-align hmm"},
      {with(0, "nmt-hmm-params 5 model=hmm jump-width=2"), ":1: not the parameters"},
      {with(0, "nmt-hmm-params 3 model=hmm jump-width=2 stem-length=4 stem-below=50"), ":1: not the parameters"},
      {with(0, "nmt-hmm-params 4 model=hmm jump-width=2 stem-length=4"), ":1: not the parameters"},
      {with(0, "nmt-hmm-params 4 model=hmm jump-width=2 stem-length=0 stem-below=50"), ":1: not the parameters"},
      {with(0, "nmt-hmm-params 4 model=hmm jump-width=2 stem-below=50 stem-length=4"), ":1: not the parameters"},
      {with(0, "nmt-hmm-params 1 model=hmm jump-width=0"), ":1: not the parameters"},
      {with(0, "nmt-hmm-params 1 model=ibm4 jump-width=2"), ":1: not the parameters"},
      {with(3, "forward\tjunk"), ":4: expected 'forward|reverse<TAB>p-empty<TAB>P'"},
      {with(3, "sideways\tjump\t-1\t0.2"), ":4: expected"},
      {with(13, "forward\tt\ta\tx"), ":14: expected"},
      {with(1, "forward\tp-empty\t1.5"), ":2: '1.5' is not a probability in (0, 1]"},
      {with(3, "forward\tjump\t-1\tnan"), ":4: 'nan' is not a probability"},
      {with(13, "forward\tt\ta\tx\t0"), ":14: '0' is not a probability"},
      {with(13, "forward\tt\ta\tx\t-0.5"), ":14: '-0.5' is not a probability"},
      {with(3, "forward\tjump\t3\t0.2"), ":4: jump class '3' is not an integer in [-2, 2]"},
      {with(3, "forward\tjump\t0.5\t0.2"), ":4: jump class '0.5' is not an integer"},
      {without_jump, ": the forward direction's p-empty or jump lines are missing"},
      // Cut short at a line's end (the end line gone), or the end line's count changed.
      {cut_short, ":" + std::to_string(cut_short.size()) + ": the file ends before its end line: it was cut short"},
      {with(lines.size() - 1, "end\t7"), ":" + std::to_string(lines.size()) + ": expected 'end<TAB>" +
                                              std::to_string(lines.size() - 1) + "'"},
      {with_line_after_end, ":" + std::to_string(lines.size() + 1) + ": a line after the end line"},
      // A version 1 file (no end line) without the reverse table.
      {version1_without_reverse_table, ": the reverse direction's translation table is missing"},
  };
  int number = 0;
  for (const auto& [bad_lines, expected] : cases) {
    const std::string path = dir.write("bad" + std::to_string(number++), joined_lines(bad_lines));
    const std::string error = error_of(path, corpus);
    BOOST_TEST(error.rfind(path + expected, 0) == 0, "expected '" << path + expected << "...', got '" << error << "'");
  }
}

// A version 1 file (before the end line) is read as it was; the words of the aligned pairs
// that no entry of the file names are counted per side, as the unknown-word warning reads them.
BOOST_AUTO_TEST_CASE(version_1_files_load_and_unknown_words_are_counted) {
  const TinyModel tiny;
  const align::Ibm2Corpus& corpus = tiny.corpus;
  const align::HmmModel& model = tiny.model;
  const rt::TempDir dir;
  const std::string path = tiny.saved(dir, "params");
  auto lines = lines_of(path);
  lines[0] = "nmt-hmm-params 1 model=hmm jump-width=2";
  lines.pop_back();
  const std::string version1 = dir.write("version1", joined_lines(lines));
  check_same_tables(model, align::read_hmm_params(version1, corpus, 1), "a version 1 file");

  // "a b c" / "x z": c and z are words the file never names; then the sides swapped.
  const align::Ibm2Corpus other = corpus_of({{"a b c", "x z"}});
  data::UnknownTokens unknown;
  align::read_hmm_params(path, other, 1, &unknown);
  BOOST_TEST(unknown.tokens(data::UnknownTokens::kSource) == 3u);
  BOOST_TEST(unknown.unknown(data::UnknownTokens::kSource) == 1u);
  BOOST_TEST(unknown.tokens(data::UnknownTokens::kTarget) == 2u);
  BOOST_TEST(unknown.unknown(data::UnknownTokens::kTarget) == 1u);
  // Swapped: the file names x and y, but as target words.
  align::read_hmm_params(path, corpus_of({{"x y", "a b"}}), 1, &unknown);
  BOOST_TEST(unknown.unknown(data::UnknownTokens::kSource) == 2u);
  BOOST_TEST(unknown.unknown(data::UnknownTokens::kTarget) == 2u);
}

// A jump class or p-empty given twice is an error naming the file and the line of the second
// (counting lines would otherwise take it for the class or p-empty a file leaves out).
BOOST_AUTO_TEST_CASE(a_repeated_jump_or_p_empty_line_is_an_error) {
  const TinyModel tiny;
  const align::Ibm2Corpus& corpus = tiny.corpus;
  const rt::TempDir dir;
  const std::string good = tiny.saved(dir, "good");
  const std::vector<std::string> lines = lines_of(good);
  BOOST_TEST_REQUIRE(lines[6].rfind("forward\tjump\t2\t", 0) == 0);
  BOOST_TEST_REQUIRE(lines[7].rfind("reverse\tp-empty\t", 0) == 0);
  auto twice_jump = lines, twice_p_empty = lines;
  twice_jump[6] = "forward\tjump\t-2\t0.5";  // class -2 twice, class 2 missing
  twice_p_empty[8] = "reverse\tp-empty\t0.3";  // p-empty twice, class -2 missing
  for (const auto& [bad, line] : {std::pair{twice_jump, 7}, {twice_p_empty, 9}}) {
    const std::string path = dir.write("bad" + std::to_string(line), joined_lines(bad));
    const std::string error = error_of(path, corpus);
    BOOST_TEST(error.rfind(path + ":" + std::to_string(line) + ": ", 0) == 0, error);
  }
}

// The file held in memory (nmt-serve's /v1/align) gives, for any corpus, the model
// read_hmm_params reads for it: the training pairs, a subset, single pairs, and unseen words.
BOOST_AUTO_TEST_CASE(params_held_in_memory_give_the_model_read_for_each_corpus) {
  const Pairs pairs = random_pairs(200, 8);
  const align::Ibm2Corpus corpus = corpus_of(pairs);
  const rt::TempDir dir;
  align::HmmOptions options;
  options.model1_iterations = 2;
  options.hmm_iterations = 2;
  align::HmmModel model = align::hmm_start_model(corpus, options);
  align::hmm_train(corpus, options, model);
  const std::string path = (dir.path() / "params").string();
  align::write_hmm_params(path, corpus, model, 0.01);  // some entries left out
  const align::HmmParamsFile held(path);
  std::vector<align::Ibm2Corpus> corpora = {corpus, corpus_of({pairs[3]}), corpus_of({pairs[7], pairs[1]}),
                                            corpus_of({{"s0 unseen-source s1", "never-seen t0"}})};
  for (std::size_t k = 0; k < corpora.size(); ++k) {
    const align::HmmModel expected = align::read_hmm_params(path, corpora[k], 1);
    const align::HmmModel got = held.model_for(corpora[k]);
    BOOST_TEST(got.hmm == expected.hmm);
    check_same_tables(expected, got, "corpus " + std::to_string(k));
    options.links = align::HmmLinks::kAgreed;
    BOOST_TEST((text_of(decode(corpora[k], options, got)) == text_of(decode(corpora[k], options, expected))));
  }
}

// It checks the whole file once, with read_hmm_params's errors.
BOOST_AUTO_TEST_CASE(params_held_in_memory_refuse_a_bad_file_as_read_hmm_params_does) {
  const TinyModel tiny;
  const rt::TempDir dir;
  auto lines = lines_of(tiny.saved(dir, "good"));
  const std::vector<std::string> cut_short(lines.begin(), lines.end() - 3);
  lines[13] = "forward\tt\ta\tx\t0";
  for (const auto& bad : {lines, cut_short}) {
    const std::string path = dir.write("bad" + std::to_string(bad.size()), joined_lines(bad));
    std::string error = "(no error)";
    try {
      align::HmmParamsFile held(path);
    } catch (const util::Error& e) {
      error = e.what();
    }
    BOOST_TEST(error == error_of(path, tiny.corpus));
    BOOST_TEST(error != "(no error)");
  }
}

BOOST_AUTO_TEST_SUITE_END()
