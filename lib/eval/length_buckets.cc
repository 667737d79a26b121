#include "eval/length_buckets.h"

#include <algorithm>

#include "util/error.h"
#include "util/number_format.h"
#include "util/option_range.h"

namespace rnnsearch::eval {
namespace {

int words(const std::string& line) {
  int count = 0;
  bool in_word = false;
  for (const char c : line) {
    const bool space = c == ' ' || c == '\t';
    if (!space && !in_word) ++count;
    in_word = !space;
  }
  return count;
}

}  // namespace

void LengthBucketOptions::validate() const {
  util::check_range("bucket-width", width, 1, 1000);
  util::check_range("max-length", max, 1, 10000);
  if (max < width || max % width != 0) {
    throw util::UsageError("--max-length must be a positive multiple of --bucket-width (" + std::to_string(width) +
                           "), got " + std::to_string(max));
  }
}

namespace {

// Every bucket up to the open one, without segments.
std::vector<LengthBucket> empty_buckets(const LengthBucketOptions& options) {
  options.validate();
  std::vector<LengthBucket> buckets;
  for (int low = 0; low <= options.max; low += options.width) {
    LengthBucket bucket;
    bucket.low = low;
    bucket.high = low == options.max ? -1 : low + options.width;
    bucket.label = bucket.high < 0 ? std::to_string(low) + "+" : std::to_string(low) + "-" + std::to_string(bucket.high);
    buckets.push_back(bucket);
  }
  return buckets;
}

std::size_t bucket_of(const std::string& source, const LengthBucketOptions& options) {
  return static_cast<std::size_t>(std::min(words(source), options.max) / options.width);
}

}  // namespace

std::vector<LengthBucket> length_buckets(const std::vector<std::string>& sources, const LengthBucketOptions& options) {
  std::vector<LengthBucket> buckets = empty_buckets(options);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const int length = std::min(words(sources[i]), options.max);
    buckets[static_cast<std::size_t>(length / options.width)].segments.push_back(i);
  }
  return buckets;
}

LengthScores score_by_length(const Metric& metric, const std::vector<std::string>& sources,
                             const std::vector<std::string>& system_names,
                             const std::vector<std::vector<std::string>>& hypotheses,
                             const LengthBucketOptions& options, int threads) {
  if (metric.num_segments() != sources.size()) {
    throw util::Error("the source has " + std::to_string(sources.size()) + " lines, the reference " +
                      std::to_string(metric.num_segments()));
  }
  LengthScores out;
  out.buckets = length_buckets(sources, options);
  out.systems = system_names;
  for (const auto& system : hypotheses) {
    const StatsMatrix stats = metric.segment_stats(system, threads);
    std::vector<Score> row;
    for (const auto& bucket : out.buckets) {
      std::vector<double> sum(stats.width, 0.0);
      for (const std::size_t i : bucket.segments) {
        for (std::size_t k = 0; k < stats.width; ++k) sum[k] += stats.row(i)[k];
      }
      Score score = bucket.segments.empty() ? Score{} : metric.score_from_stats(sum.data());
      if (bucket.segments.empty()) score.score = -1.0;
      row.push_back(score);
    }
    out.scores.push_back(row);
    out.overall.push_back(metric.score_from_stats(stats.column_sums().data()));
  }
  return out;
}

LengthScoreBuilder::LengthScoreBuilder(std::vector<std::string> system_names, std::size_t width,
                                       const LengthBucketOptions& options)
    : options_(options), width_(width), buckets_(empty_buckets(options)), systems_(std::move(system_names)) {
  bucket_sums_.assign(systems_.size(), std::vector<std::vector<double>>(buckets_.size(), std::vector<double>(width_, 0.0)));
  overall_sums_.assign(systems_.size(), std::vector<double>(width_, 0.0));
}

void LengthScoreBuilder::add(const std::vector<std::string>& sources, const std::vector<StatsMatrix>& stats) {
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const std::size_t b = bucket_of(sources[i], options_);
    buckets_[b].segments.push_back(segments_ + i);
    for (std::size_t s = 0; s < systems_.size(); ++s) {
      const double* row = stats[s].row(i);
      for (std::size_t k = 0; k < width_; ++k) {
        bucket_sums_[s][b][k] += row[k];
        overall_sums_[s][k] += row[k];
      }
    }
  }
  segments_ += sources.size();
}

LengthScores LengthScoreBuilder::finish(const Metric& metric) const {
  LengthScores out;
  out.buckets = buckets_;
  out.systems = systems_;
  for (std::size_t s = 0; s < systems_.size(); ++s) {
    std::vector<Score> row;
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
      Score score = buckets_[b].segments.empty() ? Score{} : metric.score_from_stats(bucket_sums_[s][b].data());
      if (buckets_[b].segments.empty()) score.score = -1.0;
      row.push_back(score);
    }
    out.scores.push_back(row);
    out.overall.push_back(metric.score_from_stats(overall_sums_[s].data()));
  }
  return out;
}

std::string format_length_table(const LengthScores& scores, const std::string& metric_name, int decimals) {
  // Columns: the bucket, its sentence count, then one per system, right-aligned.
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"source words", "sentences"};
  for (const auto& name : scores.systems) header.push_back(name);
  rows.push_back(header);
  std::size_t total = 0;
  for (std::size_t b = 0; b < scores.buckets.size(); ++b) {
    std::vector<std::string> row = {scores.buckets[b].label, std::to_string(scores.buckets[b].segments.size())};
    total += scores.buckets[b].segments.size();
    for (const auto& system : scores.scores) row.push_back(system[b].score < 0 ? "-" : util::fixed(system[b].score, decimals));
    rows.push_back(row);
  }
  std::vector<std::string> all = {"all", std::to_string(total)};
  for (const auto& score : scores.overall) all.push_back(util::fixed(score.score, decimals));
  rows.push_back(all);

  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string text = metric_name + " by source length\n";
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string pad(widths[c] - row[c].size(), ' ');
      line += c == 0 ? row[c] + pad : "  " + pad + row[c];
    }
    text += line + "\n";
  }
  return text;
}

}  // namespace rnnsearch::eval
