#include "serve/constraint_fields.h"

#include "serve/request_error.h"

namespace rnnsearch::serve {

namespace {

std::vector<std::string> string_list(const nlohmann::json& value, const std::string& where) {
  if (!value.is_array()) throw RequestError(400, "'" + where + "' must be a list of strings");
  std::vector<std::string> strings;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) throw RequestError(400, "'" + where + "[" + std::to_string(i) + "]' must be a string");
    strings.push_back(value[i].get<std::string>());
  }
  return strings;
}

// The phrases of `name` per text (all empty when absent).
std::vector<std::vector<std::string>> phrase_lists(const nlohmann::json& body, const std::string& name,
                                                   const Strings& text) {
  const std::size_t count = text.values.size();
  std::vector<std::vector<std::string>> lists(count);
  if (!body.contains(name)) return lists;
  const nlohmann::json& value = body.at(name);
  if (!text.array) {
    lists[0] = string_list(value, name);
    return lists;
  }
  if (!value.is_array() || value.size() != count) {
    throw RequestError(400, "'" + name + "' must be a list of " + std::to_string(count) +
                                " lists of strings, one per text");
  }
  for (std::size_t i = 0; i < count; ++i) lists[i] = string_list(value[i], name + "[" + std::to_string(i) + "]");
  return lists;
}

}  // namespace

std::vector<search::LineRequest> constraint_requests(const nlohmann::json& body, const Strings& text) {
  if (!body.contains("target_prefix") && !body.contains("constraints") && !body.contains("avoid")) return {};
  const std::size_t count = text.values.size();
  std::vector<search::LineRequest> requests(count);
  if (const auto prefixes = strings_field(body, "target_prefix")) {
    if (prefixes->array != text.array || prefixes->values.size() != count) {
      throw RequestError(400, "'target_prefix' must have the shape of 'text': " +
                                  (text.array ? "a list of " + std::to_string(count) + " strings" : "a string"));
    }
    for (std::size_t i = 0; i < count; ++i) requests[i].prefix = prefixes->values[i];
  }
  const auto positive = phrase_lists(body, "constraints", text), avoid = phrase_lists(body, "avoid", text);
  for (std::size_t i = 0; i < count; ++i) {
    requests[i].positive = positive[i];
    requests[i].avoid = avoid[i];
  }
  return requests;
}

search::ConstraintOrder constraint_order(const nlohmann::json& body) {
  const std::string order = string_field(body, "constraints_order").value_or("unordered");
  if (order == "ordered") return search::ConstraintOrder::kOrdered;
  if (order != "unordered") {
    throw RequestError(400, "'constraints_order' must be \"ordered\" or \"unordered\", got \"" + order + "\"");
  }
  return search::ConstraintOrder::kUnordered;
}

}  // namespace rnnsearch::serve
