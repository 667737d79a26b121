// nmt-serve's language check (serve/language_watch.h): a pair's source lines counted in
// windows of LanguageWatch::kWindowLines lines, whatever the requests they come in; a
// warning for each window of another language, none for the profile's own language or
// with the threshold 0; and the count in /metrics.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "serve/language_watch.h"
#include "serve/metrics.h"

using namespace rnnsearch;

namespace {

data::SourceProfile english_profile() {
  data::ProfileBuilder builder;
  for (const std::string line : {"a man in a blue shirt is standing on a ladder .", "two dogs are playing in the snow .",
                                 "a woman with a red hat is walking down the street .",
                                 "the children are sitting on the grass in the park ."}) {
    builder.add_line(line);
  }
  return builder.build("train.en");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(language_watch)

BOOST_AUTO_TEST_CASE(warns_once_per_window_of_another_language) {
  const data::SourceProfile profile = english_profile();
  serve::LanguageWatch watch(profile, "en-cs");
  const std::vector<std::string> german(30, "zwei Hunde spielen im Schnee .");
  const std::vector<std::string> english(30, "two children are playing in the street .");
  std::vector<std::string> warnings;
  for (int request = 0; request < 3; ++request) {  // 90 lines: no window complete
    for (auto& w : watch.add(german, data::kLanguageWarningRatio)) warnings.push_back(w);
  }
  BOOST_TEST(warnings.empty());
  for (auto& w : watch.add(german, data::kLanguageWarningRatio)) warnings.push_back(w);  // 120: one window
  BOOST_TEST_REQUIRE(warnings.size() == 1u);
  BOOST_TEST(warnings[0].find("a window of 100 source lines sent to en-cs does not look like the model's source "
                              "language (train.en): ") == 0u, warnings[0]);
  for (int request = 0; request < 10; ++request) BOOST_TEST(watch.add(english, data::kLanguageWarningRatio).empty());
  serve::LanguageWatch silent(profile, "en-cs");
  for (int request = 0; request < 10; ++request) BOOST_TEST(silent.add(german, 0.0).empty());
  const data::SourceProfile none;
  serve::LanguageWatch unchecked(none, "en-cs");
  for (int request = 0; request < 10; ++request) BOOST_TEST(unchecked.add(german, 1.0).empty());
}

BOOST_AUTO_TEST_CASE(metrics_count_the_warnings_per_pair) {
  serve::Metrics metrics;
  metrics.language_warning("en-cs");
  metrics.language_warning("en-cs");
  const std::string text = metrics.text(0, 0, 0, true);
  BOOST_TEST(text.find("nmt_serve_language_warnings_total{pair=\"en-cs\"} 2\n") != std::string::npos, text);
}

BOOST_AUTO_TEST_SUITE_END()
