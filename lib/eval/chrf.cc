#include "eval/chrf.h"

#include <algorithm>
#include <cstdint>

#include "eval/reference_lines.h"
#include "eval/segment_vocabulary.h"
#include "text/unicode.h"
#include "text/whitespace.h"
#include "util/error.h"
#include "util/utf8.h"

namespace rnnsearch::eval {
namespace {

// Python's string.punctuation, the only marks chrF++ splits off words.
bool is_ascii_punct(unsigned char c) {
  return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
         (c >= 0x7B && c <= 0x7E);
}

// The code points of `text`, without whitespace unless `keep_space` (sacreBLEU joins
// str.split()).
void append_chars(std::string_view text, bool keep_space, std::vector<std::uint32_t>& out) {
  const std::size_t start = out.size();
  out.resize(start + text.size());  // at most one code point per byte
  std::uint32_t* put = out.data() + start;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      *put = c;
      put += keep_space || !text::is_ascii_space(c) ? 1 : 0;
      ++i;
      continue;
    }
    const char32_t cp = util::next_code_point(text, i);
    *put = cp;
    put += keep_space || !text::is_space(cp) ? 1 : 0;
  }
  out.resize(static_cast<std::size_t>(put - out.data()));
}

// Calls emit(token) for sacreBLEU's chrF++ words of `text`: str.split() words, a word
// longer than one character losing its last character to a token of its own when that
// is ASCII punctuation, or else its first one.
template <typename Emit>
void for_each_word(std::string_view text, Emit&& emit) {
  const std::size_t n = text.size();
  std::size_t i = 0;
  for (;;) {
    std::size_t skip = 0;
    while (i < n && (skip = text::white_space_length(text, i)) > 0) i += skip;
    if (i == n) return;
    const std::size_t begin = i;
    while (i < n && text::white_space_length(text, i) == 0) {
      i += util::sequence_length(static_cast<unsigned char>(text[i]));
    }
    const std::string_view word = text.substr(begin, i - begin);
    const auto first = static_cast<unsigned char>(word.front());
    if (word.size() == util::sequence_length(first)) {
      emit(word);
    } else if (is_ascii_punct(static_cast<unsigned char>(word.back()))) {
      emit(word.substr(0, word.size() - 1));
      emit(word.substr(word.size() - 1));
    } else if (is_ascii_punct(first)) {
      emit(word.substr(0, 1));
      emit(word.substr(1));
    } else {
      emit(word);
    }
  }
}

void check_utf8(const std::string& line, const std::string& what, std::size_t index) {
  const std::size_t bad = util::find_invalid_utf8(line);
  if (bad != std::string_view::npos) {
    throw util::Error("chrF: " + what + " " + std::to_string(index + 1) + ": invalid UTF-8 at byte " +
                      std::to_string(bad + 1));
  }
}

}  // namespace

struct Chrf::Scratch {
  std::string lowered;
  std::vector<std::uint32_t> chars;
  std::vector<std::uint32_t> words;
  std::vector<SymbolSpan> char_refs;
  std::vector<SymbolSpan> word_refs;
  std::vector<NgramMatch> char_matches;
  std::vector<NgramMatch> word_matches;
  std::vector<double> candidate;
  NgramMatcher matcher;
  SegmentVocabulary token_ids;
};

