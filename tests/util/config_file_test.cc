// Config files: the text format (util/config_file.h), its ties to Boost.Program_options
// (util/config_options.h) and read_command_line's --config / --dump-config (util/cli.h):
// the command line wins over the file, every bad line is refused with FILE:LINE, and a
// dump read back gives the same dump.
#include <boost/test/unit_test.hpp>

#include <functional>

#include "support/temp_dir.h"
#include "util/cli.h"
#include "util/config_file.h"
#include "util/config_options.h"
#include "util/error.h"
#include "util/number_format.h"

namespace po = boost::program_options;
namespace rt = rnnsearch::testing;
using namespace rnnsearch;

namespace {

// "name=value" for each line of `text` as parse_config_text reads it, joined by "|".
std::string parsed(const std::string& text) {
  std::string out;
  for (const auto& line : util::parse_config_text(text, "f.cfg")) {
    out += (out.empty() ? "" : "|") + std::to_string(line.number) + ":" + line.name + "=" + line.value;
  }
  return out;
}

std::string usage_error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const util::UsageError& e) {
    return e.what();
  }
  return "no error";
}

// A tool's options as a test sees them: one of each kind the tools use.
struct Options {
  util::CommonOptions common;
  std::vector<std::string> models;
  int beam = 5;
  float penalty = 0.2f;
  double ratio = 1.5;
  bool replace = false;
  std::string separator = "@@";
  std::string mode;
  std::vector<std::string> pairs, words;
  po::options_description table{"Options"};

  Options() {
    table.add_options()
        ("model,m", po::value(&models)->multitoken(), "models")
        ("beam-size,b", util::defaulted(&beam), "beam")
        ("length-penalty", util::defaulted(&penalty), "alpha")
        ("ratio", util::defaulted(&ratio), "ratio")
        ("replace-unk", po::bool_switch(&replace), "switch")
        ("separator", util::defaulted(&separator), "separator")
        ("mode", po::value<std::string>()->notifier([this](const std::string& name) {
           if (name != "hard" && name != "soft") throw util::UsageError("--mode must be hard or soft, got '" + name + "'");
           mode = name;
         }), "an enumeration")
        ("pair", util::fixed_arity_value(&pairs, 2), "IN OUT")
        ("word", po::value(&words), "repeatable, one value a time");
    util::add_common_options(table, common);
  }

