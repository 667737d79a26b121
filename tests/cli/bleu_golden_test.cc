// Every case sacreBLEU 2.6.0 was run on (shared/golden/bleu/cases.tsv): nmt-bleu given
// the same arguments must print the same stdout, byte for byte, and exit the same way.
#include <boost/test/unit_test.hpp>
#include <fstream>
#include <sstream>

#include "support/run_process.h"
#include "support/shared_data.h"

namespace rt = rnnsearch::testing;

namespace {

struct GoldenCase {
  std::string id, hyp, refs, options;
  int exit_code = 0;
  std::string stdout_text, stdout_file;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!s.empty() && s.back() == sep) parts.emplace_back();
  return parts;
}

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    out += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
  }
  return out;
}

std::vector<GoldenCase> read_cases(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  std::vector<GoldenCase> cases;
  while (std::getline(in, line)) {
    const auto f = split(line, '\t');
    BOOST_REQUIRE_MESSAGE(f.size() == 8, "malformed row in cases.tsv: " << line);
    cases.push_back({f[0], f[1], f[2], f[3], std::stoi(f[4]), unescape(f[5]), f[6]});
  }
  return cases;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_sacrebleu_golden_case_matches) {
  const std::string dir = rt::shared_path("golden/bleu");
  if (!rt::require_shared(dir + "/cases.tsv")) return;
  const auto cases = read_cases(dir + "/cases.tsv");
  BOOST_TEST(cases.size() == 930u);

  std::size_t passed = 0;
  for (const auto& c : cases) {
    std::vector<std::string> argv = {rt::tool_path("nmt-bleu")};
    for (const auto& ref : split(c.refs, ',')) argv.push_back(ref);
    argv.push_back("-i");
    argv.push_back(c.hyp);
    for (const auto& opt : split(c.options, ' ')) {
      if (!opt.empty()) argv.push_back(opt);
    }
    const auto result = rt::run_process(argv, dir, "", {"SACREBLEU_FORMAT", "SACREBLEU_SEED"});
    const std::string expected = c.stdout_file.empty() ? c.stdout_text : read_file(dir + "/" + c.stdout_file);
    const bool ok = result.exit_code == c.exit_code && result.out == expected;
    BOOST_CHECK_MESSAGE(ok, c.id << " [" << c.options << "]: exit " << result.exit_code << " (want " << c.exit_code
                                 << ")\n--- got ---\n" << result.out.substr(0, 600) << "--- want ---\n"
                                 << expected.substr(0, 600) << "--- stderr ---\n" << result.err);
    passed += ok;
  }
  BOOST_TEST_MESSAGE(passed << " of " << cases.size() << " sacreBLEU golden cases match");
}
