#pragma once
// A tool's options and its config files (util/config_file.h): --config FILE stored under
// the command line, --dump-config written from what is in effect. util/cli.h calls these.
#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "util/config_file.h"

namespace rnnsearch::util {

// help, version, config and dump-config: they ask for something other than the work, so
// no config file gives them and no dump prints them.
bool is_meta_option(const std::string& name);

// Stores the options of the config file at `path` into `vm` under what `vm` holds from
// the command line: an option given there keeps its value(s), the file's are not added.
// Every value is parsed (and its notifier run) at its line, whether used or not.
// Throws UsageError naming FILE:LINE: "unknown option 'beam-siz'", "--config cannot be
// given in a config file", "'beam-size' takes one value, given again (first on line 2)",
// "the argument ('x') for option '--beam-size' is invalid", an enumeration's message, and
// those of parse_config_text; util::Error when the file cannot be read.
void store_config_file(const std::string& path, const boost::program_options::options_description& options,
                       boost::program_options::variables_map& vm);

// The same for lines already read, from `file` (named in messages).
void store_config_lines(const std::vector<ConfigLine>& lines, const std::string& file,
                        const boost::program_options::options_description& options,
                        boost::program_options::variables_map& vm);

// The values `vm` holds, as config lines in the order of `options` (meta options and
// options without a value left out): switches true or false, numbers exactly
// (util::general_exact), a list one line per value. Throws std::logic_error for a value
// of a type it cannot print (a new option's type, caught by the CLI tests).
std::string dump_config(const boost::program_options::options_description& options,
                        const boost::program_options::variables_map& vm);

// `args` without its "--SWITCH=VALUE" words (SWITCH an option taking no value, such as a
// po::bool_switch), which go to `switches` for po::store to read VALUE (true, false, yes,
// no, on, off, 1, 0): Boost takes a switch only bare, and a command line must be able to
// turn off a switch a config file turns on. Words after "--" stay.
std::vector<std::string> take_switch_values(const std::vector<std::string>& args,
                                            const boost::program_options::options_description& options,
                                            std::vector<boost::program_options::option>& switches);

// Whether `vm` holds a value of `name` that the command line (or a file) gave, not a default.
bool given(const boost::program_options::variables_map& vm, const std::string& name);

}  // namespace rnnsearch::util
