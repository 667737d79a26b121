#include "align/ibm2_table.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <vector>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/number_format.h"
#include "util/split_fields.h"

namespace rnnsearch::align {

namespace {

constexpr std::string_view kMagic = "nmt-ibm2-table";
constexpr std::string_view kVersion = "1";

// "key=value" -> value in [low, high] (the range of the option that sets it: a table
// cannot hold what training would refuse), or util::Error naming the line.
double header_number(std::string_view field, std::string_view key, double low, double high, const std::string& path) {
  const std::string prefix = std::string(key) + "=";
  const auto value = field.substr(0, prefix.size()) == prefix ? util::parse_double(field.substr(prefix.size()))
                                                              : std::nullopt;
  if (!value || !(*value >= low && *value <= high)) {
    throw util::Error(path, 1, "expected " + prefix + "NUMBER in [" + util::general(low) + ", " + util::general(high) +
                                   "] in the header, found '" + std::string(field) + "'");
  }
  return *value;
}

Ibm2TableHeader parse_header(const std::string& line, const std::string& path) {
  const auto fields = util::split_fields(line, ' ');
  const std::string expected = std::string(kMagic) + " " + std::string(kVersion);
  if (fields.size() != 5 || fields[0] != kMagic || fields[1] != kVersion ||
      (fields[2] != "direction=forward" && fields[2] != "direction=reverse")) {
    throw util::Error(path, 1, "not an IBM Model 2 table: expected the header '" + expected +
                                   " direction=forward|reverse p-null=P tension=T' (nmt-align ibm2 --save-table)");
  }
  Ibm2TableHeader header;
  header.reverse = fields[2] == "direction=reverse";
  header.p_null = header_number(fields[3], "p-null", kMinPNull, kMaxPNull, path);
  header.tension = header_number(fields[4], "tension", kMinTension, kMaxTension, path);
  return header;
}

std::string header_line(bool reverse, const Ibm2Table& table) {
  return std::string(kMagic) + " " + std::string(kVersion) + (reverse ? " direction=reverse" : " direction=forward") +
         " p-null=" + util::shortest_scientific(table.p_null) + " tension=" + util::shortest_scientific(table.tension);
}

}  // namespace

void write_ibm2_table(const std::string& path, const Ibm2Corpus& corpus, const Ibm2Table& table, bool reverse,
                      double threshold) {
  util::AtomicFileWriter writer(path);
  writer.write_line(header_line(reverse, table));
  std::vector<std::int32_t> rows(table.row_begin.size() - 1);
  std::iota(rows.begin(), rows.end(), 0);
  std::sort(rows.begin(), rows.end(), [&](std::int32_t a, std::int32_t b) {
    return corpus.source_words[static_cast<std::size_t>(a)] < corpus.source_words[static_cast<std::size_t>(b)];
  });
  std::vector<std::size_t> entries;
  std::string line;
  for (const std::int32_t e : rows) {
    const auto row = static_cast<std::size_t>(e);
    entries.resize(table.row_begin[row + 1] - table.row_begin[row]);
    std::iota(entries.begin(), entries.end(), table.row_begin[row]);
    std::sort(entries.begin(), entries.end(), [&](std::size_t a, std::size_t b) {
      if (table.probability[a] != table.probability[b]) return table.probability[a] > table.probability[b];
      return corpus.target_words[static_cast<std::size_t>(table.target[a])] <
             corpus.target_words[static_cast<std::size_t>(table.target[b])];
    });
    for (const std::size_t at : entries) {
      if (e != 0 && table.probability[at] < threshold) break;
      line = corpus.source_words[row];
      line += '\t';
      line += corpus.target_words[static_cast<std::size_t>(table.target[at])];
      line += '\t';
      line += util::shortest_scientific(table.probability[at]);
      writer.write_line(line);
    }
  }
  writer.commit();
}

void read_ibm2_table(const std::string& path, const std::function<void(const Ibm2TableHeader&)>& on_header,
                     const std::function<void(std::string_view e, std::string_view f, double p)>& on_entry) {
  util::LineReader reader(path);
  std::string line;
  if (!reader.next(line)) throw util::Error(path, 1, "is empty: expected the header of an IBM Model 2 table");
  on_header(parse_header(line, path));
  while (reader.next(line)) {
    const auto fields = util::split_fields(line, '\t');
    if (fields.size() != 3 || fields[1].empty()) {
      throw util::Error(path, reader.line_number(),
                        "expected 'SOURCE<TAB>TARGET<TAB>PROBABILITY' (SOURCE empty for NULL)");
    }
    const auto p = util::parse_double(fields[2]);
    if (!p || !(*p > 0.0 && *p <= 1.0)) {
      throw util::Error(path, reader.line_number(), "probability '" + std::string(fields[2]) + "' is not in (0, 1]");
    }
    on_entry(fields[0], fields[1], *p);
  }
}

void fill_ibm2_table(const std::string& path, const Ibm2Corpus& corpus, bool reverse, Ibm2Table& table) {
  std::unordered_map<std::string_view, std::int32_t> source_ids, target_ids;
  for (std::size_t i = 0; i < corpus.source_words.size(); ++i) source_ids.emplace(corpus.source_words[i], i);
  for (std::size_t i = 0; i < corpus.target_words.size(); ++i) target_ids.emplace(corpus.target_words[i], i);
  const auto on_header = [&](const Ibm2TableHeader& header) {
    if (header.reverse != reverse) {
      throw util::Error(path, 1, std::string("is a table of the ") + (header.reverse ? "reverse" : "forward") +
                                     " direction: load it " + (header.reverse ? "with" : "without") + " --reverse");
    }
    table.p_null = header.p_null;
    table.tension = header.tension;
  };
  read_ibm2_table(path, on_header, [&](std::string_view e, std::string_view f, double p) {
    const auto source = source_ids.find(e);
    const auto target = target_ids.find(f);
    if (source == source_ids.end() || target == target_ids.end()) return;
    const auto row = static_cast<std::size_t>(source->second);
    const auto begin = table.target.begin() + static_cast<std::ptrdiff_t>(table.row_begin[row]);
    const auto end = table.target.begin() + static_cast<std::ptrdiff_t>(table.row_begin[row + 1]);
    const auto at = std::lower_bound(begin, end, target->second);
    if (at != end && *at == target->second) table.probability[static_cast<std::size_t>(at - table.target.begin())] = p;
  });
}

}  // namespace rnnsearch::align
