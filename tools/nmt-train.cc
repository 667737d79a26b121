// nmt-train: trains an RNNsearch model on line-aligned, tokenized and BPE'd text.
#include <csignal>
#include <memory>
#include <vector>

#include "math/gemm_kernels.h"
#include "model/model_options.h"
#include "train/process_group.h"
#include "train/trainer.h"
#include "util/allocator.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/option_range.h"

namespace po = boost::program_options;
using rnnsearch::util::UsageError;

namespace {

// The handlers run_tool set (util/cli.h): remove unfinished temporary files, die by the signal.
struct sigaction previous_int, previous_term;

// The first signal asks for a save and a stop; a second one ends the process at once,
// through the handler that was there before.
void on_signal(int signal) {
  rnnsearch::train::request_stop(signal);
  sigaction(signal, signal == SIGINT ? &previous_int : &previous_term, nullptr);
}

void install_signal_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous_int);
  sigaction(SIGTERM, &action, &previous_term);
  for (struct sigaction* previous : {&previous_int, &previous_term}) {
    if (previous->sa_handler == SIG_IGN) previous->sa_handler = SIG_DFL;  // a second signal still ends it
  }
}

void take_pair(const std::vector<std::string>& values, const char* option, std::string& first, std::string& second) {
  if (values.empty()) return;
  if (values.size() != 2) {
    throw UsageError(std::string("--") + option + " takes two files (source and target), got " +
                     std::to_string(values.size()));
  }
  first = values[0];
  second = values[1];
}

