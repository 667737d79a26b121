// The pieces of constrained decoding without a model: a hypothesis's progress through its
// positive phrases (ordered and unordered, phrases broken off and started again), dynamic
// beam allocation's share of the beam per bank, and reading a line's prefix and phrases in
// each input format, with the errors that name the file and line.
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include "data/vocabulary.h"
#include "search/constraint_input.h"
#include "search/dynamic_beam_allocation.h"
#include "search/target_constraints.h"
#include "util/error.h"
#include "util/rng.h"

using namespace rnnsearch;
using search::ConstraintOrder;
using search::ConstraintState;
using search::TargetConstraints;

namespace {

ConstraintState after(const TargetConstraints& c, const std::vector<std::int32_t>& tokens) {
  ConstraintState state = search::initial_state(c);
  for (const auto token : tokens) state = search::advance(c, state, token);
  return state;
}

std::vector<std::int32_t> advancing(const TargetConstraints& c, const ConstraintState& state) {
  std::vector<std::int32_t> tokens;
  search::advancing_tokens(c, state, tokens);
  return tokens;
}

// Whether `phrase` occurs in `tokens` as consecutive tokens.
bool contains(const std::vector<std::int32_t>& tokens, const std::vector<std::int32_t>& phrase) {
  return std::search(tokens.begin(), tokens.end(), phrase.begin(), phrase.end()) != tokens.end();
}

// Met tokens as a definition: unordered, a phrase is met once it occurs; the count is the
// met phrases' tokens plus the longest start of an unmet phrase that the tokens end with,
// when the tracker follows that phrase. Checked here only where the definition is plain:
// phrases with distinct first tokens.
bool unordered_all_met(const TargetConstraints& c, const std::vector<std::int32_t>& tokens) {
  return std::all_of(c.positive.begin(), c.positive.end(), [&](const auto& p) { return contains(tokens, p); });
}

std::string error_text(const std::function<void()>& f) {
  try {
    f();
  } catch (const util::Error& e) {
    return e.what();
  } catch (const util::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(target_constraints)

BOOST_AUTO_TEST_CASE(unordered_phrases_are_met_in_any_order_and_a_broken_phrase_is_undone) {
  TargetConstraints c;
  c.positive = {{5, 6, 7}, {9}};
  BOOST_TEST(c.positive_tokens() == 4);
  BOOST_TEST((advancing(c, after(c, {})) == std::vector<std::int32_t>{5, 9}));
  auto s = after(c, {4, 5, 6});
  BOOST_TEST(s.met_tokens == 2);
  BOOST_TEST((advancing(c, s) == std::vector<std::int32_t>{7}));  // in progress: only its next token
  s = search::advance(c, s, 8);                                    // broken off
  BOOST_TEST(s.met_tokens == 0);
  BOOST_TEST((advancing(c, s) == std::vector<std::int32_t>{5, 9}));
  s = after(c, {5, 6, 5});  // broken off by its own first token: started again
  BOOST_TEST(s.met_tokens == 1);
  BOOST_TEST(!search::all_met(c, after(c, {9, 5, 6})));
  BOOST_TEST(search::all_met(c, after(c, {9, 1, 5, 6, 7})));
  BOOST_TEST(search::all_met(c, after(c, {5, 6, 7, 9})));
  BOOST_TEST(after(c, {5, 6, 7, 9}).met_tokens == 4);
  BOOST_TEST(advancing(c, after(c, {5, 6, 7, 9})).empty());
}

BOOST_AUTO_TEST_CASE(a_one_token_phrase_is_completed_before_a_longer_one_is_started) {
  TargetConstraints c;
  c.positive = {{5, 6}, {5}};
  auto s = after(c, {5});
  BOOST_TEST(s.met_tokens == 1);
  BOOST_TEST(s.current == -1);
  BOOST_TEST((advancing(c, s) == std::vector<std::int32_t>{5}));
  BOOST_TEST(search::all_met(c, after(c, {5, 5, 6})));
}

BOOST_AUTO_TEST_CASE(ordered_phrases_count_only_in_their_order) {
  TargetConstraints c;
  c.order = ConstraintOrder::kOrdered;
  c.positive = {{5, 6}, {9}};
  BOOST_TEST((advancing(c, after(c, {})) == std::vector<std::int32_t>{5}));
  BOOST_TEST(after(c, {9}).met_tokens == 0);  // the second phrase before the first: not counted
  BOOST_TEST(after(c, {5, 6}).met_tokens == 2);
  BOOST_TEST((advancing(c, after(c, {5, 6})) == std::vector<std::int32_t>{9}));
  BOOST_TEST(!search::all_met(c, after(c, {9, 5, 6})));
  BOOST_TEST(search::all_met(c, after(c, {9, 5, 6, 1, 9})));
  BOOST_TEST(after(c, {5, 4}).met_tokens == 0);
  BOOST_TEST(after(c, {5, 5}).met_tokens == 1);
}

BOOST_AUTO_TEST_CASE(all_met_agrees_with_the_definition_on_random_token_strings) {
  util::Rng rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    TargetConstraints c;
    const int phrases = 1 + static_cast<int>(rng.below(3));
    for (int k = 0; k < phrases; ++k) {
      std::vector<std::int32_t> phrase{static_cast<std::int32_t>(10 * (k + 1))};  // distinct first tokens
      for (std::uint64_t n = rng.below(3); n > 0; --n) phrase.push_back(static_cast<std::int32_t>(rng.below(4)));
      c.positive.push_back(phrase);
    }
    std::vector<std::int32_t> tokens;
    for (std::uint64_t n = rng.below(14); n > 0; --n) {
      const auto pick = rng.below(6);
      tokens.push_back(pick < 3 ? static_cast<std::int32_t>(10 * (pick + 1)) : static_cast<std::int32_t>(rng.below(4)));
    }
    const auto state = after(c, tokens);
    BOOST_TEST(search::all_met(c, state) == unordered_all_met(c, tokens));
    BOOST_TEST(state.met_tokens >= 0);
    BOOST_TEST(state.met_tokens <= c.positive_tokens());
  }
}

BOOST_AUTO_TEST_CASE(the_beam_goes_round_robin_over_the_banks_from_the_top) {
  std::vector<std::size_t> kept;
  // Banks of 9 candidates (best first), beam 6: each bank's best (2, 1, 0: candidates 4, 3,
  // 0), then each bank's second (6, 5, 1).
  search::allocate_beam({0, 0, 0, 1, 2, 1, 2, 0, 1}, 2, 6, kept);
  BOOST_TEST((kept == std::vector<std::size_t>{0, 1, 3, 4, 5, 6}));
  // Beam 4: the third round reaches only the top bank.
  search::allocate_beam({0, 0, 0, 1, 2, 1, 2, 0, 1}, 2, 4, kept);
  BOOST_TEST((kept == std::vector<std::size_t>{0, 3, 4, 6}));
  // An empty bank takes no place: the others' next candidates do.
  search::allocate_beam({0, 0, 0, 1, 0, 1, 1}, 2, 6, kept);
  BOOST_TEST((kept == std::vector<std::size_t>{0, 1, 2, 3, 5, 6}));
  // More banks than places: the highest banks with candidates first.
  search::allocate_beam({0, 0, 1, 3, 0}, 4, 2, kept);
  BOOST_TEST((kept == std::vector<std::size_t>{2, 3}));
  // Fewer candidates than places: all of them.
  search::allocate_beam({0, 2}, 2, 5, kept);
  BOOST_TEST((kept == std::vector<std::size_t>{0, 1}));
  // One bank: the best `width`, as without constraints.
  search::allocate_beam({1, 1, 1, 1, 1}, 1, 3, kept);
  BOOST_TEST((kept == std::vector<std::size_t>{0, 1, 2}));
}

BOOST_AUTO_TEST_CASE(lines_are_read_in_each_format) {
  search::ConstraintInput plain;
  BOOST_TEST(search::parse_line("a b\tc", plain, "in", 1).source == "a b\tc");
  search::ConstraintInput tsv;
  tsv.tab_constraints = true;
  auto r = search::parse_line("a b\tc d\t\te", tsv, "in", 1);
  BOOST_TEST(r.source == "a b");
  BOOST_TEST((r.positive == std::vector<std::string>{"c d", "", "e"}));
  tsv.force_decode = true;
  r = search::parse_line("a b\tx y\tc", tsv, "in", 1);
  BOOST_TEST(r.prefix == "x y");
  BOOST_TEST((r.positive == std::vector<std::string>{"c"}));
  search::ConstraintInput prefix_only;
  prefix_only.force_decode = true;
  BOOST_TEST(search::parse_line("a b", prefix_only, "in", 1).prefix.empty());
  BOOST_TEST(error_text([&] { search::parse_line("a\tb\tc", prefix_only, "in", 4); }).rfind("in:4: 3 tab-separated", 0) == 0);
  search::ConstraintInput json;
  json.json = true;
  r = search::parse_line(R"({"text": "a b", "constraints": ["c", "d e"], "avoid": ["f"], "target_prefix": "g"})", json,
                         "in", 1);
  BOOST_TEST(r.source == "a b");
  BOOST_TEST((r.positive == std::vector<std::string>{"c", "d e"}));
  BOOST_TEST((r.avoid == std::vector<std::string>{"f"}));
  BOOST_TEST(r.prefix == "g");
  BOOST_TEST(search::parse_line("", json, "in", 1).source.empty());
  BOOST_TEST(error_text([&] { search::parse_line("{\"text\": \"a\"", json, "in", 2); }).rfind("in:2: not JSON", 0) == 0);
  BOOST_TEST(error_text([&] { search::parse_line("[1]", json, "in", 3); }) == "in:3: not a JSON object (--json-input)");
  BOOST_TEST(error_text([&] { search::parse_line(R"({"text": "a", "avoid": "b"})", json, "in", 5); }) ==
             "in:5: \"avoid\" must be a list of strings");
  BOOST_TEST(error_text([&] { search::parse_line(R"({"text": "a", "constrains": []})", json, "in", 6); })
                 .rfind("in:6: unknown key \"constrains\"", 0) == 0);
  BOOST_TEST(error_text([&] { search::parse_line(R"({"avoid": []})", json, "in", 7); }) ==
             "in:7: the JSON object has no \"text\"");
  BOOST_TEST(error_text([] { search::parse_constraint_order("any"); }) ==
             "--constraints must be ordered or unordered, got 'any'");
}

BOOST_AUTO_TEST_CASE(phrases_become_target_ids_and_bad_ones_name_the_line) {
  const data::Vocabulary target({"le", "chat", "noir"});  // ids 4, 5, 6
  search::LineRequest r{"src", "le chat </s>", {}, {"noir"}};
  auto c = search::target_constraints(r, ConstraintOrder::kOrdered, target, "in", 1);
  BOOST_TEST((c.prefix == std::vector<std::int32_t>{4, 5, 3}));
  BOOST_TEST((c.avoid == std::vector<std::vector<std::int32_t>>{{6}}));
  BOOST_TEST((c.order == ConstraintOrder::kOrdered));
  BOOST_TEST(c.needed_length() == 2u);  // </s> not counted
  r.positive = {"chat noir", ""};
  BOOST_TEST(error_text([&] { search::target_constraints(r, ConstraintOrder::kOrdered, target, "in", 9); }) ==
             "in:9: the prefix ends with </s>: no constraint can follow it");
  r.prefix = "le";
  c = search::target_constraints(r, ConstraintOrder::kUnordered, target, "in", 1);
  BOOST_TEST((c.positive == std::vector<std::vector<std::int32_t>>{{5, 6}}));  // the empty phrase asks for nothing
  BOOST_TEST(c.needed_length() == 3u);
  r.positive = {"chat chien"};
  BOOST_TEST(error_text([&] { search::target_constraints(r, ConstraintOrder::kUnordered, target, "in", 3); }) ==
             "in:3: the constraint 'chat chien' has a piece the model's target vocabulary lacks: 'chien'");
  r.positive = {"chat </s>"};
  BOOST_TEST(error_text([&] { search::target_constraints(r, ConstraintOrder::kUnordered, target, "in", 3); }) ==
             "in:3: the constraint 'chat </s>' has the special token '</s>'");
  r.positive = {};
  r.prefix = "le </s> chat";
  BOOST_TEST(error_text([&] { search::target_constraints(r, ConstraintOrder::kUnordered, target, "in", 2, "pre"); }) ==
             "pre:2: the prefix 'le </s> chat' has the special token '</s>' before its end");
  r.prefix = "";
  r.avoid = {"<unk>"};
  BOOST_TEST(error_text([&] { search::target_constraints(r, ConstraintOrder::kUnordered, target, "in", 2); }) ==
             "in:2: the phrase to avoid '<unk>' has the special token '<unk>'");
  r.avoid = {};
  r.positive.assign(65, "le");
  BOOST_TEST(error_text([&] { search::target_constraints(r, ConstraintOrder::kUnordered, target, "in", 8); }) ==
             "in:8: 65 constraints, more than 64 a line may have");
  TargetConstraints tall;
  tall.positive = {{4, 5, 6}, {4}};
  BOOST_TEST(error_text([&] { search::check_constraint_length(tall, 4, "in", 1); }).empty());
  BOOST_TEST(error_text([&] { search::check_constraint_length(tall, 3, "in", 5); }) ==
             "in:5: the prefix and constraints need 4 target tokens, more than the 3 the length limit allows "
             "(--max-length-ratio x source length + 10)");
}

BOOST_AUTO_TEST_SUITE_END()