Chrf::Chrf(const ReferenceSet& references, ChrfOptions options) : options_(options) {
  if (options_.char_order < 0 || options_.word_order < 0) {
    throw util::Error("chrF: character and word orders must be >= 0, got " +
                      std::to_string(options_.char_order) + " and " +
                      std::to_string(options_.word_order));
  }
  orders_ = options_.char_order + options_.word_order;
  if (orders_ == 0) {
    throw util::Error("chrF: the character and word orders are both 0; nothing to compare");
  }
  const SegmentReferences collected = collect_segment_references(references);
  num_refs_ = collected.num_refs;
  const std::size_t segments = collected.per_segment.size();

  // Characters never outnumber bytes: one allocation instead of repeated growth.
  std::size_t bytes = 0;
  for (const auto& stream : references) {
    for (const std::string& line : stream) bytes += line.size();
  }
  ref_chars_.reserve(bytes);
  if (options_.word_order > 0) {
    ref_text_.reserve(bytes);
    ref_words_.reserve(bytes / 4);
  }
  segment_begin_.reserve(segments + 1);
  segment_begin_.push_back(0);
  std::string lowered;
  for (std::size_t i = 0; i < segments; ++i) {
    for (const std::string* line : collected.per_segment[i]) {
      check_utf8(*line, "reference line", i);
      const std::string* text = line;
      if (options_.lowercase) {
        lowered = text::lowercase(*line);
        text = &lowered;
      }
      CachedRef ref{};
      ref.chars_begin = ref_chars_.size();
      append_chars(*text, options_.whitespace, ref_chars_);
      ref.chars_end = ref_chars_.size();
      ref.words_begin = ref_words_.size();
      ref.text_begin = ref_text_.size();
      if (options_.word_order > 0) {
        if (text->size() > UINT32_MAX) {
          throw util::Error("chrF: reference line " + std::to_string(i + 1) +
                            " is longer than 4 GiB");
        }
        ref_text_ += *text;
        for_each_word(*text, [&](std::string_view w) {
          // Field by field: a braced temporary costs a store-forwarding stall here.
          CachedWord& word = ref_words_.emplace_back();
          word.hash = SegmentVocabulary::hash(w);
          word.offset = static_cast<std::uint32_t>(w.data() - text->data());
          word.length = static_cast<std::uint32_t>(w.size());
        });
      }
      ref.words_end = ref_words_.size();
      refs_.push_back(ref);
    }
    segment_begin_.push_back(refs_.size());
  }
}

void Chrf::segment_row(std::size_t segment, const std::string& hypothesis, Scratch& s,
                       double* row) const {
  std::string_view text = hypothesis;
  if (options_.lowercase) {
    s.lowered = text::lowercase(hypothesis);
    text = s.lowered;
  }
  s.chars.clear();
  append_chars(text, options_.whitespace, s.chars);

  const std::size_t first = segment_begin_[segment];
  const std::size_t count = segment_begin_[segment + 1] - first;
  s.char_refs.clear();
  for (std::size_t r = first; r < first + count; ++r) {
    const CachedRef& ref = refs_[r];
    s.char_refs.push_back({ref_chars_.data() + ref.chars_begin, ref.chars_end - ref.chars_begin});
  }
  s.matcher.match({s.chars.data(), s.chars.size()}, s.char_refs, options_.char_order, s.char_matches);

  if (options_.word_order > 0) {
    // Words become segment-local ids: the hypothesis's, then each reference's.
    s.token_ids.clear();
    s.words.clear();
    for_each_word(text, [&](std::string_view w) {
      s.words.push_back(s.token_ids.id(w, SegmentVocabulary::hash(w)));
    });
    const std::size_t hyp_words = s.words.size();
    for (std::size_t r = first; r < first + count; ++r) {
      for (std::size_t k = refs_[r].words_begin; k < refs_[r].words_end; ++k) {
        const CachedWord& w = ref_words_[k];
        const char* data = ref_text_.data() + refs_[r].text_begin + w.offset;
        s.words.push_back(s.token_ids.id(std::string_view(data, w.length), w.hash));
      }
    }
    s.word_refs.clear();
    std::size_t at = hyp_words;
    for (std::size_t r = first; r < first + count; ++r) {
      const std::size_t n = refs_[r].words_end - refs_[r].words_begin;
      s.word_refs.push_back({s.words.data() + at, n});
      at += n;
    }
    s.matcher.match({s.words.data(), hyp_words}, s.word_refs, options_.word_order, s.word_matches);
  }

  // sacreBLEU's triple per order: the hypothesis count is 0 when the reference has no
  // n-gram of that order.
  const auto fill = [&](std::size_t r, double* out) {
    const auto put = [&](const NgramMatch& m, double* at) {
      at[0] = m.ref > 0 ? static_cast<double>(m.hyp) : 0.0;
      at[1] = static_cast<double>(m.ref);
      at[2] = static_cast<double>(m.match);
    };
    const auto nc = static_cast<std::size_t>(options_.char_order);
    const auto nw = static_cast<std::size_t>(options_.word_order);
    for (std::size_t n = 0; n < nc; ++n) put(s.char_matches[r * nc + n], out + 3 * n);
    for (std::size_t n = 0; n < nw; ++n) put(s.word_matches[r * nw + n], out + 3 * (nc + n));
  };
  if (count == 1) {
    fill(0, row);
    return;
  }
  // The first reference with the strictly best sentence score.
  double best = -1.0;
  s.candidate.resize(width());
  for (std::size_t r = 0; r < count; ++r) {
    fill(r, s.candidate.data());
    const double f = f_score(s.candidate.data());
    if (f > best) {
      best = f;
      std::copy(s.candidate.begin(), s.candidate.end(), row);
    }
  }
}

