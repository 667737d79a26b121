#pragma once
// What a library call has to tell the user, handed back to its tool one line at a time
// (only tools/ writes to the terminal), in two kinds:
//   notes     about one line of the input as it is read, labelled with their kind
//             ("warning: FILE:17: 120 tokens, translated after truncation to the first
//             100"), or about work done; -q drops them with the progress line;
//   warnings  about the input as a whole, each once at its end (the share of tokens the
//             model does not know, how many lines were truncated); -q keeps them.
// Neither touches the output: a run with or without them writes the same bytes.
#include <functional>
#include <string>

namespace rnnsearch::util {

struct Messages {
  std::function<void(const std::string&)> notes;     // empty: dropped
  std::function<void(const std::string&)> warnings;  // empty: dropped

  void note(const std::string& line) const {
    if (notes) notes(line);
  }
  void warn(const std::string& line) const {
    if (warnings) warnings(line);
  }
};

}  // namespace rnnsearch::util
