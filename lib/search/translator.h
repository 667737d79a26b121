#pragma once
// What nmt-decode does: source lines in (tokenized and BPE'd as the model was trained),
// one output line per input line out, in input order.
//   plain:        the best translation
//   --n-best K:   K lines per input, Moses format "N ||| translation ||| F0= logp ||| score"
//                 (--word-scores: "F0= logp WordScores= w1 .. wn eos", search/word_scores.h)
//   --alignment:  " ||| " then hard links "i-j" (source index first) or soft rows
//                 (one row of source weights per target token, weights joined by ','):
//                 the decoder's attention, or, when the (first) model has an alignment
//                 head (nmt-train --alignment-head), the head's weights for the chosen
//                 translation, force-decoded (--replace-unk reads them too)
// Lines are read in windows of mini_batch * maxi_batch, sorted by length, translated in
// mini-batches on `threads` model replicas, and written in input order. A window also
// ends when the input has nothing more ready (util::LineReader::ready), so a pipe that
// pauses after each line gets each translation at once, flushed.
#include <cstddef>
#include <string>
#include <vector>

#include "math/precision.h"
#include "data/language_check.h"
#include "data/unknown_tokens.h"
#include "model/model_file.h"
#include "search/beam_search.h"
#include "search/constraint_input.h"
#include "search/shortlist.h"
#include "util/messages.h"

namespace rnnsearch::search {

// Bounds of the options (nmt-decode(1)). The decoder holds beam_size * mini_batch rows
// of target-vocabulary scores at once, and a source line's encoding and attention grow
// with its length: these keep a mistyped value from asking for gigabytes. A source line
// of more than kMaxSourcePieces pieces is an error naming the file and line, whatever
// max_length says (its truncation warns only below that).
constexpr int kMaxBeamSize = 1000;
constexpr int kMaxMiniBatch = 1000;
constexpr int kMaxMaxiBatch = 1000;
constexpr double kMaxLengthRatio = 100.0;
constexpr double kMaxLengthPenalty = 10.0;
constexpr std::size_t kMaxSourcePieces = 10000;

// What --alignment appends to each translation after " ||| ".
enum class AlignmentOutput { kNone, kHard, kSoft };
// "hard" or "soft"; throws util::UsageError "--alignment must be hard or soft, got 'NAME'".
AlignmentOutput parse_alignment_output(const std::string& name);

struct TranslateOptions {
  BeamOptions beam;              // beam_size, length_penalty, max_length_ratio, batch_size (= --mini-batch);
                                 // its n_best and attention follow from the fields below
  int n_best = 0;                // K > 0: K Moses n-best lines per input instead of the best translation
  int maxi_batch = 10;           // mini-batches per window sorted by length
  AlignmentOutput alignment = AlignmentOutput::kNone;
  bool replace_unknown = false;  // <unk> in the output becomes the most attended source token
  bool alignment_head = true;    // the first model's alignment head, when it has one, gives the weights of both
  std::size_t max_length = 100;  // longer sources are truncated (with a note naming the line)
  // --unknown-warning: warn at the end of input when more than this share of the source
  // tokens are unknown to the (first) model (data/unknown_tokens.h); 1 = never.
  double unknown_warning = data::kUnknownWarningShare;
  // --language-warning: warn at the end of input when the source text's characters cost
  // more than this ratio of the (first) model's training source (data/language_check.h); 0 = never.
  double language_warning = data::kLanguageWarningRatio;
  int threads = 1;
  // The decoder's weight products (model::RnnSearch::set_inference_precision): fp32, or
  // int8 / bf16 for speed at a small cost in accuracy. bf16 needs avx512_bf16.
  math::Precision precision = math::Precision::kFp32;
  bool progress = false;         // a count of sentences on stderr when it is a terminal (util::ProgressMeter)
  // With n_best: " WordScores= " and the scores per word of search/word_scores.h after F0.
  bool word_scores = false;
  // What a line holds beside its source (search/constraint_input.h), and --prefix: a file
  // of one target prefix per input line (empty: none).
  ConstraintInput constraint_input;
  std::string prefix_file;
  // --constraints-if-missing: a line is first searched without its positive phrases, and
  // that translation kept when it (every n-best entry) holds them already; only the other
  // lines are searched with them.
  bool constraints_if_missing = false;

  // Throws util::UsageError "--beam-size must be in [1, 1000], got 0", for every option
  // above (unknown_warning in [0, 1]; language_warning in [0, 100]; n_best at most beam_size; word_scores needs n_best), and "--precision bf16: this
  // CPU has no bf16 instructions (avx512_bf16)". The ensemble weights (beam.weights) are
  // checked against the models by the search.
  void validate() const;
};

// nmt-decode's whole command: the model files and the text files around the search.
struct DecodeOptions {
  std::vector<std::string> model_paths;    // several form an ensemble (the same target vocabulary)
  std::string input = "-", output = "-";  // "-" = stdin, stdout
  // The weights of --alignment and --replace-unk: "auto", "decoder" or "head"
  // (model::choose_attention_source); sets translate.alignment_head.
  std::string attention_source = "auto";
  // --shortlist: a file of nmt-shortlist; each sentence produces only the target pieces it
  // allows (search/shortlist.h). Empty: the whole target vocabulary.
  std::string shortlist;
  TranslateOptions translate;

  // Throws util::UsageError "--model MODEL is required", translate's, --weights (one per
  // model, search/ensemble.h), and for another attention source (model::check_attention_source_name).
  void validate() const;
};

// Reads `input` ("-" = stdin) and writes to `output` ("-" = stdout, else atomically).
// Several models form an ensemble (search/beam_search.h); each reads the source words
// through its own source vocabulary, and all must have the same target vocabulary
// (util::Error otherwise). `messages` receives a note per truncated source line as it is
// read, and at the end of input (after the last output line) one warning each: when more
// than config.unknown_warning of the source tokens are unknown to the first model; when the
// source text does not look like the first model's source language (config.language_warning,
// data/language_check.h; a model without a source profile is not checked); how many
// source lines were longer than max_length (truncated); how many best translations
// reached the length limit (max_length_ratio) without </s>. Returns the number of lines.
// Validates `config` first. With `shortlist` (over the models' target vocabulary), each
// sentence produces only the pieces its source pieces allow.
std::size_t translate_stream(std::vector<model::LoadedModel>& models, const TranslateOptions& config,
                             const std::string& input, const std::string& output, const util::Messages& messages,
                             const Shortlist* shortlist = nullptr);

// What nmt-decode does: validates `options`, reads the models (util::Error naming a file
// whose target vocabulary differs from the first's, or a model without the attention
// weights that --alignment or --replace-unk need), and translates as translate_stream.
std::size_t translate_files(const DecodeOptions& options, const util::Messages& messages);

}  // namespace rnnsearch::search
