#include "align/hmm_params.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/number_format.h"
#include "util/split_fields.h"

namespace rnnsearch::align {

namespace {

constexpr std::string_view kMagic = "nmt-hmm-params";
// 1: without the end line; 2: p-empty always a number; 3: boundary jumps; 4: a stem rule.
constexpr std::string_view kVersion = "4";
constexpr const char* kDirectionNames[2] = {"forward", "reverse"};

// The words of direction d's table rows (row 0 the empty word, "") and columns.
struct TableWords {
  std::vector<const std::string*> rows, columns;
  TableWords(const Ibm2Corpus& corpus, int d) {
    static const std::string kEmpty;
    if (d == 0) {
      for (const auto& word : corpus.source_words) rows.push_back(&word);  // source_words[0] is ""
      for (const auto& word : corpus.target_words) columns.push_back(&word);
    } else {
      rows.push_back(&kEmpty);
      for (const auto& word : corpus.target_words) rows.push_back(&word);
      for (const auto& word : corpus.source_words) columns.push_back(&word);
    }
  }
};

std::string shortest_float(float value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  return std::string(text, end);
}

// Writes direction `name`'s entries; returns how many lines.
std::size_t write_direction_table(util::AtomicFileWriter& writer, const CooccurrenceTable& table,
                                  const TableWords& words, const std::string& name, double threshold) {
  std::size_t written = 0;
  std::vector<std::size_t> rows(table.rows());
  std::iota(rows.begin(), rows.end(), 0);
  std::sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) { return *words.rows[a] < *words.rows[b]; });
  std::vector<std::size_t> entries;
  std::string line;
  for (const std::size_t row : rows) {
    entries.resize(table.row_end(row) - table.row_begin(row));
    std::iota(entries.begin(), entries.end(), table.row_begin(row));
    std::sort(entries.begin(), entries.end(), [&](std::size_t a, std::size_t b) {
      if (table.probability(a) != table.probability(b)) return table.probability(a) > table.probability(b);
      return *words.columns[static_cast<std::size_t>(table.column(a))] <
             *words.columns[static_cast<std::size_t>(table.column(b))];
    });
    for (const std::size_t at : entries) {
      if (row != 0 && table.probability(at) < threshold) break;
      line = name + "\tt\t" + *words.rows[row] + '\t' + *words.columns[static_cast<std::size_t>(table.column(at))] +
             '\t' + shortest_float(table.probability(at));
      writer.write_line(line);
      ++written;
    }
  }
  return written;
}

struct Header {
  bool hmm = true;
  int width = 0;
  bool boundary = false;  // since version 3: "boundary-jumps" after the width
  bool has_end = true;  // since version 2: the last line is "end<TAB>LINES"
  StemRule stems;       // since version 4: "stem-length=N stem-below=K" last
};

// The whole number after `key` in `field` ("jump-width=7"), when it is one in [low, high].
std::optional<std::int64_t> keyed_number(std::string_view field, std::string_view key, double low, double high) {
  if (field.substr(0, key.size()) != key) return std::nullopt;
  const auto value = util::parse_double(field.substr(key.size()));
  if (!value || *value < low || *value > high || *value != static_cast<double>(static_cast<std::int64_t>(*value))) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(*value);
}

// The header's version, model, jump width and optional parts, or util::Error.
Header parse_header(const std::string& line, const std::string& path) {
  const auto fields = util::split_fields(line, ' ');
  const std::string_view version = fields.size() > 1 ? fields[1] : std::string_view();
  const int number = version == "1" ? 1 : version == "2" ? 2 : version == "3" ? 3 : version == kVersion ? 4 : 0;
  Header header;
  bool good = fields.size() >= 4 && fields[0] == kMagic && number > 0 &&
              (fields[2] == "model=hmm" || fields[2] == "model=model1");
  const auto width = good ? keyed_number(fields[3], "jump-width=", 1, 100) : std::nullopt;
  good = good && width.has_value();
  std::size_t next = 4;
  if (good && number >= 3 && next < fields.size() && fields[next] == "boundary-jumps") {
    header.boundary = true;
    ++next;
  }
  if (good && number >= 4 && next + 1 < fields.size()) {
    const auto length = keyed_number(fields[next], "stem-length=", 1, 100);
    const auto below = keyed_number(fields[next + 1], "stem-below=", 1, static_cast<double>(std::int64_t{1} << 31));
    good = length && below;
    if (good) header.stems = {static_cast<int>(*length), *below};
    next += 2;
  }
  if (!good || next != fields.size()) {
    throw util::Error(path, 1,
                      "not the parameters of nmt-align hmm: expected the header '" + std::string(kMagic) + " " +
                          std::string(kVersion) +
                          " model=hmm|model1 jump-width=N [boundary-jumps] [stem-length=N stem-below=K]' (nmt-align hmm "
                          "--save-params)");
  }
  header.hmm = fields[2] == "model=hmm";
  header.width = static_cast<int>(*width);
  header.has_end = number != 1;
  return header;
}

}  // namespace

