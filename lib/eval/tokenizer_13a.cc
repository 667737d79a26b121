#include "eval/tokenizer_13a.h"

#include <cstring>

#include "eval/mteval_rules.h"

namespace rnnsearch::eval {
namespace {

bool contains(std::string_view s, char c) { return std::memchr(s.data(), c, s.size()) != nullptr; }

// Python's s.replace(from, to): every non-overlapping `from`, left to right, once.
void replace_all(std::string& s, std::string_view from, std::string_view to) {
  std::size_t hit = s.find(from);
  if (hit == std::string::npos) return;
  std::string out;
  out.reserve(s.size());
  std::size_t pos = 0;
  for (; hit != std::string::npos; hit = s.find(from, pos)) {
    out.append(s, pos, hit - pos);
    out.append(to);
    pos = hit + from.size();
  }
  out.append(s, pos, std::string::npos);
  s.swap(out);
}

}  // namespace

void Tokenizer13a::write(std::string_view line, std::string& out) const {
  if (!contains(line, '<') && !contains(line, '&') && !contains(line, '\n')) {
    TokenWriter writer(out, 2 * line.size());
    apply_mteval_rules(line, /*padded=*/true, nullptr, writer);
    writer.finish();
    return;
  }
  std::string clean(line);
  replace_all(clean, "<skipped>", "");
  replace_all(clean, "-\n", "");
  replace_all(clean, "\n", " ");
  replace_all(clean, "&quot;", "\"");
  replace_all(clean, "&amp;", "&");
  replace_all(clean, "&lt;", "<");
  replace_all(clean, "&gt;", ">");
  TokenWriter writer(out, 2 * clean.size());
  apply_mteval_rules(clean, /*padded=*/true, nullptr, writer);
  writer.finish();
}

}  // namespace rnnsearch::eval
