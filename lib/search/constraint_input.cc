#include "search/constraint_input.h"

#include <nlohmann/json.hpp>

#include "text/word_counter.h"
#include "util/error.h"
#include "util/split_fields.h"

namespace rnnsearch::search {

namespace {

std::string json_string(const nlohmann::json& value, const std::string& key, const std::string& file,
                        std::size_t line_number) {
  if (!value.is_string()) throw util::Error(file, line_number, "\"" + key + "\" must be a string");
  return value.get<std::string>();
}

std::vector<std::string> json_strings(const nlohmann::json& value, const std::string& key, const std::string& file,
                                      std::size_t line_number) {
  if (!value.is_array()) throw util::Error(file, line_number, "\"" + key + "\" must be a list of strings");
  std::vector<std::string> strings;
  for (const auto& item : value) strings.push_back(json_string(item, key, file, line_number));
  return strings;
}

LineRequest parse_json_line(const std::string& line, const std::string& file, std::size_t line_number) {
  nlohmann::json object;
  try {
    object = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error& e) {
    throw util::Error(file, line_number, std::string("not JSON (--json-input): ") + e.what());
  }
  if (!object.is_object()) throw util::Error(file, line_number, "not a JSON object (--json-input)");
  if (!object.contains("text")) throw util::Error(file, line_number, "the JSON object has no \"text\"");
  LineRequest request;
  for (const auto& [key, value] : object.items()) {
    if (key == "text") {
      request.source = json_string(value, key, file, line_number);
    } else if (key == "target_prefix") {
      request.prefix = json_string(value, key, file, line_number);
    } else if (key == "constraints") {
      request.positive = json_strings(value, key, file, line_number);
    } else if (key == "avoid") {
      request.avoid = json_strings(value, key, file, line_number);
    } else {
      throw util::Error(file, line_number,
                        "unknown key \"" + key + "\" (--json-input reads text, constraints, avoid and target_prefix)");
    }
  }
  return request;
}

// A phrase's pieces as target ids (see target_constraints in the header); `what` names it.
std::vector<std::int32_t> phrase_ids(const std::string& phrase, const std::string& what, bool eos_last,
                                     const data::Vocabulary& target, const std::string& file, std::size_t line_number) {
  std::vector<std::string_view> pieces;
  text::split_space_words(phrase, pieces);
  std::vector<std::int32_t> ids;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const std::string piece(pieces[k]);
    const auto id = target.find(piece);
    const bool special = id && *id < data::Vocabulary::kSpecials;
    const bool final_eos = eos_last && id == data::Vocabulary::kEos && k + 1 == pieces.size();
    if (!id || (special && !final_eos)) {
      throw util::Error(file, line_number,
                        what + " '" + phrase + "' has " + (id ? "the special token" : "a piece the model's target vocabulary lacks:") +
                            " '" + piece + "'" + (eos_last && id == data::Vocabulary::kEos ? " before its end" : ""));
    }
    ids.push_back(*id);
  }
  return ids;
}

}  // namespace

ConstraintOrder parse_constraint_order(const std::string& name) {
  if (name == "ordered") return ConstraintOrder::kOrdered;
  if (name == "unordered") return ConstraintOrder::kUnordered;
  throw util::UsageError("--constraints must be ordered or unordered, got '" + name + "'");
}

LineRequest parse_line(const std::string& line, const ConstraintInput& input, const std::string& file,
                       std::size_t line_number) {
  if (!input.reads_fields()) return LineRequest{line, {}, {}, {}};
  if (input.json) {
    if (line.find_first_not_of(" \t") == std::string::npos) return LineRequest{};
    return parse_json_line(line, file, line_number);
  }
  const std::vector<std::string_view> fields = util::split_fields(line, '\t');
  LineRequest request;
  request.source = std::string(fields[0]);
  std::size_t next = 1;
  if (input.force_decode && fields.size() > 1) request.prefix = std::string(fields[next++]);
  if (input.tab_constraints) {
    for (; next < fields.size(); ++next) request.positive.emplace_back(fields[next]);
  } else if (fields.size() > next) {
    throw util::Error(file, line_number, std::to_string(fields.size()) + " tab-separated fields; --force-decode reads "
                                         "the source and the prefix (--constraints reads phrases after them)");
  }
  return request;
}

TargetConstraints target_constraints(const LineRequest& request, ConstraintOrder order,
                                     const data::Vocabulary& target, const std::string& file, std::size_t line_number,
                                     const std::string& prefix_file) {
  TargetConstraints constraints;
  constraints.order = order;
  constraints.prefix =
      phrase_ids(request.prefix, "the prefix", true, target, prefix_file.empty() ? file : prefix_file, line_number);
  for (const auto& phrase : request.positive) {
    auto ids = phrase_ids(phrase, "the constraint", false, target, file, line_number);
    if (!ids.empty()) constraints.positive.push_back(std::move(ids));
  }
  for (const auto& phrase : request.avoid) {
    auto ids = phrase_ids(phrase, "the phrase to avoid", false, target, file, line_number);
    if (!ids.empty()) constraints.avoid.push_back(std::move(ids));
  }
  if (constraints.positive.size() > kMaxPositiveConstraints) {
    throw util::Error(file, line_number, std::to_string(constraints.positive.size()) + " constraints, more than " +
                                             std::to_string(kMaxPositiveConstraints) + " a line may have");
  }
  if (!constraints.prefix.empty() && constraints.prefix.back() == data::Vocabulary::kEos &&
      !constraints.positive.empty()) {
    throw util::Error(file, line_number, "the prefix ends with </s>: no constraint can follow it");
  }
  return constraints;
}

void check_constraint_length(const TargetConstraints& constraints, int limit, const std::string& file,
                             std::size_t line_number) {
  const std::size_t needed = constraints.needed_length();
  if (needed <= static_cast<std::size_t>(limit)) return;
  throw util::Error(file, line_number,
                    "the prefix and constraints need " + std::to_string(needed) + " target tokens, more than the " +
                        std::to_string(limit) + " the length limit allows (--max-length-ratio x source length + 10)");
}

}  // namespace rnnsearch::search
