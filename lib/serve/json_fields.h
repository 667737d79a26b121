#pragma once
// Reading a request's JSON body with nlohmann-json: every failure is a RequestError 400
// naming the field and what it should be ("'beam_size' must be an integer, got a string"),
// never an exception of the library's own. nlohmann's parser refuses ill-formed UTF-8 in
// strings, so every string read here is valid UTF-8.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace rnnsearch::serve {

// The body as JSON; RequestError 400 "bad JSON: ..." (the parser's message, one line), also
// for a number no double holds (1e999).
nlohmann::json parse_json_body(std::string_view body);
// The body as a JSON object (400 "the body must be a JSON object, got an array").
nlohmann::json parse_json_object(std::string_view body);

// "a string", "an array", ...: for messages.
std::string json_kind(const nlohmann::json& value);

// The field `name` of object `object`, or nullopt when it is absent or null; 400 when it
// has another type. Integers must be whole numbers within [min, max] (or a string holding
// one, as a form's fields are).
std::optional<std::string> string_field(const nlohmann::json& object, const std::string& name);
std::optional<bool> bool_field(const nlohmann::json& object, const std::string& name);
std::optional<long long> integer_field(const nlohmann::json& object, const std::string& name, long long min,
                                       long long max);
std::optional<double> number_field(const nlohmann::json& object, const std::string& name, double min, double max);
// A field that is a string or an array of strings ("q" of LibreTranslate): the strings,
// and whether it was an array.
struct Strings {
  std::vector<std::string> values;
  bool array = false;
};
std::optional<Strings> strings_field(const nlohmann::json& object, const std::string& name);
// The same, required: 400 "'q' is required" when absent.
Strings required_strings(const nlohmann::json& object, const std::string& name);
std::string required_string(const nlohmann::json& object, const std::string& name);

// A number as the command-line tools print it (util::general), as JSON whose text is the
// tools': the value that text reads back as, a whole number as an integer ("0", "-12");
// infinities and NaN, which JSON lacks, as the strings "-inf", "inf", "nan".
nlohmann::json tool_number(double value);

// `value` as one line of JSON and a newline; bytes that are not UTF-8 (none should reach a
// reply) become U+FFFD instead of throwing.
std::string json_text(const nlohmann::json& value);

// {"error": message} as the body of a reply.
std::string error_body(const std::string& message);

}  // namespace rnnsearch::serve
