#include "align/extract.h"

#include <algorithm>
#include <numeric>

#include "data/alignment.h"
#include "data/batch.h"
#include "search/batch_schedule.h"
#include "text/bpe_undo.h"
#include "text/word_counter.h"
#include "util/error.h"
#include "util/number_format.h"
#include "util/option_range.h"

namespace rnnsearch::align {

namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string_view> views;
  text::split_space_words(line, views);
  return std::vector<std::string>(views.begin(), views.end());
}

std::string soft_rows(const math::Matrix& weights, const std::vector<int>& source_words,
                      const std::vector<int>& target_words, const WordAlignmentRules& rules) {
  const math::Matrix words = words_only(unit_attention(weights, source_words, target_words, rules.step), rules.eos);
  std::string text;
  for (Eigen::Index t = 0; t < words.rows(); ++t) {
    if (t) text += ' ';
    for (Eigen::Index s = 0; s < words.cols(); ++s) {
      text += (s ? "," : "") + util::general(static_cast<double>(words(t, s)), 4);
    }
  }
  return text;
}

// The label of every word: its pieces (words[k] being the word of pieces[k]) joined as
// text::undo_bpe joins them.
std::vector<std::string> word_labels(const std::vector<std::string>& pieces, const std::vector<int>& words) {
  std::vector<std::string> labels(words.empty() ? 0 : static_cast<std::size_t>(words.back()) + 1);
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    std::string& label = labels[static_cast<std::size_t>(words[k])];
    if (k > 0 && words[k - 1] == words[k]) label += ' ';
    label += pieces[k];
  }
  for (std::string& label : labels) label = text::undo_bpe(label);
  return labels;
}

}  // namespace

std::vector<std::string> extract_alignments(model::Replicas& models, const data::Vocabulary& source_vocabulary,
                                            const data::Vocabulary& target_vocabulary,
                                            const std::vector<std::string>& sources,
                                            const std::vector<std::string>& targets, const ExtractOptions& options,
                                            data::UnknownTokens* unknown) {
  if (sources.size() != targets.size()) {
    throw util::Error("extract_alignments: " + std::to_string(sources.size()) + " sources and " +
                      std::to_string(targets.size()) + " targets");
  }
  std::vector<std::vector<std::string>> source_pieces, target_pieces;
  data::ParallelCorpus corpus;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    source_pieces.push_back(split(sources[i]));
    target_pieces.push_back(split(targets[i]));
    std::vector<std::int32_t> s, t;
    for (const auto& piece : source_pieces.back()) s.push_back(source_vocabulary.id_or_unk(piece));
    for (const auto& piece : target_pieces.back()) t.push_back(target_vocabulary.id_or_unk(piece));
    if (unknown) {
      unknown->add(data::UnknownTokens::kSource, s);
      unknown->add(data::UnknownTokens::kTarget, t);
    }
    if (t.empty()) s.clear();  // a pair with an empty side gives an empty line
    corpus.source.push_back(std::move(s));
    corpus.target.push_back(std::move(t));
  }
  std::vector<std::string> out(sources.size());
  // The batches are the same whatever the thread count (search/batch_schedule.h).
  const std::size_t threads = std::min(models.size(), static_cast<std::size_t>(options.threads));
  search::for_each_batch_longest_first(corpus.source, options.batch_size, threads,
                                       [&](int thread, const std::vector<std::size_t>& indices) {
    const auto attention =
        models[static_cast<std::size_t>(thread)].forced_attention(data::make_batch(corpus, indices), options.weights);
    for (std::size_t k = 0; k < indices.size(); ++k) {
      const std::size_t i = indices[k];
      const auto source_words = data::word_of_piece(source_pieces[i]);
      const auto target_words = data::word_of_piece(target_pieces[i]);
      const math::Matrix& weights = attention[k];  // [(pieces + 1) x (pieces + 1)]
      if (options.soft) {
        out[i] = soft_rows(weights, source_words, target_words, options.rules);
        continue;
      }
      const data::Alignment links = attention_links(weights, source_words, target_words, options.rules);
      out[i] = options.invert ? data::format_pharaoh(data::inverted(links)) : data::format_pharaoh(links);
    }
  });
  return out;
}