int run(int argc, char** argv, const rnnsearch::train::ProcessGroup& group) {
  rnnsearch::train::TrainOptions cfg;
  rnnsearch::util::CommonOptions common;
  std::vector<std::string> train_sets, valid_sets, vocabs;
  bool no_shuffle = false;
  std::string attention = rnnsearch::nn::attention_form_name(cfg.model.attention_form);
  po::options_description files("Files");
  files.add_options()
      ("train-sets,t", po::value(&train_sets)->multitoken(), "training source and target files (required)")
      ("valid-sets", po::value(&valid_sets)->multitoken(), "validation source and target files")
      ("vocabs,v", po::value(&vocabs)->multitoken(), "source and target vocabularies (nmt-vocab files); built from the training data when absent")
      ("model,m", po::value(&cfg.model_path)->default_value(cfg.model_path), "model file; the checkpoint is MODEL.ckpt, the best model MODEL.best")
      ("resume", po::bool_switch(&cfg.resume), "continue from MODEL.ckpt")
      ("overwrite", po::bool_switch(&cfg.overwrite), "start afresh even when MODEL or MODEL.ckpt exists")
      ("pretrained-model", po::value(&cfg.pretrained_model),
       "start from this model file's parameters and vocabularies (its architecture; the model options are "
       "ignored) with a new optimizer and counters: fine-tuning (--resume, when given, wins)")
      ("valid-translation-output", po::value(&cfg.valid_translation_output), "write the greedy translations of each validation (BPE undone) here, and the best one's to FILE.best");
  po::options_description data("Data");
  data.add_options()
      ("src-vocab-size", rnnsearch::util::unsigned_value(&cfg.source_vocabulary_size, "src-vocab-size")->default_value(cfg.source_vocabulary_size), "keep the most frequent source tokens (specials included; 0 = all)")
      ("tgt-vocab-size", rnnsearch::util::unsigned_value(&cfg.target_vocabulary_size, "tgt-vocab-size")->default_value(cfg.target_vocabulary_size), "keep the most frequent target tokens (specials included; 0 = all)")
      ("allow-unk", po::bool_switch(&cfg.allow_unknown), "map tokens missing from --vocabs to <unk> instead of failing")
      ("max-length", rnnsearch::util::unsigned_value(&cfg.max_length, "max-length", std::size_t{1}, rnnsearch::data::kMaxSentenceTokens)->default_value(cfg.max_length), "longest sentence in tokens, per side (at most 1000)")
      ("long-pairs", po::value(&cfg.long_pairs)->default_value(cfg.long_pairs), "pairs over --max-length: skip, error, truncate")
      ("mini-batch", po::value(&cfg.batching.sentences)->default_value(cfg.batching.sentences), "sentences per batch")
      ("mini-batch-words", po::value(&cfg.batching.target_tokens)->default_value(cfg.batching.target_tokens), "target tokens per batch, padding included (overrides --mini-batch when > 0)")
      ("sort-window", po::value(&cfg.batching.sort_window)->default_value(cfg.batching.sort_window), "batches per window sorted by length (1 = no sorting)")
      ("no-shuffle", po::bool_switch(&no_shuffle), "keep the corpus order");
  po::options_description model("Model");
  model.add_options()
      ("dim-emb", po::value(&cfg.model.embedding)->default_value(cfg.model.embedding), "word embedding size")
      ("dim-enc", po::value(&cfg.model.encoder_hidden)->default_value(cfg.model.encoder_hidden), "encoder GRU size per direction")
      ("dim-dec", po::value(&cfg.model.decoder_hidden)->default_value(cfg.model.decoder_hidden), "decoder GRU size")
      ("dim-att", po::value(&cfg.model.attention)->default_value(cfg.model.attention), "attention hidden layer size (additive)")
      ("alignment-head", po::value(&cfg.model.alignment_head)->default_value(cfg.model.alignment_head),
       "train only an alignment head of this hidden size over the frozen --pretrained-model: a second attention "
       "that also reads the emitted word, learned from --guided-alignment links, read by nmt-align (0 = none)")
      ("attention", po::value(&attention)->default_value(attention), "attention form: additive (Bahdanau), general or dot (Luong), none (RNNencdec: one fixed context, no alignment)")
      ("dim-maxout", po::value(&cfg.model.maxout)->default_value(cfg.model.maxout), "deep output size after maxout")
      ("tied-embeddings", po::bool_switch(&cfg.model.tied_embeddings), "output layer shares the target embeddings (needs --dim-maxout = --dim-emb)")
      ("init", po::value(&cfg.init)->default_value(cfg.init), "initialization: xavier, paper")
      ("seed", rnnsearch::util::unsigned_value(&cfg.seed, "seed")->default_value(cfg.seed), "random seed (initialization, shuffling, dropout)");
  po::options_description training("Training");
  training.add_options()
      ("optimizer", po::value(&cfg.optimizer)->default_value(cfg.optimizer), "adam, adadelta")
      ("learning-rate,l", po::value(&cfg.learning_rate)->default_value(cfg.learning_rate, rnnsearch::util::shortest_number(cfg.learning_rate)), "0 = the optimizer's default (adam 0.001, adadelta 1)")
      ("warmup", po::value(&cfg.warmup)->default_value(cfg.warmup), "updates of linear learning-rate warm-up")
      ("lr-decay", po::value(&cfg.decay_factor)->default_value(cfg.decay_factor, rnnsearch::util::shortest_number(cfg.decay_factor)), "learning-rate factor after --lr-decay-patience stalled validations")
      ("lr-decay-patience", po::value(&cfg.decay_patience)->default_value(cfg.decay_patience), "stalled validations before a decay (0 = never)")
      ("clip-norm", po::value(&cfg.clip_norm)->default_value(cfg.clip_norm, rnnsearch::util::shortest_number(cfg.clip_norm)), "gradient norm clipping (0 = none)")
      ("dropout", po::value(&cfg.dropout)->default_value(cfg.dropout, rnnsearch::util::shortest_number(cfg.dropout)), "dropout on embeddings and the deep output")
      ("label-smoothing", po::value(&cfg.label_smoothing)->default_value(cfg.label_smoothing, rnnsearch::util::shortest_number(cfg.label_smoothing)), "label smoothing epsilon")
      ("guided-alignment", po::value(&cfg.guided_alignment), "word alignments of the training pairs (Pharaoh i-j, source first, over the words before BPE, one line per pair): a cost pulls the attention toward them")
      ("guided-alignment-weight", po::value(&cfg.guided_alignment_weight)->default_value(cfg.guided_alignment_weight, rnnsearch::util::shortest_number(cfg.guided_alignment_weight)), "weight of the guided-alignment cross-entropy, per target token like the translation cost (> 0)")
      ("max-epochs,e", po::value(&cfg.max_epochs)->default_value(cfg.max_epochs), "stop after this many epochs (0 = no limit)")
      ("max-updates", po::value(&cfg.max_updates)->default_value(cfg.max_updates), "stop after this many updates (0 = no limit)")
      ("max-minutes", po::value(&cfg.max_minutes)->default_value(cfg.max_minutes, rnnsearch::util::shortest_number(cfg.max_minutes)), "stop after this much training time (0 = no limit)")
      ("valid-freq", po::value(&cfg.valid_freq)->default_value(cfg.valid_freq), "updates between validations")
      ("save-freq", po::value(&cfg.save_freq)->default_value(cfg.save_freq), "updates between checkpoints")
      ("log-freq", po::value(&cfg.log_freq)->default_value(cfg.log_freq), "updates between log lines (stderr not a terminal)")
      ("early-stopping-metric", po::value(&cfg.early_stopping_metric)->default_value(cfg.early_stopping_metric), "bleu, cross-entropy, perplexity")
      ("early-stopping", po::value(&cfg.patience)->default_value(cfg.patience), "stop after this many validations without improvement (0 = never)")
      ("final-model", po::value(&cfg.final_model)->default_value(cfg.final_model), "what MODEL holds at the end: best (validated), last");
  po::options_description options("Options");
  options.add(files).add(data).add(model).add(training);
  rnnsearch::util::add_common_options(options, common);
  const rnnsearch::util::ToolInfo tool{
      "nmt-train",
      "Usage: nmt-train -t SRC TGT [--valid-sets SRC TGT] [-v SRC_VOCAB TGT_VOCAB] [-m MODEL] [options]\n"
      "Trains an RNNsearch model (Bahdanau et al. 2015) on line-aligned tokenized, BPE'd text. Writes\n"
      "MODEL (for nmt-decode), MODEL.ckpt (for --resume) and MODEL.best; SIGINT or SIGTERM saves both\n"
      "and stops (exit 128 + the signal: 130, 143). Under `mpirun -np N` (builds with MPI) N processes\n"
      "share every batch.\n",
      rnnsearch::train::ProcessGroup::mpi_available() ? " (with MPI: mpirun -np N trains on N processes)"
                                                      : " (without MPI: trains in one process)"};
  if (rnnsearch::util::parse_command_line(tool, std::vector<std::string>(argv + 1, argv + argc), options, common)) {
    return rnnsearch::util::kExitOk;
  }
  if (train_sets.empty()) throw UsageError("--train-sets SRC TGT is required");
  take_pair(train_sets, "train-sets", cfg.train_source, cfg.train_target);
  take_pair(valid_sets, "valid-sets", cfg.valid_source, cfg.valid_target);
  take_pair(vocabs, "vocabs", cfg.source_vocabulary, cfg.target_vocabulary);
  cfg.model.attention_form = rnnsearch::model::parse_attention_form(attention);
  cfg.batching.shuffle = !no_shuffle;
  cfg.threads = common.resolved_threads();
  cfg.quiet = common.quiet;
  cfg.validate();
  install_signal_handlers();
  rnnsearch::util::keep_freed_memory_for_reuse();
  const auto outcome = rnnsearch::train::run_training(cfg, group);
  // As Marian does, and as a shell reports a process the signal killed: a script tells
  // "stopped, continue with --resume" (128 + N) from bad input (1).
  return outcome.interrupted ? 128 + outcome.signal : rnnsearch::util::kExitOk;
}

}  // namespace

