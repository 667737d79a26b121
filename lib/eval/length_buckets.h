#pragma once
// Scores by source-sentence length, as in Bahdanau et al. 2015, figure 2: the test set is
// cut into buckets of source length in words (space-separated tokens of the source line),
// [0, w), [w, 2w), ... up to an open last bucket [max, inf), and every system is scored on
// each bucket with any corpus metric (BLEU here) from its per-sentence statistics. Summing
// a bucket's statistics and scoring the sum is exactly how the metric scores a corpus, so
// the buckets pooled give the whole set's score.
#include <string>
#include <vector>

#include "eval/metric.h"

namespace rnnsearch::eval {

struct LengthBucketOptions {
  int width = 10;  // words per bucket
  int max = 50;    // the last bucket holds every sentence this long or longer

  // Throws util::UsageError naming --bucket-width or --max-length for a width outside
  // [1, 1000], a max outside [1, 10000] or a max that is not a multiple of the width.
  void validate() const;
};

struct LengthBucket {
  int low = 0;
  int high = 0;  // exclusive; -1 for the open last bucket
  std::string label;                 // "0-10" (0 to 9 words), "50+"
  std::vector<std::size_t> segments;  // line indices (0-based) of the sentences in it
};

// Buckets of the source lines' lengths in words; every bucket up to the open one exists,
// empty or not.
std::vector<LengthBucket> length_buckets(const std::vector<std::string>& sources, const LengthBucketOptions& options);

struct LengthScores {
  std::vector<LengthBucket> buckets;
  std::vector<std::string> systems;       // names
  std::vector<std::vector<Score>> scores;  // [system][bucket]; score -1 for an empty bucket
  std::vector<Score> overall;             // [system]: all buckets pooled
};

// Scores each system's hypotheses (one line per source line) on each bucket.
LengthScores score_by_length(const Metric& metric, const std::vector<std::string>& sources,
                             const std::vector<std::string>& system_names,
                             const std::vector<std::vector<std::string>>& hypotheses,
                             const LengthBucketOptions& options, int threads = 1);

// score_by_length a block of segments at a time, for inputs read as a stream
// (eval/eval_stream.h): only the buckets' segment lists and per-bucket sums of each
// system's statistics are kept, added in segment order, so the scores equal
// score_by_length's to the bit.
class LengthScoreBuilder {
 public:
  // Throws util::UsageError as LengthBucketOptions::validate does.
  LengthScoreBuilder(std::vector<std::string> system_names, std::size_t width, const LengthBucketOptions& options);

  // The next sources in order; stats[s] holds system s's rows of the same segments.
  void add(const std::vector<std::string>& sources, const std::vector<StatsMatrix>& stats);
  std::size_t segments() const { return segments_; }
  // Scores every bucket and the whole set with `metric` (any instance of the metric:
  // only score_from_stats is used).
  LengthScores finish(const Metric& metric) const;

 private:
  LengthBucketOptions options_;
  std::size_t width_;
  std::vector<LengthBucket> buckets_;
  std::vector<std::string> systems_;
  std::vector<std::vector<std::vector<double>>> bucket_sums_;  // [system][bucket][column]
  std::vector<std::vector<double>> overall_sums_;               // [system][column]
  std::size_t segments_ = 0;
};

// The scores as an aligned text table: a row per bucket (label, sentences, a column per
// system, "-" for empty buckets) and a last row "all"; `decimals` digits after the point.
std::string format_length_table(const LengthScores& scores, const std::string& metric_name, int decimals);

}  // namespace rnnsearch::eval
