#include "eval/eval_inputs.h"

#include "text/whitespace.h"
#include "util/error.h"
#include "util/line_reader.h"

namespace rnnsearch::eval {
namespace {

std::vector<std::string> split_tabs(const std::string& line, std::size_t max_fields) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (fields.size() + 1 < max_fields) {
    const std::size_t tab = line.find('\t', start);
    if (tab == std::string::npos) break;
    fields.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  fields.push_back(line.substr(start));
  return fields;
}

ReferenceSet read_references(const EvalConfig& config) {
  if (config.num_refs == 1) {
    ReferenceSet refs;
    for (const auto& path : config.references) {
      util::LineReader reader(path);
      std::vector<std::string> lines;
      std::string line;
      while (reader.next(line)) lines.emplace_back(text::rstrip(line));
      refs.push_back(std::move(lines));
    }
    return refs;
  }
  const std::string& path = config.references.front();
  ReferenceSet refs(static_cast<std::size_t>(config.num_refs));
  util::LineReader reader(path);
  std::string line;
  while (reader.next(line)) {
    const std::string stripped(text::rstrip(line));
    auto fields = split_tabs(stripped, static_cast<std::size_t>(config.num_refs));
    if (fields.size() != static_cast<std::size_t>(config.num_refs)) {
      throw util::Error(path, reader.line_number(),
                        "expected " + std::to_string(config.num_refs) + " tab-separated references, found " +
                            std::to_string(fields.size()));
    }
    for (std::size_t r = 0; r < fields.size(); ++r) refs[r].push_back(std::move(fields[r]));
  }
  return refs;
}

std::vector<SystemOutput> read_systems_from_stdin() {
  util::LineReader reader("-");
  std::vector<SystemOutput> systems;
  std::string line;
  while (reader.next(line)) {
    auto fields = split_tabs(std::string(text::rstrip(line)), std::string::npos);
    if (systems.empty()) {
      for (std::size_t s = 0; s < fields.size(); ++s) systems.push_back({"System " + std::to_string(s + 1), {}});
    } else if (fields.size() != systems.size()) {
      throw util::Error(reader.name(), reader.line_number(),
                        "found " + std::to_string(fields.size()) + " tab-separated systems, but line 1 had " +
                            std::to_string(systems.size()));
    }
    for (std::size_t s = 0; s < fields.size(); ++s) {
      systems[s].lines.emplace_back(text::rstrip(fields[s]));
    }
  }
  if (systems.empty()) systems.push_back({"System 1", {}});
  return systems;
}

std::string count_lines(std::size_t n) { return std::to_string(n) + (n == 1 ? " line" : " lines"); }

}  // namespace

EvalInputs read_eval_inputs(const EvalConfig& config) {
  EvalInputs inputs;
  inputs.references = read_references(config);

  if (config.inputs.empty()) {
    inputs.systems = read_systems_from_stdin();
  } else {
    const bool paired = config.paired_bs || config.paired_ar;
    for (const auto& path : config.inputs) {
      bool seen = false;
      for (const auto& s : inputs.systems) seen = seen || s.name == path;
      if (seen) {
        if (paired && path == inputs.systems.front().name) continue;  // the baseline again
        throw util::UsageError("'" + path + "' is given twice as a system output");
      }
      SystemOutput system{path, {}};
      util::LineReader reader(path);
      std::string line;
      while (reader.next(line)) system.lines.emplace_back(text::rstrip(line));
      inputs.systems.push_back(std::move(system));
    }
  }

  const std::string hyp_label = config.inputs.empty() ? "<stdin>" : "";
  for (const auto& system : inputs.systems) {
    const std::string name = config.inputs.empty() ? hyp_label : system.name;
    if (system.lines.empty()) throw util::Error(name, "the system output is empty: nothing to score");
    for (std::size_t r = 0; r < inputs.references.size(); ++r) {
      const auto& ref = inputs.references[r];
      if (ref.size() != system.lines.size()) {
        const std::string ref_name =
            config.num_refs == 1 ? config.references[r] : config.references.front();
        throw util::Error(name, count_lines(system.lines.size()) + ", but the reference " + ref_name + " has " +
                                    count_lines(ref.size()) + "; every line needs its reference");
      }
    }
  }
  return inputs;
}

}  // namespace rnnsearch::eval
