#include "search/score_input.h"

#include "search/nbest_list.h"
#include "util/error.h"

namespace rnnsearch::search {

PairReader::PairReader(const ScoreOptions& options) : feature_name_(options.feature_name) {
  if (!options.n_best.empty()) {
    nbest_ = std::make_unique<util::LineReader>(options.n_best);
    source_ = std::make_unique<util::LineReader>(options.source);
  } else if (!options.target.empty()) {
    source_ = std::make_unique<util::LineReader>(options.source);
    target_ = std::make_unique<util::LineReader>(options.target);
  } else {
    input_ = std::make_unique<util::LineReader>(options.input);
  }
}

bool PairReader::ready() const {
  if (nbest_) return nbest_->ready();
  if (input_) return input_->ready();
  return source_->ready() && target_->ready();
}

bool PairReader::next(RawPair& pair) {
  if (nbest_) return next_nbest(pair);
  if (target_) {
    if (!util::next_in_step(*source_, pair.source, *target_, pair.target)) return false;
    pair.source_file = source_->name();
    pair.target_file = target_->name();
    pair.source_line = pair.target_line = source_->line_number();
    return true;
  }
  if (!input_->next(line_)) return false;
  const auto tab = line_.find('\t');
  if (tab == std::string::npos || line_.find('\t', tab + 1) != std::string::npos) {
    throw util::Error(input_->name(), input_->line_number(),
                      std::string("expected 'source<TAB>target', found ") +
                          (tab == std::string::npos ? "no tab" : "more than one tab"));
  }
  pair.source = line_.substr(0, tab);
  pair.target = line_.substr(tab + 1);
  pair.source_file = pair.target_file = input_->name();
  pair.source_line = pair.target_line = input_->line_number();
  return true;
}

// The entry's translation with line N + 1 of the source file (the entries' numbers never
// decrease, so the source file is read once).
bool PairReader::next_nbest(RawPair& pair) {
  if (!nbest_->next(pair.nbest_line)) return false;
  const NbestEntry entry = parse_nbest_line(pair.nbest_line, nbest_->name(), nbest_->line_number());
  const std::size_t wanted = entry.id + 1;
  if (wanted < source_->line_number()) {
    throw util::Error(nbest_->name(), nbest_->line_number(),
                      "sentence " + std::to_string(entry.id) + " after a later one; an n-best list is in sentence order");
  }
  while (source_->line_number() < wanted) {
    if (!source_->next(line_)) {
      throw util::Error(nbest_->name(), nbest_->line_number(),
                        "sentence " + std::to_string(entry.id) + ", but " + source_->name() + " has " +
                            std::to_string(source_->line_number()) + " lines");
    }
  }
  for (const auto& feature : parse_features(entry.features, nbest_->name(), nbest_->line_number())) {
    if (feature.name == feature_name_) {
      throw util::Error(nbest_->name(), nbest_->line_number(),
                        "has a feature " + feature_name_ + "= already; choose another --feature-name");
    }
  }
  pair.source = line_;
  pair.target = std::string(entry.translation);
  pair.features_end = entry.features_end;
  pair.source_file = source_->name();
  pair.source_line = wanted;
  pair.target_file = nbest_->name();
  pair.target_line = nbest_->line_number();
  return true;
}

}  // namespace rnnsearch::search