// Under mpirun, rank 0 reports what every process meets alike (usage errors: they parse
// the same command line; GroupFailure); the others stay silent about it. A failure one
// process meets alone (a write error, a failed collective) ends the whole job, because
// the others may be waiting for this process in an all-reduce.
int main(int argc, char** argv) {
  namespace train = rnnsearch::train;
  using rnnsearch::util::run_tool;
  rnnsearch::math::select_gemm_kernels(argv);
  std::unique_ptr<train::ProcessGroup> group;
  const int refused = run_tool("nmt-train", [&] {
    group = train::ProcessGroup::join_launched();
    return rnnsearch::util::kExitOk;
  });
  if (!group) return refused;
  const bool root = group->is_root();
  bool alone_failed = false;
  const int code = run_tool(root ? "nmt-train" : "nmt-train: rank " + std::to_string(group->rank()), [&]() -> int {
    try {
      return run(argc, argv, *group);
    } catch (const train::GroupFailure&) {
      if (root) throw;
      return rnnsearch::util::kExitFailure;
    } catch (const UsageError&) {
      if (root) throw;
      return rnnsearch::util::kExitUsage;
    } catch (const po::error&) {
      if (root) throw;
      return rnnsearch::util::kExitUsage;
    } catch (...) {
      alone_failed = true;
      throw;
    }
  });
  if (alone_failed) group->abort(code);
  return code;
}