void Chrf::compute_rows(const std::vector<std::string>& hypotheses, std::size_t begin, std::size_t end,
                        StatsMatrix& stats) const {
  Scratch scratch;
  for (std::size_t i = begin; i < end; ++i) {
    check_utf8(hypotheses[i], "hypothesis line", i);
    segment_row(i, hypotheses[i], scratch, stats.row(i));
  }
}

// Python float arithmetic, operation for operation: no fused multiply-add (which GCC
// would emit with -march=native), so scores match sacreBLEU to the last bit.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

double Chrf::f_score(const double* stats) const {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  const double eps = 1e-16;
  const double factor = static_cast<double>(options_.beta) * options_.beta;
  double score = 0.0;
  double avg_prec = 0.0;
  double avg_rec = 0.0;
  int effective_order = 0;
  for (int i = 0; i < orders_; ++i) {
    const double n_hyp = stats[3 * i];
    const double n_ref = stats[3 * i + 1];
    const double n_match = stats[3 * i + 2];
    const double prec = n_hyp > 0 ? n_match / n_hyp : eps;
    const double rec = n_ref > 0 ? n_match / n_ref : eps;
    const double denom = factor * prec + rec;
    score += denom > 0 ? (1 + factor) * prec * rec / denom : eps;
    if (n_hyp > 0 && n_ref > 0) {
      avg_prec += prec;
      avg_rec += rec;
      ++effective_order;
    }
  }
  if (options_.eps_smoothing) return 100 * score / orders_;
  if (effective_order == 0) {
    avg_prec = 0.0;
    avg_rec = 0.0;
  } else {
    avg_prec /= effective_order;
    avg_rec /= effective_order;
  }
  if (avg_prec + avg_rec == 0) return 0.0;
  score = (1 + factor) * avg_prec * avg_rec;
  score /= (factor * avg_prec) + avg_rec;
  return 100 * score;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

Score Chrf::score_from_stats(const double* stats) const {
  Score score;
  score.name = "chrF" + std::to_string(options_.beta) +
               std::string(static_cast<std::size_t>(options_.word_order), '+');
  score.score = f_score(stats);
  return score;
}

SignatureFields Chrf::signature_fields() const {
  return {
      {"case", options_.lowercase ? "lc" : "mixed"},
      {"eff", options_.eps_smoothing ? "no" : "yes"},
      {"nc", std::to_string(options_.char_order)},
      {"nw", std::to_string(options_.word_order)},
      {"space", options_.whitespace ? "yes" : "no"},
  };
}

std::vector<std::pair<std::string, std::string>> Chrf::short_names() const {
  return {{"case", "c"}, {"eff", "e"}, {"nc", "nc"}, {"nw", "nw"}, {"space", "s"}};
}

}  // namespace rnnsearch::eval