void write_hmm_params(const std::string& path, const Ibm2Corpus& corpus, const HmmModel& model, double threshold) {
  util::AtomicFileWriter writer(path);
  const int width = model.forward.jumps.width;
  const bool boundary = model.forward.jumps.boundary();
  // Version 3 when it has no stem rule, as before version 4: readable by older builds.
  writer.write_line(std::string(kMagic) + " " + (model.stems.on() ? std::string(kVersion) : "3") + (model.hmm ? " model=hmm" : " model=model1") +
                    " jump-width=" + std::to_string(width) + (boundary ? " boundary-jumps" : "") +
                    (model.stems.on() ? " stem-length=" + std::to_string(model.stems.length) +
                                            " stem-below=" + std::to_string(model.stems.below)
                                      : std::string()));
  for (int d = 0; d < 2; ++d) {
    const JumpModel& jumps = d == 0 ? model.forward.jumps : model.reverse.jumps;
    const std::string name = kDirectionNames[d];
    writer.write_line(name + "\tp-empty\t" +
                      (jumps.p_empty_mode == PEmptyMode::kByLength ? std::string("by-length")
                                                                   : util::shortest_scientific(jumps.p_empty)));
    for (const auto& [kind, weights] : {std::pair{"jump", &jumps.weight}, {"start", &jumps.start}, {"end", &jumps.end}}) {
      for (int jump = -width; jump <= width && !weights->empty(); ++jump) {
        writer.write_line(name + '\t' + kind + '\t' + std::to_string(jump) + '\t' +
                          util::shortest_scientific((*weights)[static_cast<std::size_t>(jump + width)]));
      }
    }
  }
  // The header, then per direction its p-empty line and a line per class of each weight set.
  const std::size_t weight_sets = boundary ? 3 : 1;
  std::size_t lines = 1 + 2 * (1 + weight_sets * (2 * static_cast<std::size_t>(width) + 1));
  for (int d = 0; d < 2; ++d) {
    lines += write_direction_table(writer, d == 0 ? model.forward.table : model.reverse.table, TableWords(corpus, d),
                                   kDirectionNames[d], threshold);
  }
  // A copy cut short lacks it (or has another count): read as the cut file it is.
  writer.write_line("end\t" + std::to_string(lines));
  writer.commit();
}

namespace {

// Reads the lines after the header into `model` (tables of `corpus`).
class ParamsReader {
 public:
  ParamsReader(const std::string& path, const Ibm2Corpus& corpus, HmmModel& model, bool has_end)
      : path_(path), model_(model), words_{TableWords(corpus, 0), TableWords(corpus, 1)}, has_end_(has_end) {
    known_source_.assign(corpus.source_words.size(), 0);
    known_target_.assign(corpus.target_words.size(), 0);
    for (int d = 0; d < 2; ++d) {
      seen_[d].assign((model.forward.jumps.boundary() ? 3 : 1) * model.forward.jumps.weight.size() + 1, 0);
      for (std::size_t r = 0; r < words_[d].rows.size(); ++r) row_ids_[d].emplace(*words_[d].rows[r], r);
      for (std::size_t c = 0; c < words_[d].columns.size(); ++c) column_ids_[d].emplace(*words_[d].columns[c], c);
    }
  }

