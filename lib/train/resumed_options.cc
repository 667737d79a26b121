#include "train/resumed_options.h"

#include <sys/stat.h>

#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "model/model_file.h"
#include "nn/attention.h"
#include "util/config_file.h"
#include "util/config_options.h"
#include "util/error.h"

namespace rnnsearch::train {

namespace po = boost::program_options;

namespace {

// Each option's values, in the order of the lines.
using OptionValues = std::map<std::string, std::vector<std::string>>;

OptionValues values_of(const std::string& lines, const std::string& file) {
  OptionValues values;
  for (const util::ConfigLine& line : util::parse_config_text(lines, file)) values[line.name].push_back(line.value);
  return values;
}

// The values on one line (a line break inside one would end a comment line early).
std::string shown(const std::vector<std::string>& values) {
  if (values.empty()) return "none";
  std::string text;
  for (const std::string& value : values) {
    if (!text.empty()) text += ' ';
    if (value.empty()) text += "''";
    for (const char c : value) text += c == '\n' ? std::string("\\n") : c == '\r' ? std::string("\\r") : std::string(1, c);
  }
  return text;
}

// The architecture options as the model's own configuration gives them.
std::string architecture_lines(const model::ModelOptions& config) {
  return util::config_line("dim-emb", std::to_string(config.embedding)) +
         util::config_line("dim-enc", std::to_string(config.encoder_hidden)) +
         util::config_line("dim-dec", std::to_string(config.decoder_hidden)) +
         util::config_line("dim-att", std::to_string(config.attention)) +
         util::config_line("alignment-head", std::to_string(config.alignment_head)) +
         util::config_line("attention", nn::attention_form_name(config.attention_form)) +
         util::config_line("dim-maxout", std::to_string(config.maxout)) +
         util::config_line("tied-embeddings", config.tied_embeddings ? "true" : "false") +
         util::config_line("layer-normalization", config.layer_norm ? "true" : "false") +
         util::config_line("enc-cell-depth", std::to_string(config.encoder_depth)) +
         util::config_line("dec-cell-depth", std::to_string(config.decoder_depth));
}

bool exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

}  // namespace

bool fixed_on_resume(const std::string& name) {
  static const std::set<std::string> fixed = {
      "vocabs",         "src-vocab-size", "tgt-vocab-size",  "pretrained-model", "dim-emb",
      "dim-enc",        "dim-dec",        "dim-att",         "alignment-head",   "attention",
      "dim-maxout",     "tied-embeddings", "init",           "seed",             "optimizer",
      "precision",      "exponential-smoothing", "layer-normalization", "enc-cell-depth", "dec-cell-depth"};
  return fixed.count(name) > 0;
}

util::ToolInfo::Beneath fixed_options_of_checkpoint(const po::options_description& options,
                                                    const po::variables_map& vm) {
  const auto resume = vm.find("resume");
  if (resume == vm.end() || !resume->second.as<bool>()) return {};
  const std::string checkpoint = vm["model"].as<std::string>() + ".ckpt";
  if (!exists(checkpoint)) return {};
  const model::LoadedModel loaded = model::read_model_file(checkpoint, model::FileKind::kCheckpoint);
  // The architecture as the model itself has it: stored options may say otherwise (an
  // earlier version stored what a resumed run was given) or be absent (before format 4).
  const bool complete = !loaded.training_options.empty();
  OptionValues fixed;
  try {
    fixed = values_of(loaded.training_options, checkpoint);
  } catch (const util::UsageError& e) {  // the file is at fault, not the command line
    throw util::Error(std::string(e.what()) + " (the checkpoint's stored options are damaged)");
  }
  for (auto& [name, values] : values_of(architecture_lines(loaded.model->config()), checkpoint)) fixed[name] = values;
  const OptionValues now = values_of(util::dump_config(options, vm), "<command line>");
  util::ToolInfo::Beneath beneath{checkpoint, {}};
  for (const auto& option : options.options()) {
    const std::string& name = option->long_name();
    const auto at = fixed.find(name);
    if (!fixed_on_resume(name) || (!complete && at == fixed.end())) continue;
    // An option stored without a value (--vocabs, --pretrained-model) was not given.
    const std::vector<std::string> values = at == fixed.end() ? std::vector<std::string>{} : at->second;
    if (!util::given(vm, name)) {
      for (const std::string& value : values) beneath.lines += util::config_line(name, value);
      continue;
    }
    const auto given = now.find(name);
    const std::vector<std::string> given_values = given == now.end() ? std::vector<std::string>{} : given->second;
    if (given_values != values) {
      throw util::UsageError("--" + name + " " + shown(given_values) + " differs from " + checkpoint + ", trained with --" +
                             name + " " + shown(values) + ": a resumed run keeps it (start over with --overwrite)");
    }
  }
  return beneath;
}

std::string resumed_stored_options(const std::string& stored, const std::string& now, long update,
                                   std::string& changed) {
  std::string comments;
  std::istringstream lines(stored);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] == '#') comments += line + "\n";
  }
  const OptionValues before = values_of(stored, "<checkpoint>"), after = values_of(now, "<command line>");
  std::set<std::string> names;
  for (const auto& entry : before) names.insert(entry.first);
  for (const auto& entry : after) names.insert(entry.first);
  changed.clear();
  for (const std::string& name : names) {
    const auto was = before.find(name), is = after.find(name);
    const std::vector<std::string> old_values = was == before.end() ? std::vector<std::string>{} : was->second;
    const std::vector<std::string> new_values = is == after.end() ? std::vector<std::string>{} : is->second;
    if (old_values == new_values || name == "quiet") continue;  // --quiet changes no result
    changed += (changed.empty() ? "" : ", ") + name + " = " + shown(new_values) + " (was " + shown(old_values) + ")";
  }
  if (!changed.empty()) comments += "# resumed after update " + std::to_string(update) + " with " + changed + "\n";
  return comments + now;
}

}  // namespace rnnsearch::train
