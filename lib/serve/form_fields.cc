#include "serve/form_fields.h"

#include <string>

#include "serve/json_fields.h"
#include "serve/request_error.h"

namespace rnnsearch::serve {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string decoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%') {
      const int high = i + 2 < text.size() ? hex_value(text[i + 1]) : -1;
      const int low = i + 2 < text.size() ? hex_value(text[i + 2]) : -1;
      if (high < 0 || low < 0) throw RequestError(400, "bad %-escape in the form body");
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

nlohmann::json parse_form(std::string_view body) {
  nlohmann::json object = nlohmann::json::object();
  std::size_t begin = 0;
  while (begin <= body.size()) {
    std::size_t end = body.find('&', begin);
    if (end == std::string_view::npos) end = body.size();
    const std::string_view field = body.substr(begin, end - begin);
    begin = end + 1;
    if (field.empty()) continue;
    const std::size_t equals = field.find('=');
    const std::string name = decoded(field.substr(0, equals));
    const std::string value = equals == std::string_view::npos ? "" : decoded(field.substr(equals + 1));
    auto it = object.find(name);
    if (it == object.end()) {
      object[name] = value;
    } else {
      if (!it->is_array()) *it = nlohmann::json::array({*it});
      it->push_back(value);
    }
  }
  return object;
}

nlohmann::json parse_body(std::string_view content_type, std::string_view body) {
  // curl -d sends JSON labelled a form unless told otherwise; a form's first byte is never
  // '{' (it would be written %7B), so such a body is read as the JSON it is.
  const auto first = body.find_first_not_of(" \t\r\n");
  const bool looks_json = first != std::string_view::npos && body[first] == '{';
  if (content_type.substr(0, 33) == "application/x-www-form-urlencoded" && !looks_json) return parse_form(body);
  return parse_json_object(body);
}

}  // namespace rnnsearch::serve