  void read(const std::string& line, std::size_t number) {
    const auto fields = util::split_fields(line, '\t');
    if (ended_) throw util::Error(path_, number, "a line after the end line");
    if (has_end_ && fields[0] == "end") return read_end(fields, number);
    const int d = fields[0] == kDirectionNames[0] ? 0 : fields[0] == kDirectionNames[1] ? 1 : -1;
    const std::string_view kind = fields.size() > 1 ? fields[1] : std::string_view();
    if (d >= 0 && kind == "t" && fields.size() == 5 && !fields[3].empty()) return read_entry(d, fields, number);
    if (d >= 0 && kind == "p-empty" && fields.size() == 3) {
      if (fields[2] == "by-length") {
        jumps(d).p_empty_mode = PEmptyMode::kByLength;
      } else {
        jumps(d).p_empty = number_in(fields[2], 0.0, 1.0, number);
      }
      mark_seen(d, 0, "p-empty", number);
      return;
    }
    // Which weights: 0 the jumps, 1 the start's, 2 the end's (those two with boundary jumps).
    const int set = kind == "jump" ? 0 : kind == "start" ? 1 : kind == "end" ? 2 : -1;
    if (d >= 0 && set >= 0 && (set == 0 || jumps(d).boundary()) && fields.size() == 4) {
      const auto jump = util::parse_double(fields[2]);
      const int width = jumps(d).width;
      if (!jump || *jump != static_cast<int>(*jump) || *jump < -width || *jump > width) {
        throw util::Error(path_, number, std::string(kind) + " class '" + std::string(fields[2]) +
                                             "' is not an integer in [-" + std::to_string(width) + ", " +
                                             std::to_string(width) + "]");
      }
      std::vector<double>& weights = set == 0 ? jumps(d).weight : set == 1 ? jumps(d).start : jumps(d).end;
      const auto at = static_cast<std::size_t>(static_cast<int>(*jump) + width);
      weights[at] = number_in(fields[3], 0.0, 1.0, number);
      mark_seen(d, static_cast<std::size_t>(set) * weights.size() + at + 1,
                std::string(kind) + " class " + std::string(fields[2]), number);
      return;
    }
    throw util::Error(path_, number,
                      std::string("expected 'forward|reverse<TAB>p-empty<TAB>P', '...<TAB>jump<TAB>D<TAB>W'") +
                          (jumps(0).boundary() ? ", '...<TAB>start|end<TAB>D<TAB>W'" : "") +
                          " or '...<TAB>t<TAB>E<TAB>F<TAB>P' (E empty for the empty word)");
  }

  // util::Error when a direction's jump parameters or table were not all there, or (version
  // 2) the end line was not: the file was cut short. `lines`: the lines read.
  void finish(std::size_t lines) const {
    if (has_end_ && !ended_) {
      throw util::Error(path_, lines, "the file ends before its end line: it was cut short (copy it whole)");
    }
    for (int d = 0; d < 2; ++d) {
      if (std::count(seen_[d].begin(), seen_[d].end(), 1) != static_cast<std::ptrdiff_t>(seen_[d].size())) {
        throw util::Error(path_ + ": the " + kDirectionNames[d] + " direction's p-empty or " +
                          (jumps(d).boundary() ? "jump, start or end" : "jump") + " lines are missing");
      }
      if (!empty_word_rows_[d]) {
        throw util::Error(path_ + ": the " + kDirectionNames[d] +
                          " direction's translation table is missing (no entry of its empty word)");
      }
    }
  }

  // The tokens of `corpus` whose word no entry of the file names, per side.
  data::UnknownTokens unknown_tokens(const Ibm2Corpus& corpus) const {
    data::UnknownTokens unknown;
    const auto count = [](const std::vector<std::int32_t>& words, const std::vector<char>& known) {
      return static_cast<std::size_t>(std::count_if(
          words.begin(), words.end(), [&](std::int32_t word) { return known[static_cast<std::size_t>(word)] == 0; }));
    };
    unknown.add_counts(data::UnknownTokens::kSource, corpus.source.size(), count(corpus.source, known_source_));
    unknown.add_counts(data::UnknownTokens::kTarget, corpus.target.size(), count(corpus.target, known_target_));
    return unknown;
  }

