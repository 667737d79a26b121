#include "util/config_options.h"

#include <map>
#include <stdexcept>
#include <type_traits>
#include <typeinfo>

#include "util/config_file.h"
#include "util/error.h"
#include "util/number_format.h"
#include "util/option_error.h"

namespace rnnsearch::util {

namespace po = boost::program_options;

namespace {

// Parses `value` as `option` reads it and runs its notifier (an enumeration's names are
// checked there), so that a bad value is reported at its line.
void check_value(const po::option_description& option, const std::string& value, const std::string& where) {
  boost::any parsed;
  try {
    // utf8 = false: the value's bytes as they are, as po::store takes the command line's
    // (true converts UTF-8 to the C locale's 8 bits, which fails on any byte above 127).
    option.semantic()->parse(parsed, {value}, false);
    option.semantic()->notify(parsed);
  } catch (po::error_with_option_name& e) {
    e.set_option_name(option.long_name());
    e.set_prefix(po::command_line_style::allow_long);  // "--beam-size", as on the command line
    e.set_substitute("value", value);
    throw UsageError(where + option_error_message(e));
  } catch (const po::error& e) {
    throw UsageError(where + e.what());
  } catch (const UsageError& e) {
    throw UsageError(where + e.what());
  }
}

// A list: several values in one use, repeated uses composed, or a list of strings that
// repeated uses (or positional arguments) append to.
bool takes_several(const po::option_description& option) {
  const auto* typed = dynamic_cast<const po::typed_value_base*>(option.semantic().get());
  return option.semantic()->max_tokens() > 1 || option.semantic()->is_composing() ||
         (typed != nullptr && typed->value_type() == typeid(std::vector<std::string>));
}

// The option a config line names, or UsageError.
const po::option_description& named_option(const po::options_description& options, const std::string& name,
                                           const std::string& where) {
  if (is_meta_option(name)) throw UsageError(where + "--" + name + " cannot be given in a config file");
  const po::option_description* option = options.find_nothrow(name, false);
  if (option == nullptr) throw UsageError(where + "unknown option '" + name + "'");
  return *option;
}

template <class T>
std::string text_of(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return value;
  } else if constexpr (std::is_floating_point_v<T>) {
    return general_exact(value);
  } else {
    return std::to_string(value);
  }
}

// Appends the text of `value` when it holds a T or a std::vector<T>.
template <class T>
bool append_as(const boost::any& value, std::vector<std::string>& out) {
  if (const T* one = boost::any_cast<T>(&value)) {
    out.push_back(text_of(*one));
    return true;
  }
  const auto* list = boost::any_cast<std::vector<T>>(&value);
  if (list == nullptr) return false;
  for (const T& item : *list) out.push_back(text_of(item));
  return true;
}

std::vector<std::string> value_texts(const boost::any& value, const std::string& name) {
  std::vector<std::string> out;
  const bool known = append_as<bool>(value, out) || append_as<std::string>(value, out) || append_as<int>(value, out) ||
                     append_as<unsigned>(value, out) || append_as<long>(value, out) ||
                     append_as<unsigned long>(value, out) || append_as<long long>(value, out) ||
                     append_as<unsigned long long>(value, out) || append_as<float>(value, out) ||
                     append_as<double>(value, out);
  if (!known) throw std::logic_error("--dump-config cannot print --" + name + ", a " + value.type().name());
  return out;
}

}  // namespace

bool is_meta_option(const std::string& name) {
  return name == "help" || name == "version" || name == "config" || name == "dump-config";
}

bool given(const po::variables_map& vm, const std::string& name) {
  const auto it = vm.find(name);
  return it != vm.end() && !it->second.empty() && !it->second.defaulted();
}

void store_config_file(const std::string& path, const po::options_description& options, po::variables_map& vm) {
  store_config_lines(read_config_file(path), path == "-" ? "<stdin>" : path, options, vm);
}

void store_config_lines(const std::vector<ConfigLine>& lines, const std::string& file,
                        const po::options_description& options, po::variables_map& vm) {
  po::parsed_options parsed(&options);
  std::map<std::string, std::size_t> first_line, slot;  // by option: its first line, its entry in `parsed`
  for (const ConfigLine& line : lines) {
    const std::string where = file + ":" + std::to_string(line.number) + ": ";
    const po::option_description& option = named_option(options, line.name, where);
    const std::string& name = option.long_name();
    check_value(option, line.value, where);
    const auto [first, fresh] = first_line.emplace(name, line.number);
    if (!fresh && !takes_several(option)) {
      throw UsageError(where + "'" + name + "' takes one value, given again (first on line " +
                       std::to_string(first->second) + ")");
    }
    if (given(vm, name)) continue;  // the command line wins
    const auto [at, added] = slot.emplace(name, parsed.options.size());
    if (added) {
      parsed.options.emplace_back(name, std::vector<std::string>{line.value});
    } else {
      parsed.options[at->second].value.push_back(line.value);
    }
  }
  for (const po::option& entry : parsed.options) {
    const unsigned group = options.find(entry.string_key, false).semantic()->min_tokens();
    if (group > 1 && entry.value.size() % group != 0) {
      throw UsageError(file + ":" + std::to_string(first_line[entry.string_key]) + ": '" + entry.string_key +
                       "' takes values in groups of " + std::to_string(group) + " (one per line), the file gives " +
                       std::to_string(entry.value.size()));
    }
  }
  po::store(parsed, vm);
}

std::string dump_config(const po::options_description& options, const po::variables_map& vm) {
  std::string text;
  for (const auto& option : options.options()) {
    const std::string& name = option->long_name();
    const auto it = vm.find(name);
    if (is_meta_option(name) || it == vm.end() || it->second.empty()) continue;
    for (const std::string& value : value_texts(it->second.value(), name)) text += config_line(name, value);
  }
  return text;
}

std::vector<std::string> take_switch_values(const std::vector<std::string>& args, const po::options_description& options,
                                            std::vector<po::option>& switches) {
  std::vector<std::string> rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      rest.insert(rest.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    const std::size_t equals = arg.find('=');
    const po::option_description* option =
        arg.rfind("--", 0) == 0 && equals != std::string::npos ? options.find_nothrow(arg.substr(2, equals - 2), false)
                                                               : nullptr;
    if (option != nullptr && option->semantic()->max_tokens() == 0) {
      switches.emplace_back(option->long_name(), std::vector<std::string>{arg.substr(equals + 1)});
    } else {
      rest.push_back(arg);
    }
  }
  return rest;
}

}  // namespace rnnsearch::util
