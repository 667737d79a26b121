#include "serve/json_fields.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "serve/request_error.h"
#include "util/number_format.h"

namespace rnnsearch::serve {

namespace {

[[noreturn]] void wrong_type(const std::string& name, const std::string& wanted, const nlohmann::json& value) {
  throw RequestError(400, "'" + name + "' must be " + wanted + ", got " + json_kind(value));
}

const nlohmann::json* present(const nlohmann::json& object, const std::string& name) {
  const auto it = object.find(name);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

}  // namespace

nlohmann::json parse_json_body(std::string_view body) {
  try {
    return nlohmann::json::parse(body.begin(), body.end());
  } catch (const nlohmann::json::exception& e) {  // a parse error, or a number beyond a double (1e999)
    std::string message = e.what();  // "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
    const auto bracket = message.find("] ");
    if (bracket != std::string::npos) message.erase(0, bracket + 2);
    for (char& c : message) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    throw RequestError(400, "bad JSON: " + message);
  }
}

nlohmann::json parse_json_object(std::string_view body) {
  nlohmann::json value = parse_json_body(body);
  if (!value.is_object()) throw RequestError(400, "the body must be a JSON object, got " + json_kind(value));
  return value;
}

std::string json_kind(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned: return "an integer";
    case nlohmann::json::value_t::number_float: return "a number";
    default: return "binary data";
  }
}

std::optional<std::string> string_field(const nlohmann::json& object, const std::string& name) {
  const nlohmann::json* value = present(object, name);
  if (!value) return std::nullopt;
  if (!value->is_string()) wrong_type(name, "a string", *value);
  return value->get<std::string>();
}

std::optional<bool> bool_field(const nlohmann::json& object, const std::string& name) {
  const nlohmann::json* value = present(object, name);
  if (!value) return std::nullopt;
  if (!value->is_boolean()) wrong_type(name, "true or false", *value);
  return value->get<bool>();
}

std::optional<long long> integer_field(const nlohmann::json& object, const std::string& name, long long min,
                                       long long max) {
  const nlohmann::json* value = present(object, name);
  if (!value) return std::nullopt;
  const std::string range = "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (value->is_string()) {  // a form's fields are all strings: "2"
    const std::string text = value->get<std::string>();
    char* end = nullptr;
    errno = 0;
    const long long n = text.empty() ? 0 : std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || n < min || n > max) {
      throw RequestError(400, "'" + name + "' must be " + range + ", got \"" + text + "\"");
    }
    return n;
  }
  if (value->is_number_float()) {
    const double d = value->get<double>();
    if (!(std::floor(d) == d && d >= static_cast<double>(min) && d <= static_cast<double>(max))) {
      throw RequestError(400, "'" + name + "' must be " + range + ", got " + util::general(d));
    }
    return static_cast<long long>(d);
  }
  if (value->is_number_unsigned() && value->get<unsigned long long>() > static_cast<unsigned long long>(max)) {
    throw RequestError(400, "'" + name + "' must be " + range + ", got " + value->dump());
  }
  if (!value->is_number_integer()) wrong_type(name, range, *value);
  const long long n = value->get<long long>();
  if (n < min || n > max) throw RequestError(400, "'" + name + "' must be " + range + ", got " + std::to_string(n));
  return n;
}

std::optional<double> number_field(const nlohmann::json& object, const std::string& name, double min, double max) {
  const nlohmann::json* value = present(object, name);
  if (!value) return std::nullopt;
  const std::string range = "a number in [" + util::general(min) + ", " + util::general(max) + "]";
  if (!value->is_number()) wrong_type(name, range, *value);
  const double d = value->get<double>();
  if (!(d >= min && d <= max)) throw RequestError(400, "'" + name + "' must be " + range + ", got " + util::general(d));
  return d;
}

std::optional<Strings> strings_field(const nlohmann::json& object, const std::string& name) {
  const nlohmann::json* value = present(object, name);
  if (!value) return std::nullopt;
  Strings strings;
  if (value->is_string()) {
    strings.values.push_back(value->get<std::string>());
    return strings;
  }
  if (!value->is_array()) wrong_type(name, "a string or an array of strings", *value);
  strings.array = true;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const nlohmann::json& item = (*value)[i];
    if (!item.is_string()) wrong_type(name + "[" + std::to_string(i) + "]", "a string", item);
    strings.values.push_back(item.get<std::string>());
  }
  return strings;
}

Strings required_strings(const nlohmann::json& object, const std::string& name) {
  auto strings = strings_field(object, name);
  if (!strings) throw RequestError(400, "'" + name + "' is required");
  return *strings;
}

std::string required_string(const nlohmann::json& object, const std::string& name) {
  auto text = string_field(object, name);
  if (!text) throw RequestError(400, "'" + name + "' is required");
  return *text;
}

nlohmann::json tool_number(double value) {
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";  // JSON has no infinity: the tools' text
  if (std::isnan(value)) return "nan";
  const std::string text = util::general(value);
  const double read = std::strtod(text.c_str(), nullptr);
  // A whole number as an integer, so that its JSON text is the tools' ("0", not "0.0").
  if (text.find_first_of(".e") == std::string::npos && text != "-0") return std::strtoll(text.c_str(), nullptr, 10);
  return read;
}

std::string json_text(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string error_body(const std::string& message) { return json_text(nlohmann::json{{"error", message}}); }

}  // namespace rnnsearch::serve
