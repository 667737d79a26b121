#pragma once
// The native API's constrained translation (nmt-decode's --force-decode, --constraints and
// --json-input, search/constraint_input.h): beside "text", a request may give
//   "target_prefix": a string per text (a string, or a list as long as "text")
//   "constraints", "avoid": a text's phrases, a list of strings (for a list of texts, a list
//                 of such lists, one per text)
//   "constraints_order": "unordered" (the default) or "ordered"
// in the request's "input" form: raw text (tokenized and BPE'd with the pair's target side)
// or pieces (a prefix may then end with </s>).
#include <vector>

#include <nlohmann/json.hpp>

#include "search/constraint_input.h"
#include "serve/json_fields.h"

namespace rnnsearch::serve {

// One request per text, or none when the body asks for nothing of this; throws
// RequestError 400 naming the field for a wrong shape or type.
std::vector<search::LineRequest> constraint_requests(const nlohmann::json& body, const Strings& text);

// "constraints_order", unordered when absent; RequestError 400 for another value.
search::ConstraintOrder constraint_order(const nlohmann::json& body);

}  // namespace rnnsearch::serve