std::vector<HeatmapPair> attention_heatmaps(model::RnnSearch& model, const data::Vocabulary& source_vocabulary,
                                            const data::Vocabulary& target_vocabulary,
                                            const std::vector<std::string>& sources,
                                            const std::vector<std::string>& targets,
                                            const std::vector<std::size_t>& line_numbers,
                                            model::AttentionSource weights, MergeTo merge_to,
                                            data::UnknownTokens* unknown) {
  std::vector<HeatmapPair> pairs;
  for (std::size_t k = 0; k < sources.size(); ++k) {
    HeatmapPair pair;
    pair.title = "line " + std::to_string(line_numbers[k]);
    pair.source = split(sources[k]);
    pair.target = split(targets[k]);
    data::ParallelCorpus corpus;
    corpus.source.emplace_back();
    corpus.target.emplace_back();
    for (const auto& piece : pair.source) corpus.source[0].push_back(source_vocabulary.id_or_unk(piece));
    for (const auto& piece : pair.target) corpus.target[0].push_back(target_vocabulary.id_or_unk(piece));
    if (unknown) {
      unknown->add(data::UnknownTokens::kSource, corpus.source[0]);
      unknown->add(data::UnknownTokens::kTarget, corpus.target[0]);
    }
    if (pair.source.empty() || pair.target.empty()) {
      throw util::Error("line " + std::to_string(line_numbers[k]) + " has an empty side: nothing to draw");
    }
    pair.weights = model.forced_attention(data::make_batch(corpus, {0}), weights)[0];
    pair.source.push_back("</s>");
    pair.target.push_back("</s>");
    pairs.push_back(merge_to == MergeTo::kWords ? heatmap_of_words(pair) : std::move(pair));
  }
  return pairs;
}

HeatmapPair heatmap_of_words(const HeatmapPair& pieces) {
  if (pieces.source.empty() || pieces.target.empty()) {
    throw util::Error("heatmap '" + pieces.title + "': no </s> label to merge the pieces before");
  }
  const std::vector<std::string> source_pieces(pieces.source.begin(), pieces.source.end() - 1);
  const std::vector<std::string> target_pieces(pieces.target.begin(), pieces.target.end() - 1);
  const auto source_words = data::word_of_piece(source_pieces);
  auto target_units = data::word_of_piece(target_pieces);
  HeatmapPair words;
  words.title = pieces.title;
  words.source = word_labels(source_pieces, source_words);
  words.target = word_labels(target_pieces, target_units);
  target_units.push_back(static_cast<int>(words.target.size()));  // the </s> row
  words.source.push_back(pieces.source.back());
  words.target.push_back(pieces.target.back());
  words.weights = unit_attention(pieces.weights, source_words, target_units, AttentionStep::kEmit);
  return words;
}

void check_line_lengths(const std::vector<std::string>& lines, const std::string& path, std::size_t first_line,
                        std::size_t max_pieces) {
  for (std::size_t k = 0; k < lines.size(); ++k) {
    std::size_t pieces = 0;
    bool in_piece = false;
    for (const char c : lines[k]) {  // counts as text::split_space_words splits
      if (c == ' ') {
        in_piece = false;
      } else if (!in_piece) {
        in_piece = true;
        ++pieces;
      }
    }
    if (pieces > max_pieces) {
      throw util::Error(path, first_line + k, std::to_string(pieces) + " pieces, more than nmt-align reads (" +
                                                  std::to_string(max_pieces) + "); split the line");
    }
  }
}

AlignmentMode parse_alignment_mode(const std::string& name) {
  if (name == "hard") return AlignmentMode::kHard;
  if (name == "threshold") return AlignmentMode::kThreshold;
  if (name == "soft") return AlignmentMode::kSoft;
  throw util::UsageError("--mode must be hard, threshold or soft, got '" + name + "'");
}

void ExtractOptions::set_mode(AlignmentMode mode) {
  soft = mode == AlignmentMode::kSoft;
  rules.hard = mode == AlignmentMode::kHard;
}

void ExtractOptions::validate() const {
  util::check_range("threshold", rules.threshold, 0.0f, 1.0f);
  util::check_range("mini-batch", batch_size, 1, 1000);
  util::check_range("threads", threads, 1, 1024);
}

}  // namespace rnnsearch::align