 private:
  JumpModel& jumps(int d) { return d == 0 ? model_.forward.jumps : model_.reverse.jumps; }
  const JumpModel& jumps(int d) const { return d == 0 ? model_.forward.jumps : model_.reverse.jumps; }
  // Records direction d's parameter `at` (0 p-empty, 1 + class the jumps, then the start's and
  // the end's); util::Error when the file gave it before.
  void mark_seen(int d, std::size_t at, const std::string& what, std::size_t number) {
    if (seen_[d][at] != 0) {
      throw util::Error(path_, number, std::string(kDirectionNames[d]) + " " + what + " is given twice");
    }
    seen_[d][at] = 1;
  }
  double number_in(std::string_view text, double low, double high, std::size_t number) const {
    const auto value = util::parse_double(text);
    if (!value || !(*value > low && *value <= high)) {
      throw util::Error(path_, number, "'" + std::string(text) + "' is not a probability in (0, 1]");
    }
    return *value;
  }
  void read_end(const std::vector<std::string_view>& fields, std::size_t number) {
    if (fields.size() != 2 || fields[1] != std::to_string(number - 1)) {
      throw util::Error(path_, number, "expected 'end<TAB>" + std::to_string(number - 1) +
                                           "' (the lines before it): the file was cut or changed");
    }
    ended_ = true;
  }
  void read_entry(int d, const std::vector<std::string_view>& fields, std::size_t number) {
    const auto p = static_cast<float>(number_in(fields[4], 0.0, 1.0, number));
    if (fields[2].empty()) empty_word_rows_[d] = true;
    const auto row = row_ids_[d].find(fields[2]);
    const auto column = column_ids_[d].find(fields[3]);
    // Forward rows are source words (0: the empty word) and columns target words; reverse
    // rows target words after the empty word, columns source words.
    if (row != row_ids_[d].end() && row->second > 0) {
      (d == 0 ? known_source_ : known_target_)[d == 0 ? row->second : row->second - 1] = 1;
    }
    if (column != column_ids_[d].end()) (d == 0 ? known_target_ : known_source_)[column->second] = 1;
    if (row == row_ids_[d].end() || column == column_ids_[d].end()) return;  // a word these pairs lack
    CooccurrenceTable& table = d == 0 ? model_.forward.table : model_.reverse.table;
    const std::size_t at = table.find(row->second, static_cast<std::int32_t>(column->second));
    if (at < table.size()) table.set_probability(at, p);
  }

  const std::string& path_;
  HmmModel& model_;
  TableWords words_[2];
  std::unordered_map<std::string_view, std::size_t> row_ids_[2], column_ids_[2];
  std::vector<char> seen_[2];
  bool has_end_ = true, ended_ = false;
  bool empty_word_rows_[2] = {false, false};
  std::vector<char> known_source_, known_target_;  // by word id: some entry names the word
};

}  // namespace

namespace {

// The model read_hmm_params starts from: the corpus's tables at kAbsentProbability.
HmmModel absent_model(const Ibm2Corpus& corpus, const Header& header, int threads) {
  HmmOptions options;
  options.jump_width = header.width;
  options.boundary_jumps = header.boundary;
  options.hmm_iterations = header.hmm ? 1 : 0;
  options.threads = threads;
  HmmModel model = hmm_start_model(corpus, options);
  model.stems = header.stems;
  model.forward.table.fill(kAbsentProbability);
  model.reverse.table.fill(kAbsentProbability);
  return model;
}

}  // namespace

HmmModel read_hmm_params(const std::string& path, const Ibm2Corpus& corpus, int threads, data::UnknownTokens* unknown) {
  util::LineReader reader(path);
  std::string line;
  if (!reader.next(line)) throw util::Error(path, 1, "is empty: expected the header of nmt-align hmm parameters");
  const Header header = parse_header(line, path);
  HmmModel model = absent_model(corpus, header, threads);
  ParamsReader params(path, corpus, model, header.has_end);
  while (reader.next(line)) params.read(line, reader.line_number());
  params.finish(reader.line_number());
  if (unknown) *unknown = params.unknown_tokens(corpus);
  return model;
}

