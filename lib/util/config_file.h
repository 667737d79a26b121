#pragma once
// The text of a config file (--config FILE, --dump-config): one option per line,
//   # a comment                    blank lines and lines whose first character is '#'
//   beam-size = 5                  a long option name without dashes, '=', the value
//   model = a.bin                  an option of several values: one line per value, in order
//   model = b.bin
//   quiet = true                   a switch: true or false
//   separator = " @@"              a value quoted, with the escapes \" \\ \n \t \r
// An unquoted value is the text after '=' without the blanks around it, up to a '#' that
// follows a blank ("5 # wide" is 5; "##" is ##). A value that is empty, has blanks at
// either end, starts with '"', holds " #" or a line break is written quoted.
// util/config_options.h ties the lines to a tool's options.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rnnsearch::util {

struct ConfigLine {
  std::size_t number = 0;  // 1-based line of the file
  std::string name;        // "beam-size"
  std::string value;       // unquoted and unescaped
};

// The option lines of `text`, read from `file` (for messages). Throws UsageError
// "FILE:LINE: expected 'name = value', found 'beam-size 5'" for a line that is neither an
// option, a comment nor blank (also a name with dashes or blanks, a bad quoted value).
std::vector<ConfigLine> parse_config_text(std::string_view text, const std::string& file);

// The option lines of the file at `path` ("-" = stdin). Throws util::Error when it cannot
// be read, UsageError as parse_config_text.
std::vector<ConfigLine> read_config_file(const std::string& path);

// "name = value\n", the value quoted when it must be (see above).
std::string config_line(const std::string& name, const std::string& value);

}  // namespace rnnsearch::util
