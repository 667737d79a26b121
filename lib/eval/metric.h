#pragma once
// The shape every corpus metric (BLEU, chrF, TER) shares, modelled on sacreBLEU:
// a metric turns each (hypothesis, references) segment into a fixed-width row of
// sufficient statistics; the corpus score is a function of the column sums. That
// split is what makes sentence-level scores and bootstrap resampling cheap.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace rnnsearch::eval {

// references[r][i] is reference r of segment i; every reference stream has as many
// segments as the hypotheses. Lines are already stripped of trailing whitespace.
using ReferenceSet = std::vector<std::vector<std::string>>;

// Row-major [segments x width] statistics; sums are exact for integer counts.
struct StatsMatrix {
  std::size_t width = 0;
  std::vector<double> values;  // [rows x width]

  std::size_t rows() const { return width == 0 ? 0 : values.size() / width; }
  const double* row(std::size_t i) const { return values.data() + i * width; }
  double* row(std::size_t i) { return values.data() + i * width; }
  std::vector<double> column_sums() const;
};

// A computed score, printed the way sacreBLEU's Score.format prints it.
struct Score {
  std::string name;     // "BLEU", "chrF2", "chrF2++", "TER"
  double score = 0.0;
  std::string verbose;  // BLEU: "59.9/34.0/21.8/14.4 (BP = ...)"; empty for others
  // Bootstrap confidence estimate: set only when mean > 0, as in sacreBLEU.
  double mean = -1.0;
  double ci = -1.0;
};

// Ordered key:value pairs of a metric's reproducibility signature, without the
// global items (nrefs, bs, seed, version) that the caller adds.
using SignatureFields = std::vector<std::pair<std::string, std::string>>;

class Metric {
 public:
  virtual ~Metric() = default;

  // Per-segment statistics of hypotheses against the references given to the
  // constructor, on `threads` threads over contiguous blocks of segments (the result
  // does not depend on the thread count). Throws util::Error unless there is one
  // hypothesis per reference segment.
  StatsMatrix segment_stats(const std::vector<std::string>& hypotheses, int threads = 1) const;

  // Statistics per segment, and the number of segments the references hold.
  virtual std::size_t width() const = 0;
  virtual std::size_t num_segments() const = 0;

  // The score from statistics summed over any subset of segments (one row gives the
  // sentence-level score). `stats` has width() values.
  virtual Score score_from_stats(const double* stats) const = 0;

  // Metric-specific signature fields in sacreBLEU's order, long names, e.g. for BLEU
  // {case:mixed, eff:no, tok:13a, smooth:exp}; abbreviations via short_names().
  virtual SignatureFields signature_fields() const = 0;
  // Abbreviation of each signature key for --short signatures (sacreBLEU _abbr).
  virtual std::vector<std::pair<std::string, std::string>> short_names() const = 0;

  // Number of references per segment, the number of reference streams (sacreBLEU's
  // "var" needs None references, which neither its command line nor ReferenceSet has).
  virtual int num_refs() const = 0;

  // True when a higher score is better (false for TER); used by significance tests.
  virtual bool higher_is_better() const { return true; }

 protected:
  // Fills rows [begin, end) of `out`, already sized [hypotheses.size() x width()].
  // Called concurrently for disjoint ranges, so it may only write those rows.
  virtual void compute_rows(const std::vector<std::string>& hypotheses, std::size_t begin, std::size_t end,
                            StatsMatrix& out) const = 0;
};

}  // namespace rnnsearch::eval
