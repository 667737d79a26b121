#include "eval/eval_stream.h"

#include "text/whitespace.h"
#include "util/error.h"
#include "util/line_reader.h"

namespace rnnsearch::eval {
namespace {

// Splits at tabs into at most max_fields fields (the last keeps any further tabs).
void split_tabs(std::string_view line, std::size_t max_fields, std::vector<std::string>& fields) {
  fields.clear();
  std::size_t start = 0;
  while (fields.size() + 1 < max_fields) {
    const std::size_t tab = line.find('\t', start);
    if (tab == std::string_view::npos) break;
    fields.emplace_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  fields.emplace_back(line.substr(start));
}

std::string count_lines(std::size_t n) { return std::to_string(n) + (n == 1 ? " line" : " lines"); }

}  // namespace

EvalStream::EvalStream(const EvalOptions& config, std::size_t block_segments)
    : block_segments_(block_segments == 0 ? 1 : block_segments), num_refs_(config.num_refs) {
  if (num_refs_ == 1) {
    for (const auto& path : config.references) {
      readers_.push_back(std::make_unique<util::LineReader>(path));
      ref_names_.push_back(path);
    }
  } else {
    readers_.push_back(std::make_unique<util::LineReader>(config.references.front()));
    ref_names_.assign(static_cast<std::size_t>(num_refs_), config.references.front());
  }
  ref_readers_ = readers_.size();

  if (config.inputs.empty()) {
    stdin_systems_ = true;
    readers_.push_back(std::make_unique<util::LineReader>("-"));
    if (readers_.back()->next(line_)) {
      split_tabs(text::rstrip(line_), std::string::npos, first_stdin_fields_);
      have_first_stdin_ = true;
      for (std::size_t s = 0; s < first_stdin_fields_.size(); ++s) names_.push_back("System " + std::to_string(s + 1));
    } else {
      names_.push_back("System 1");
    }
    return;
  }
  const bool paired = config.paired_bs || config.paired_ar;
  for (const auto& path : config.inputs) {
    bool seen = false;
    for (const auto& name : names_) seen = seen || name == path;
    if (seen) {
      if (paired && path == names_.front()) continue;  // the baseline again
      throw util::UsageError("'" + path + "' is given twice as a system output");
    }
    readers_.push_back(std::make_unique<util::LineReader>(path));
    names_.push_back(path);
  }
}

EvalStream::~EvalStream() = default;

std::string EvalStream::system_label(std::size_t s) const { return stdin_systems_ ? "<stdin>" : names_[s]; }

bool EvalStream::next(EvalBlock& block) {
  block.first = segments_;
  block.references.resize(ref_names_.size());
  for (auto& stream : block.references) stream.clear();
  block.systems.resize(names_.size());
  for (auto& system : block.systems) system.clear();
  while (block.size() < block_segments_ && read_segment(block)) {
  }
  if (block.size() > 0) return true;
  if (segments_ == 0) throw util::Error(system_label(0), "the system output is empty: nothing to score");
  return false;
}

bool EvalStream::read_segment(EvalBlock& block) {
  std::vector<bool> got(readers_.size(), false);
  std::size_t present = 0;
  std::vector<std::string> fields;
  for (std::size_t k = 0; k < readers_.size(); ++k) {
    util::LineReader& reader = *readers_[k];
    const bool stdin_reader = stdin_systems_ && k == ref_readers_;
    if (stdin_reader && have_first_stdin_) {
      have_first_stdin_ = false;
      fields.swap(first_stdin_fields_);
    } else if (reader.next(line_)) {
      const std::string_view stripped = text::rstrip(line_);
      if (k < ref_readers_ && num_refs_ > 1) {
        split_tabs(stripped, static_cast<std::size_t>(num_refs_), fields);
        if (fields.size() != static_cast<std::size_t>(num_refs_)) {
          throw util::Error(reader.name(), reader.line_number(),
                            "expected " + std::to_string(num_refs_) + " tab-separated references, found " +
                                std::to_string(fields.size()));
        }
      } else if (stdin_reader) {
        split_tabs(stripped, std::string::npos, fields);
        if (fields.size() != names_.size()) {
          throw util::Error(reader.name(), reader.line_number(),
                            "found " + std::to_string(fields.size()) + " tab-separated systems, but line 1 had " +
                                std::to_string(names_.size()));
        }
      } else {
        fields.assign(1, std::string(stripped));
      }
    } else {
      continue;
    }
    got[k] = true;
    ++present;
    if (k < ref_readers_) {
      for (std::size_t r = 0; r < fields.size(); ++r) block.references[num_refs_ > 1 ? r : k].push_back(std::move(fields[r]));
    } else if (stdin_reader) {
      for (std::size_t s = 0; s < fields.size(); ++s) block.systems[s].emplace_back(text::rstrip(fields[s]));
    } else {
      block.systems[k - ref_readers_].push_back(std::move(fields.front()));
    }
  }
  if (present == readers_.size()) {
    ++segments_;
    return true;
  }
  if (present == 0) return false;
  throw_count_mismatch(got);
}

void EvalStream::throw_count_mismatch(const std::vector<bool>& got) {
  // Each file's whole length, for a message as clear as when everything was read first.
  std::vector<std::size_t> lines(readers_.size(), segments_);
  for (std::size_t k = 0; k < readers_.size(); ++k) {
    if (!got[k]) continue;
    ++lines[k];
    while (readers_[k]->next(line_)) ++lines[k];
  }
  const auto ref_lines = [&](std::size_t r) { return lines[num_refs_ > 1 ? 0 : r]; };
  const auto system_lines = [&](std::size_t s) { return lines[ref_readers_ + (stdin_systems_ ? 0 : s)]; };
  for (std::size_t s = 0; s < names_.size(); ++s) {
    const std::string name = system_label(s);
    if (system_lines(s) == 0) throw util::Error(name, "the system output is empty: nothing to score");
    for (std::size_t r = 0; r < ref_names_.size(); ++r) {
      if (ref_lines(r) != system_lines(s)) {
        throw util::Error(name, count_lines(system_lines(s)) + ", but the reference " + ref_names_[r] + " has " +
                                    count_lines(ref_lines(r)) + "; every line needs its reference");
      }
    }
  }
  throw util::Error("the inputs differ in length after line " + std::to_string(segments_));
}

}  // namespace rnnsearch::eval
