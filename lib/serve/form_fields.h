#pragma once
// An application/x-www-form-urlencoded body (how LibreTranslate's Python and web clients
// post): "q=Hello%20world&source=en" as a JSON object of strings, a name given twice
// becoming an array of its values, so that the JSON readers (serve/json_fields.h) read both
// kinds of body alike. RequestError 400 for a bad %-escape.
#include <string_view>

#include <nlohmann/json.hpp>

namespace rnnsearch::serve {

nlohmann::json parse_form(std::string_view body);

// The body of `content_type` ("application/json", a form, or none: JSON) as a JSON object;
// a "form" whose first byte is '{' is read as JSON (curl -d's default content type).
nlohmann::json parse_body(std::string_view content_type, std::string_view body);

}  // namespace rnnsearch::serve
