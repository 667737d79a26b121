#include "align/gold_file.h"

#include <sstream>

#include "util/error.h"
#include "util/line_reader.h"

namespace rnnsearch::align {

namespace {

constexpr long kMaxNumber = 10000000;

bool is_number(const std::string& field) {
  return !field.empty() && field.size() <= 8 && field.find_first_not_of("0123456789") == std::string::npos;
}

std::vector<std::string> fields_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> fields;
  for (std::string field; in >> field;) fields.push_back(field);
  return fields;
}

bool looks_like_shared_task(const std::vector<std::string>& lines) {
  for (const auto& line : lines) {
    if (const auto shared_task = is_shared_task_line(line)) return *shared_task;
  }
  return false;
}

GoldFile parse_shared_task(const std::vector<std::string>& lines, const std::string& path) {
  GoldFile file;
  file.shared_task_format = true;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const auto fields = fields_of(lines[k]);
    if (fields.empty()) continue;
    const bool ok = (fields.size() == 3 || fields.size() == 4) && is_number(fields[0]) && is_number(fields[1]) &&
                    is_number(fields[2]) && (fields.size() == 3 || fields[3] == "S" || fields[3] == "P");
    if (!ok) {
      throw util::Error(path, k + 1,
                        "expected 'SENT SRC_POS TGT_POS [S|P]' (shared-task format, 1-based), got '" + lines[k] + "'");
    }
    const long sentence = std::stol(fields[0]), source = std::stol(fields[1]), target = std::stol(fields[2]);
    if (sentence == 0 || sentence > kMaxNumber) {
      throw util::Error(path, k + 1, "sentence numbers start at 1, got " + fields[0]);
    }
    if (file.sentences.size() < static_cast<std::size_t>(sentence)) file.sentences.resize(static_cast<std::size_t>(sentence));
    if (source == 0 || target == 0) {  // a NULL link
      ++file.null_links;
      continue;
    }
    data::GoldAlignment& gold = file.sentences[static_cast<std::size_t>(sentence) - 1];
    const data::Link link{static_cast<int>(source) - 1, static_cast<int>(target) - 1};
    if (fields.size() == 3 || fields[3] == "S") gold.sure.push_back(link);
    gold.possible.push_back(link);
  }
  for (auto& gold : file.sentences) {
    data::sort_unique(gold.sure);
    data::sort_unique(gold.possible);
  }
  return file;
}

}  // namespace

std::optional<bool> is_shared_task_line(const std::string& line) {
  const auto fields = fields_of(line);
  if (fields.empty()) return std::nullopt;
  return (fields.size() == 3 || fields.size() == 4) && is_number(fields[0]) && is_number(fields[1]) &&
         is_number(fields[2]);
}

GoldFile parse_gold_file(const std::vector<std::string>& lines, const std::string& path) {
  if (looks_like_shared_task(lines)) return parse_shared_task(lines, path);
  GoldFile file;
  for (std::size_t k = 0; k < lines.size(); ++k) file.sentences.push_back(data::parse_gold(lines[k], path, k + 1));
  return file;
}

GoldFile read_gold_file(const std::string& path) { return parse_gold_file(util::read_lines(path), path); }

}  // namespace rnnsearch::align
