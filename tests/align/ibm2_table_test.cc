// nmt-align ibm2 --save-table / --load-table: the saved table reads back bit for bit, a
// loaded table aligns the training corpus exactly as the trained run's last pass did, and
// bad table lines are one-line errors naming file and line.
#include <boost/test/unit_test.hpp>

#include "align/ibm2.h"
#include "align/ibm2_files.h"
#include "align/ibm2_table.h"
#include "support/error_message.h"
#include "support/gzip_text.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"
#include "util/line_reader.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

// The first `count` pairs of the shared Multi30k training text (tokenized, lowercased).
bool multi30k_pairs(std::size_t count, std::vector<std::string>& source, std::vector<std::string>& target) {
  const std::string dir = rt::shared_path("golden/align/input");
  if (!rt::require_shared(dir + "/train.lc.norm.tok.de.gz")) return false;
  source = rt::gunzip_lines(dir + "/train.lc.norm.tok.de.gz");
  target = rt::gunzip_lines(dir + "/train.lc.norm.tok.en.gz");
  source.resize(count);
  target.resize(count);
  return true;
}

align::Ibm2Corpus corpus_of(const std::vector<std::string>& source, const std::vector<std::string>& target) {
  align::Ibm2CorpusBuilder builder;
  for (std::size_t k = 0; k < source.size(); ++k) builder.add(source[k], target[k]);
  return builder.take();
}

std::string joined(const std::vector<data::Alignment>& links) {
  std::string text;
  for (const auto& l : links) text += data::format_pharaoh(l) + "\n";
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ibm2_table)

BOOST_AUTO_TEST_CASE(saved_table_reads_back_exactly_and_aligns_as_the_last_pass) {
  std::vector<std::string> source, target;
  if (!multi30k_pairs(3000, source, target)) return;
  const rt::TempDir dir;
  const align::Ibm2Corpus corpus = corpus_of(source, target);
  for (const int iterations : {1, 5}) {
    align::Ibm2Options options;
    options.iterations = iterations;
    align::Ibm2Table learned;
    const auto trained = align::ibm2_align(corpus, options, {}, &learned);
    const std::string path = (dir.path() / "table").string();
    align::write_ibm2_table(path, corpus, learned, false);
    align::Ibm2Table loaded;
    align::Ibm2Options other;  // the header, not these, gives the tension and p_null
    other.tension = 1.0;
    other.p_null = 0.5;
    const auto forced = align::ibm2_force_align(corpus, other, [&](align::Ibm2Table& table) {
      align::fill_ibm2_table(path, corpus, false, table);
      loaded = table;
    });
    BOOST_TEST(loaded.tension == learned.tension);
    BOOST_TEST(loaded.p_null == learned.p_null);
    BOOST_TEST(loaded.target == learned.target);
    BOOST_TEST((loaded.probability == learned.probability));  // every double, bit for bit
    BOOST_TEST(joined(forced.links) == joined(trained.links));
    // The file's first entries: the header, then NULL's row (empty source word), most probable first.
    const auto lines = util::read_lines(path);
    BOOST_TEST(lines[0].rfind("nmt-ibm2-table 1 direction=forward p-null=8e-02 tension=", 0) == 0u);
    BOOST_TEST(lines[1].rfind("\t", 0) == 0u);
    std::size_t entries = 0;
    for (std::size_t e = 0; e + 1 < learned.row_begin.size(); ++e) {
      entries += learned.row_begin[e + 1] - learned.row_begin[e];
    }
    BOOST_TEST(lines.size() == entries + 1);
  }
}

BOOST_AUTO_TEST_CASE(files_command_saves_loads_and_thresholds) {
  std::vector<std::string> source, target;
  if (!multi30k_pairs(2000, source, target)) return;
  const rt::TempDir dir;
  std::string s, t;
  for (std::size_t k = 0; k < source.size(); ++k) {
    s += source[k] + "\n";
    t += target[k] + "\n";
  }
  for (const bool reverse : {false, true}) {
    align::Ibm2FilesOptions train;
    train.source = dir.write("s", s);
    train.target = dir.write("t", t);
    train.reverse = reverse;
    train.progress = false;
    train.output = (dir.path() / "trained.align").string();
    train.save_table = (dir.path() / "table").string();
    align::ibm2_files(train);
    align::Ibm2FilesOptions load = train;
    load.save_table.clear();
    load.load_table = train.save_table;
    load.output = (dir.path() / "loaded.align").string();
    align::ibm2_files(load);
    BOOST_TEST(util::read_lines(load.output) == util::read_lines(train.output));
    // A table of the other direction is refused.
    load.reverse = !reverse;
    const std::string refused = rt::error_message([&] { align::ibm2_files(load); });
    BOOST_TEST(refused.find(load.load_table + ":1: is a table of the ") == 0u);
    // A threshold keeps fewer entries, NULL's row whole.
    train.save_table = (dir.path() / "pruned").string();
    train.table_threshold = 0.01;
    align::ibm2_files(train);
    const auto all = util::read_lines(load.load_table), pruned = util::read_lines(train.save_table);
    BOOST_TEST(pruned.size() < all.size());
    BOOST_TEST(pruned.size() > 1000u);
  }
}

BOOST_AUTO_TEST_CASE(bad_table_lines_name_file_and_line) {
  const rt::TempDir dir;
  const std::string header = "nmt-ibm2-table 1 direction=forward p-null=0.08 tension=4\n";
  const auto message = [&](const std::string& text) {
    const std::string path = dir.write("bad", text);
    return rt::error_message([&] { align::read_ibm2_table(path, [](const auto&) {}, [](auto, auto, double) {}); })
        .substr(path.size());
  };
  BOOST_TEST(message("") == ":1: is empty: expected the header of an IBM Model 2 table");
  BOOST_TEST(message("a\tb\t0.5\n").find(":1: not an IBM Model 2 table") == 0u);
  BOOST_TEST(message("nmt-ibm2-table 1 direction=forward p-null=x tension=4\n").find(":1: expected p-null=") == 0u);
  // Values that training refuses (-p, -T) are refused in a header too: p-null=5 sent every word to NULL.
  BOOST_TEST(message("nmt-ibm2-table 1 direction=forward p-null=5 tension=4\n") ==
             ":1: expected p-null=NUMBER in [0.0001, 0.9999] in the header, found 'p-null=5'");
  BOOST_TEST(message("nmt-ibm2-table 1 direction=forward p-null=0.08 tension=1e5\n") ==
             ":1: expected tension=NUMBER in [0.0001, 10000] in the header, found 'tension=1e5'");
  BOOST_TEST(message(header + "a\tb\t0.5\na\tb\n") ==
             ":3: expected 'SOURCE<TAB>TARGET<TAB>PROBABILITY' (SOURCE empty for NULL)");
  BOOST_TEST(message(header + "a\t\t0.5\n").find(":2: expected") == 0u);
  BOOST_TEST(message(header + "a\tb\t1.5\n") == ":2: probability '1.5' is not in (0, 1]");
  BOOST_TEST(message(header + "a\tb\tnan\n") == ":2: probability 'nan' is not in (0, 1]");
}

BOOST_AUTO_TEST_SUITE_END()