namespace {

// The word a table line of direction `fields[0]` names on `side` (0 source, 1 target) when it
// is an entry of the empty word's row: those rows name every word of their generated side.
std::optional<std::string_view> empty_row_word(const std::vector<std::string_view>& fields, int& side) {
  if (fields.size() != 5 || fields[1] != "t" || !fields[2].empty() || fields[3].empty()) return std::nullopt;
  if (fields[0] == kDirectionNames[0]) {
    side = 1;
  } else if (fields[0] == kDirectionNames[1]) {
    side = 0;
  } else {
    return std::nullopt;
  }
  return fields[3];
}

Ibm2Corpus stemmed_as_named(Ibm2Corpus corpus, const StemRule& stems, const std::unordered_set<std::string> (&named)[2]) {
  return stem_unnamed_words(
      std::move(corpus), stems.length, [&](std::string_view word) { return named[0].count(std::string(word)) > 0; },
      [&](std::string_view word) { return named[1].count(std::string(word)) > 0; });
}

}  // namespace

Ibm2Corpus in_params_words(const std::string& path, Ibm2Corpus corpus) {
  util::LineReader reader(path);
  std::string line;
  if (!reader.next(line)) throw util::Error(path, 1, "is empty: expected the header of nmt-align hmm parameters");
  const Header header = parse_header(line, path);
  if (!header.stems.on()) return corpus;
  std::unordered_set<std::string> named[2];
  while (reader.next(line)) {
    int side = 0;
    if (const auto word = empty_row_word(util::split_fields(line, '\t'), side)) named[side].emplace(*word);
  }
  return stemmed_as_named(std::move(corpus), header.stems, named);
}

HmmParamsFile::HmmParamsFile(const std::string& path) : path_(path) {
  util::LineReader reader(path);
  std::string text;
  if (!reader.next(text)) throw util::Error(path, 1, "is empty: expected the header of nmt-align hmm parameters");
  const Header header = parse_header(text, path);
  width_ = header.width;
  hmm_ = header.hmm;
  boundary_ = header.boundary;
  stems_ = header.stems;
  // Checked whole once, as read_hmm_params checks it, over a corpus of no pairs.
  const Ibm2Corpus none = Ibm2CorpusBuilder().take();
  HmmModel model = absent_model(none, header, 1);
  ParamsReader check(path, none, model, header.has_end);
  while (reader.next(text)) {
    check.read(text, reader.line_number());
    const std::size_t k = line_begin_.size();
    line_begin_.push_back(text_.size());
    text_ += text;
    text_ += '\n';
    const auto fields = util::split_fields(text, '\t');
    const int d = fields[0] == kDirectionNames[0] ? 0 : fields[0] == kDirectionNames[1] ? 1 : -1;
    int side = 0;
    if (const auto word = stems_.on() ? empty_row_word(fields, side) : std::nullopt) named_[side].emplace(*word);
    if (d >= 0 && fields[1] == "t") {
      rows_[d][std::string(fields[2])].push_back(k);
    } else if (d >= 0) {
      parameters_.push_back(k);
    }
  }
  check.finish(reader.line_number());
}

std::string_view HmmParamsFile::line(std::size_t k) const {
  const std::size_t begin = line_begin_[k];
  const std::size_t end = k + 1 < line_begin_.size() ? line_begin_[k + 1] : text_.size();
  return std::string_view(text_).substr(begin, end - begin - 1);
}

Ibm2Corpus HmmParamsFile::in_file_words(Ibm2Corpus corpus) const {
  return stems_.on() ? stemmed_as_named(std::move(corpus), stems_, named_) : corpus;
}

HmmModel HmmParamsFile::model_for(const Ibm2Corpus& corpus, int threads) const {
  HmmModel model = absent_model(corpus, Header{hmm_, width_, boundary_, true, stems_}, threads);
  ParamsReader params(path_, corpus, model, false);
  const auto read = [&](std::size_t k) { params.read(std::string(line(k)), k + 2); };
  for (const std::size_t k : parameters_) read(k);
  const TableWords words[2] = {TableWords(corpus, 0), TableWords(corpus, 1)};
  for (int d = 0; d < 2; ++d) {
    for (const std::string* word : words[d].rows) {
      const auto it = rows_[d].find(*word);
      if (it == rows_[d].end()) continue;
      for (const std::size_t k : it->second) read(k);
    }
  }
  return model;
}

}  // namespace rnnsearch::align
