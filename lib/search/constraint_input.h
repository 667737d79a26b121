#pragma once
// How nmt-decode reads what a line asks of its translation besides the source
// (nmt-decode(1), INPUT FORMATS), every part in BPE pieces as the source is:
//   --force-decode           SOURCE<TAB>PREFIX                 (Marian's --force-decode)
//   --constraints ORDER      SOURCE<TAB>PHRASE<TAB>PHRASE...   (fairseq's --constraints)
//   both                     SOURCE<TAB>PREFIX<TAB>PHRASE...
//   --json-input             {"text": SOURCE, "constraints": [PHRASE...], "avoid": [PHRASE...],
//                             "target_prefix": PREFIX}       (Sockeye's JSON lines; each key but
//                             "text" optional; --constraints sets the order, else unordered)
// Empty fields and phrases ask for nothing. Without any of these options a line is its source,
// tabs and all (they separate pieces as spaces do).
#include <cstddef>
#include <string>
#include <vector>

#include "data/vocabulary.h"
#include "search/target_constraints.h"

namespace rnnsearch::search {

struct ConstraintInput {
  bool force_decode = false;     // the second tab-separated field is the prefix
  bool tab_constraints = false;  // the (further) tab-separated fields are positive phrases
  bool json = false;             // every non-empty line is a JSON object
  ConstraintOrder order = ConstraintOrder::kUnordered;

  bool reads_fields() const { return force_decode || tab_constraints || json; }
};

// "ordered" or "unordered"; throws util::UsageError "--constraints must be ordered or unordered, got 'NAME'".
ConstraintOrder parse_constraint_order(const std::string& name);

// A line's parts as text.
struct LineRequest {
  std::string source;
  std::string prefix;
  std::vector<std::string> positive, avoid;
};

// Splits `line` (line `line_number` of `file`) as `input` says. Throws util::Error naming the
// file and line for a line that is not a JSON object of the keys above (with --json-input).
LineRequest parse_line(const std::string& line, const ConstraintInput& input, const std::string& file,
                       std::size_t line_number);

// The request's prefix and phrases as target ids. Throws util::Error naming the file and
// line for a piece the vocabulary lacks ("the constraint 'x y' has a piece the model's target
// vocabulary lacks: 'y'"), a special token (</s> only as the prefix's last), more than
// kMaxPositiveConstraints phrases, or positive phrases after a prefix that ends with </s>.
// The prefix's errors name `prefix_file` (the file of --prefix) when it is not empty.
TargetConstraints target_constraints(const LineRequest& request, ConstraintOrder order,
                                     const data::Vocabulary& target, const std::string& file, std::size_t line_number,
                                     const std::string& prefix_file = "");

// Throws util::Error naming the file and line when the prefix and the positive phrases need
// more than `limit` target tokens (search/beam_search.h: target_length_limit).
void check_constraint_length(const TargetConstraints& constraints, int limit, const std::string& file,
                             std::size_t line_number);

}  // namespace rnnsearch::search