  // read_command_line over `args`; true when it answered (--dump-config), the answer in `out`.
  bool parse(const std::vector<std::string>& args, std::string* out = nullptr) {
    const auto answer = util::read_command_line({"tool", "Usage: tool\n", ""}, args, table, common);
    if (out) *out = answer.value_or("");
    return answer.has_value();
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(config_file)

BOOST_AUTO_TEST_CASE(lines_comments_blanks_and_quotes) {
  BOOST_TEST(parsed("# a comment\n\n  beam-size = 5  \r\nmodel=a.bin\nmodel = b.bin # the second\n") ==
             "3:beam-size=5|4:model=a.bin|5:model=b.bin");
  BOOST_TEST(parsed("separator = a#b\n") == "1:separator=a#b");  // '#' inside a word is text
  BOOST_TEST(parsed("separator = ##\n") == "1:separator=##");     // and at the value's start
  BOOST_TEST(parsed("separator = # \n") == "1:separator=#");
  BOOST_TEST(parsed("separator =\n") == "1:separator=");
  BOOST_TEST(parsed("separator = \" @@ \" # spaces kept\n") == "1:separator= @@ ");
  BOOST_TEST(parsed("x = \"a\\\"b\\\\c\\td\"") == "1:x=a\"b\\c\td");
  BOOST_TEST(parsed("x = a = b") == "1:x=a = b");
}

BOOST_AUTO_TEST_CASE(a_bad_line_names_the_file_and_line) {
  const auto error = [](const std::string& text) {
    return usage_error_of([&] { util::parse_config_text(text, "run.cfg"); });
  };
  BOOST_TEST(error("beam-size = 5\n\nbeam-size 5\n") == "run.cfg:3: expected 'name = value', found 'beam-size 5'");
  BOOST_TEST(error("= 5") == "run.cfg:1: expected 'name = value', found '= 5'");
  BOOST_TEST(error("beam size = 5") == "run.cfg:1: expected 'name = value', found 'beam size = 5'");
  BOOST_TEST(error("--beam-size = 5") ==
             "run.cfg:1: option names go without dashes ('beam-size = ...'), found '--beam-size = 5'");
  BOOST_TEST(error("# c\nx = \"open") == "run.cfg:2: bad quoted value of 'x': no closing quote");
  BOOST_TEST(error("x = \"a\" b") == "run.cfg:1: bad quoted value of 'x': text after the closing quote");
  BOOST_TEST(error("x = \"a\\qb\"") == "run.cfg:1: bad quoted value of 'x': unknown escape '\\q' (\\\" \\\\ \\n \\t \\r)");
}

BOOST_AUTO_TEST_CASE(every_value_reads_back_as_written) {
  for (const std::string value : {"", "plain", " lead", "trail\t", "\"quoted\"", "#hash", "a #b", "a\t#b", "a#b",
                                  "line\nbreak", "cr\r", "back\\slash", "tab\tinside", "= sign", "ü 漢"}) {
    const std::string line = util::config_line("x", value);
    const auto lines = util::parse_config_text(line, "f");
    BOOST_TEST_REQUIRE(lines.size() == 1u, line);
    BOOST_TEST(lines[0].value == value, line);
  }
  BOOST_TEST(util::config_line("beam-size", "5") == "beam-size = 5\n");
  BOOST_TEST(util::config_line("separator", " @@") == "separator = \" @@\"\n");
}

BOOST_AUTO_TEST_CASE(numbers_are_written_exactly) {
  BOOST_TEST(util::general_exact(0.2f) == "0.2");
  BOOST_TEST(util::general_exact(0.0001f) == "0.0001");
  BOOST_TEST(util::general_exact(1e-10) == "1e-10");
  BOOST_TEST(util::general_exact(0.1 + 0.2) == "0.30000000000000004");
  BOOST_TEST(util::general_exact(0.123456789f) == "0.12345679");
  BOOST_TEST(util::general_exact(16777217.0f) == "16777216");
  BOOST_TEST(util::general_exact(3.0) == "3");
}

BOOST_AUTO_TEST_CASE(the_command_line_wins_over_the_file) {
  rt::TempDir dir;
  const std::string file = dir.write("run.cfg",
                                     "# decoding\nbeam-size = 7\nmodel = a.bin\nmodel = b.bin\nlength-penalty = 0.6\n"
                                     "replace-unk = true\nquiet = yes\nmode = soft\npair = i1\npair = o1\nword = x\nword = y\n");
  Options plain;
  BOOST_TEST(!plain.parse({"--config", file}));
  BOOST_TEST(plain.beam == 7);
  BOOST_TEST((plain.models == std::vector<std::string>{"a.bin", "b.bin"}));
  BOOST_TEST(plain.penalty == 0.6f);
  BOOST_TEST(plain.replace);
  BOOST_TEST(plain.common.quiet);
  BOOST_TEST(plain.mode == "soft");
  BOOST_TEST((plain.pairs == std::vector<std::string>{"i1", "o1"}));
  BOOST_TEST((plain.words == std::vector<std::string>{"x", "y"}));

  Options over;
  BOOST_TEST(!over.parse({"-b", "3", "--config", file, "-m", "c.bin", "--replace-unk=false", "--quiet=0",
                          "--mode", "hard", "--pair", "i2", "o2"}));
  BOOST_TEST(over.beam == 3);
  BOOST_TEST((over.models == std::vector<std::string>{"c.bin"}));  // replaced, not added to
  BOOST_TEST(!over.replace);
  BOOST_TEST(!over.common.quiet);
  BOOST_TEST(over.mode == "hard");
  BOOST_TEST((over.pairs == std::vector<std::string>{"i2", "o2"}));
  BOOST_TEST(over.penalty == 0.6f);  // from the file
}

BOOST_AUTO_TEST_CASE(bad_options_in_a_file_name_the_file_and_line) {
  rt::TempDir dir;
  const auto error = [&](const std::string& text, const std::vector<std::string>& more = {}) {
    const std::string file = dir.write("bad.cfg", text);
    std::vector<std::string> args = {"--config", file};
    args.insert(args.end(), more.begin(), more.end());
    return usage_error_of([&] { Options().parse(args); });
  };
  const std::string at = (dir.path() / "bad.cfg").string() + ":";
  BOOST_TEST(error("beam-size = 4\nbeam-siz = 5\n") == at + "2: unknown option 'beam-siz'");
  BOOST_TEST(error("m = a.bin\n") == at + "1: unknown option 'm'");  // long names only
  BOOST_TEST(error("\nbeam-size = five\n") == at + "2: the argument ('five') for option '--beam-size' is invalid");
  // A bad value is refused even where the command line overrides it.
  BOOST_TEST(error("beam-size = five\n", {"-b", "3"}) == at + "1: the argument ('five') for option '--beam-size' is invalid");
  BOOST_TEST(error("replace-unk = maybe\n").find(at + "1: ") == 0u);
  BOOST_TEST(error("mode = medium\n") == at + "1: --mode must be hard or soft, got 'medium'");
  BOOST_TEST(error("beam-size = 4\n# again\nbeam-size = 5\n") ==
             at + "3: 'beam-size' takes one value, given again (first on line 1)");
  BOOST_TEST(error("config = other.cfg\n") == at + "1: --config cannot be given in a config file");
  BOOST_TEST(error("dump-config = true\n") == at + "1: --dump-config cannot be given in a config file");
  BOOST_TEST(error("pair = in\npair = out\npair = in2\n") ==
             at + "1: 'pair' takes values in groups of 2 (one per line), the file gives 3");
  BOOST_TEST(error("beam-size 5\n") == at + "1: expected 'name = value', found 'beam-size 5'");
  // Found by fuzzing: a name of dashes alone escaped as std::out_of_range.
  BOOST_TEST(error("-- = 999 = 5\n") == at + "1: expected 'name = value', found '-- = 999 = 5'");
  BOOST_TEST(error("- = 1\n") == at + "1: expected 'name = value', found '- = 1'");
  // Found by fuzzing: Boost put a value holding "%value%" into its own message without end.
  BOOST_TEST(error("beam-size = a%value%b\n") ==
             at + "1: the argument ('a%value%b') for option '--beam-size' is invalid");
}

BOOST_AUTO_TEST_CASE(values_are_bytes_as_on_the_command_line) {
  rt::TempDir dir;
  // A path in UTF-8 and one in Latin-1 (not UTF-8): both taken byte for byte.
  const std::string file =
      dir.write("run.cfg", "model = \xc3\xa9t\xc3\xa9.bin\nmodel = \xe9t\xe9.bin\nseparator = \"\xc2\xa0@@\"\n");
  Options options;
  BOOST_TEST(!options.parse({"--config", file}));
  BOOST_TEST((options.models == std::vector<std::string>{"\xc3\xa9t\xc3\xa9.bin", "\xe9t\xe9.bin"}));
  BOOST_TEST(options.separator == "\xc2\xa0@@");
}

BOOST_AUTO_TEST_CASE(the_dump_is_the_effective_options_and_reads_back_the_same) {
  rt::TempDir dir;
  const std::string file = dir.write("run.cfg", "beam-size = 7\nmodel = a.bin\nmodel = b.bin\nmode = soft\n");
  Options first;
  std::string dump;
  BOOST_TEST(first.parse({"--config", file, "--length-penalty", "0.123456789", "--separator", " @@", "--dump-config",
                          "--replace-unk"},
                         &dump));
  BOOST_TEST(dump ==
             "model = a.bin\nmodel = b.bin\nbeam-size = 7\nlength-penalty = 0.12345679\nratio = 1.5\n"
             "replace-unk = true\nseparator = \" @@\"\nmode = soft\nthreads = 1\nquiet = false\n");
  BOOST_TEST(first.common.effective_options == dump);

  Options second;
  std::string again;
  BOOST_TEST(second.parse({"--config", dir.write("dump.cfg", dump), "--dump-config"}, &again));
  BOOST_TEST(again == dump);
  BOOST_TEST(second.penalty == first.penalty);  // the float itself, not only its text
  BOOST_TEST(second.separator == " @@");
}

BOOST_AUTO_TEST_CASE(help_is_answered_without_reading_the_file) {
  Options options;
  std::string out;
  BOOST_TEST(options.parse({"--config", "/nonexistent/run.cfg", "--help"}, &out));
  BOOST_TEST(out.find("--dump-config") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_missing_file_is_an_input_error) {
  Options options;
  try {
    options.parse({"--config", "/nonexistent/run.cfg"});
    BOOST_ERROR("no error");
  } catch (const util::Error& e) {
    BOOST_TEST(e.file() == "/nonexistent/run.cfg");
  }
}

BOOST_AUTO_TEST_SUITE_END()
