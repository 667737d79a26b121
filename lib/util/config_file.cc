#include "util/config_file.h"

#include "util/error.h"
#include "util/line_reader.h"

namespace rnnsearch::util {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

// The rest of a line after a value: blanks, then nothing or a comment.
bool only_comment(std::string_view rest) {
  rest = trimmed(rest);
  return rest.empty() || rest.front() == '#';
}

// The value of `text` (what follows '='), or the reason it is not one in `error`.
std::string read_value(std::string_view text, std::string& error) {
  text = trimmed(text);
  if (text.empty() || text.front() != '"') {
    std::size_t end = text.size();
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '#' && i > 0 && is_blank(text[i - 1])) {
        end = i;
        break;
      }
    }
    return std::string(trimmed(text.substr(0, end)));
  }
  std::string value;
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (text[i] == '"') {
      if (!only_comment(text.substr(i + 1))) error = "text after the closing quote";
      return value;
    }
    if (text[i] != '\\') {
      value += text[i];
      continue;
    }
    const char escaped = ++i < text.size() ? text[i] : '\0';
    switch (escaped) {
      case '"': case '\\': value += escaped; break;
      case 'n': value += '\n'; break;
      case 't': value += '\t'; break;
      case 'r': value += '\r'; break;
      default: error = std::string("unknown escape '\\") + escaped + "' (\\\" \\\\ \\n \\t \\r)"; return value;
    }
  }
  error = "no closing quote";
  return value;
}

// The line as a message quotes it: at most 60 bytes.
std::string quoted_line(std::string_view line) {
  return "'" + std::string(line.substr(0, 60)) + (line.size() > 60 ? "...'" : "'");
}

// Adds the option of one line (none for a comment or a blank line) to `lines`.
void parse_line(std::string_view line, const std::string& file, std::size_t number, std::vector<ConfigLine>& lines) {
  const std::string where = file + ":" + std::to_string(number) + ": ";
  const std::string_view text = trimmed(line);
  if (text.empty() || text.front() == '#') return;
  const std::size_t equals = text.find('=');
  const std::string_view name = trimmed(text.substr(0, equals));
  // A name of dashes alone ("-- = 1") is no name, not a name with dashes to take off.
  if (equals == std::string_view::npos || name.find_first_not_of('-') == std::string_view::npos ||
      name.find_first_of(" \t") != std::string_view::npos) {
    throw UsageError(where + "expected 'name = value', found " + quoted_line(text));
  }
  if (name.front() == '-') {
    throw UsageError(where + "option names go without dashes ('" + std::string(name.substr(name.find_first_not_of('-'))) +
                     " = ...'), found " + quoted_line(text));
  }
  std::string error;
  std::string value = read_value(text.substr(equals + 1), error);
  if (!error.empty()) throw UsageError(where + "bad quoted value of '" + std::string(name) + "': " + error);
  lines.push_back({number, std::string(name), std::move(value)});
}

bool needs_quotes(const std::string& value) {
  if (value.empty() || is_blank(value.front()) || is_blank(value.back())) return true;
  if (value.front() == '"') return true;
  return value.find(" #") != std::string::npos || value.find("\t#") != std::string::npos ||
         value.find_first_of("\n\r") != std::string::npos;
}

}  // namespace

std::vector<ConfigLine> parse_config_text(std::string_view text, const std::string& file) {
  std::vector<ConfigLine> lines;
  std::size_t number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    parse_line(line, file, ++number, lines);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return lines;
}

std::vector<ConfigLine> read_config_file(const std::string& path) {
  LineReader reader(path, InvalidUtf8::kKeep);  // paths in values are bytes, not always UTF-8
  std::vector<ConfigLine> lines;
  for (std::string line; reader.next(line);) parse_line(line, reader.name(), reader.line_number(), lines);
  return lines;
}

std::string config_line(const std::string& name, const std::string& value) {
  if (!needs_quotes(value)) return name + " = " + value + "\n";
  std::string text = name + " = \"";
  for (const char c : value) {
    switch (c) {
      case '"': text += "\\\""; break;
      case '\\': text += "\\\\"; break;
      case '\n': text += "\\n"; break;
      case '\t': text += "\\t"; break;
      case '\r': text += "\\r"; break;
      default: text += c;
    }
  }
  return text + "\"\n";
}

}  // namespace rnnsearch::util
