// nmt-train: trains an RNNsearch model on line-aligned, tokenized and BPE'd text.
#include <vector>

#include "data/parallel_corpus.h"
#include "math/product_precision.h"
#include "model/model_options.h"
#include "nn/attention.h"
#include "tools/support/gemm_choice.h"
#include "tools/support/group_tool.h"
#include "tools/support/tool_entry.h"
#include "train/resumed_options.h"
#include "train/stop_signals.h"
#include "train/train_arguments.h"
#include "train/trainer.h"
#include "util/allocator.h"
#include "util/number_format.h"
#include "util/option_range.h"

namespace po = boost::program_options;

namespace {

using Arguments = rnnsearch::train::TrainArguments;

po::options_description file_options(Arguments& a) {
  po::options_description files("Files");
  files.add_options()
      ("train-sets,t", po::value(&a.train_sets)->multitoken(), "training source and target files (required)")
      ("valid-sets", po::value(&a.valid_sets)->multitoken(), "validation source and target files")
      ("vocabs,v", po::value(&a.vocabs)->multitoken(), "source and target vocabularies (nmt-vocab files); built from the training data when absent")
      ("model,m", po::value(&a.options.model_path)->default_value(a.options.model_path), "model file; the checkpoint is MODEL.ckpt, the best model MODEL.best")
      ("resume", po::bool_switch(&a.options.resume), "continue from MODEL.ckpt")
      ("overwrite", po::bool_switch(&a.options.overwrite), "start afresh even when MODEL or MODEL.ckpt exists")
      ("pretrained-model", po::value(&a.options.pretrained_model),
       "start from this model file's parameters and vocabularies (its architecture; the model options are "
       "ignored) with a new optimizer and counters: fine-tuning (--resume, when given, wins)")
      ("valid-translation-output", po::value(&a.options.valid_translation_output), "write the greedy translations of each validation (BPE undone) here, and the best one's to FILE.best");
  return files;
}

po::options_description data_options(Arguments& a) {
  po::options_description data("Data");
  data.add_options()
      ("src-vocab-size", rnnsearch::util::unsigned_value(&a.options.source_vocabulary_size, "src-vocab-size")->default_value(a.options.source_vocabulary_size), "keep the most frequent source tokens (specials included; 0 = all)")
      ("tgt-vocab-size", rnnsearch::util::unsigned_value(&a.options.target_vocabulary_size, "tgt-vocab-size")->default_value(a.options.target_vocabulary_size), "keep the most frequent target tokens (specials included; 0 = all)")
      ("allow-unk", po::bool_switch(&a.options.allow_unknown), "map tokens missing from --vocabs to <unk> instead of failing")
      ("max-length", rnnsearch::util::unsigned_value(&a.options.max_length, "max-length", std::size_t{1}, rnnsearch::data::kMaxSentenceTokens)->default_value(a.options.max_length), "longest sentence in tokens, per side (at most 1000)")
      ("long-pairs", rnnsearch::util::enum_value(&a.options.long_pairs, rnnsearch::data::long_pairs_name, rnnsearch::data::parse_long_pairs), "pairs over --max-length: skip, error, truncate")
      ("mini-batch", po::value(&a.options.batching.sentences)->default_value(a.options.batching.sentences), "sentences per batch")
      ("mini-batch-words", po::value(&a.options.batching.target_tokens)->default_value(a.options.batching.target_tokens), "target tokens per batch, padding included (overrides --mini-batch when > 0)")
      ("sort-window", po::value(&a.options.batching.sort_window)->default_value(a.options.batching.sort_window), "batches per window sorted by length (1 = no sorting)")
      ("no-shuffle", po::bool_switch(&a.no_shuffle), "keep the corpus order");
  return data;
}

po::options_description model_options(Arguments& a) {
  po::options_description model("Model");
  model.add_options()
      ("dim-emb", po::value(&a.options.model.embedding)->default_value(a.options.model.embedding), "word embedding size")
      ("dim-enc", po::value(&a.options.model.encoder_hidden)->default_value(a.options.model.encoder_hidden), "encoder GRU size per direction")
      ("dim-dec", po::value(&a.options.model.decoder_hidden)->default_value(a.options.model.decoder_hidden), "decoder GRU size")
      ("dim-att", po::value(&a.options.model.attention)->default_value(a.options.model.attention), "attention hidden layer size (additive)")
      ("alignment-head", po::value(&a.options.model.alignment_head)->default_value(a.options.model.alignment_head),
       "train only an alignment head of this hidden size over the frozen --pretrained-model: a second attention "
       "that also reads the emitted word, learned from --guided-alignment links, read by nmt-align (0 = none)")
      ("attention", rnnsearch::util::enum_value(&a.options.model.attention_form, rnnsearch::nn::attention_form_name, rnnsearch::model::parse_attention_form), "attention form: additive (Bahdanau), general or dot (Luong), none (RNNencdec: one fixed context, no alignment)")
      ("dim-maxout", po::value(&a.options.model.maxout)->default_value(a.options.model.maxout), "deep output size after maxout")
      ("tied-embeddings", po::bool_switch(&a.options.model.tied_embeddings), "output layer shares the target embeddings (needs --dim-maxout = --dim-emb)")
      ("layer-normalization", po::bool_switch(&a.options.model.layer_norm), "layer normalisation inside every GRU (Nematus, Marian --layer-normalization)")
      ("enc-cell-depth", po::value(&a.options.model.encoder_depth)->default_value(a.options.model.encoder_depth), "GRU transitions per source position in each encoder direction (deep transition)")
      ("dec-cell-depth", po::value(&a.options.model.decoder_depth)->default_value(a.options.model.decoder_depth), "decoder GRU transitions per step: 1 = the paper's decoder, 2 or more = the conditional GRU (attention reads a state that has seen the previous word)")
      ("init", rnnsearch::util::enum_value(&a.options.init, rnnsearch::train::initialization_name, rnnsearch::train::parse_initialization), "initialization: xavier, paper")
      ("seed", rnnsearch::util::unsigned_value(&a.options.seed, "seed")->default_value(a.options.seed), "random seed (initialization, shuffling, dropout)");
  return model;
}

po::options_description training_options(Arguments& a) {
  po::options_description training("Training");
  training.add_options()
      ("optimizer", rnnsearch::util::enum_value(&a.options.optimizer, rnnsearch::train::optimizer_name, rnnsearch::train::parse_optimizer), "adam, adadelta")
      ("learning-rate,l", rnnsearch::util::defaulted(&a.options.learning_rate), "0 = the optimizer's default (adam 0.001, adadelta 1)")
      ("warmup", po::value(&a.options.warmup)->default_value(a.options.warmup), "updates of linear learning-rate warm-up")
      ("lr-decay", rnnsearch::util::defaulted(&a.options.decay_factor), "learning-rate factor after --lr-decay-patience stalled validations")
      ("lr-decay-patience", po::value(&a.options.decay_patience)->default_value(a.options.decay_patience), "stalled validations before a decay (0 = never)")
      ("clip-norm", rnnsearch::util::defaulted(&a.options.clip_norm), "gradient norm clipping (0 = none)")
      ("precision", rnnsearch::util::enum_value(&a.options.precision, rnnsearch::math::precision_name, rnnsearch::math::parse_training_precision), "matrix products: fp32, or bf16 (bf16 inputs, fp32 sums and parameters; CPUs with AVX512_BF16)")
      ("dropout", rnnsearch::util::defaulted(&a.options.dropout), "dropout on embeddings and the deep output")
      ("label-smoothing", rnnsearch::util::defaulted(&a.options.label_smoothing), "label smoothing epsilon")
      ("guided-alignment", po::value(&a.options.guided_alignment), "word alignments of the training pairs (Pharaoh i-j, source first, over the words before BPE, one line per pair): a cost pulls the attention toward them")
      ("guided-alignment-weight", rnnsearch::util::defaulted(&a.options.guided_alignment_weight), "weight of the guided-alignment cross-entropy, per target token like the translation cost (> 0)")
      ("max-epochs,e", po::value(&a.options.max_epochs)->default_value(a.options.max_epochs), "stop after this many epochs (0 = no limit)")
      ("max-updates", po::value(&a.options.max_updates)->default_value(a.options.max_updates), "stop after this many updates (0 = no limit)")
      ("max-minutes", rnnsearch::util::defaulted(&a.options.max_minutes), "stop after this much training time (0 = no limit)")
      ("valid-freq", po::value(&a.options.valid_freq)->default_value(a.options.valid_freq), "updates between validations")
      ("save-freq", po::value(&a.options.save_freq)->default_value(a.options.save_freq), "updates between checkpoints")
      ("log-freq", po::value(&a.options.log_freq)->default_value(a.options.log_freq), "updates between log lines (stderr not a terminal)")
      ("early-stopping-metric", rnnsearch::util::enum_value(&a.options.early_stopping_metric, rnnsearch::train::early_stopping_metric_name, rnnsearch::train::parse_early_stopping_metric), "bleu, cross-entropy, perplexity")
      ("early-stopping", po::value(&a.options.patience)->default_value(a.options.patience), "stop after this many validations without improvement (0 = never)")
      ("final-model", rnnsearch::util::enum_value(&a.options.final_model, rnnsearch::train::final_model_name, rnnsearch::train::parse_final_model), "what MODEL holds at the end: best (validated), last")
      ("exponential-smoothing", po::value(&a.options.exponential_smoothing)->default_value(a.options.exponential_smoothing, "0")->implicit_value(1e-4f, "1e-4"),
       "keep a smoothed copy s of the parameters w, s = (1-d) s + d w after update t with d = max(DECAY, 9/(t+10)) as Marian, "
       "validate with it and write it to MODEL (0 = none; 1e-4 when given without a value)")
      ("keep-checkpoints", po::value(&a.options.keep_checkpoints)->default_value(a.options.keep_checkpoints),
       "keep the models of the last N saves (every --save-freq updates and at the end) as MODEL.updateU, for nmt-average (0 = none)");
  return training;
}

int run(int argc, char** argv, const rnnsearch::train::ProcessGroup& group) {
  Arguments arguments;
  po::options_description options("Options");
  options.add(file_options(arguments)).add(data_options(arguments)).add(model_options(arguments));
  options.add(training_options(arguments));
  rnnsearch::util::add_common_options(options, arguments.common);
  const rnnsearch::util::ToolInfo tool{
      "nmt-train",
      "Usage: nmt-train -t SRC TGT [--valid-sets SRC TGT] [-v SRC_VOCAB TGT_VOCAB] [-m MODEL] [options]\n"
      "Trains an RNNsearch model (Bahdanau et al. 2015) on line-aligned tokenized, BPE'd text. Writes\n"
      "MODEL (for nmt-decode), MODEL.ckpt (for --resume) and MODEL.best; SIGHUP, SIGINT or SIGTERM\n"
      "saves both and stops (exit 128 + the signal: 129, 130, 143). Under `mpirun -np N` (builds with\n"
      "MPI) N processes share every batch. MODEL stores the options: nmt-train --dump-config -m MODEL\n"
      "prints them.\n",
      rnnsearch::train::ProcessGroup::mpi_available() ? " (with MPI: mpirun -np N trains on N processes)"
                                                      : " (without MPI: trains in one process)",
      rnnsearch::train::stored_options_to_dump, rnnsearch::train::fixed_options_of_checkpoint};
  if (rnnsearch::tools::parse_command_line(tool, std::vector<std::string>(argv + 1, argv + argc), options,
                                           arguments.common)) {
    return rnnsearch::util::kExitOk;
  }
  const rnnsearch::train::TrainOptions cfg = arguments.to_options();
  rnnsearch::train::stop_training_on_signals();
  rnnsearch::util::keep_freed_memory_for_reuse();
  const auto outcome = rnnsearch::train::run_training(cfg, group);
  // As Marian does, and as a shell reports a process the signal killed: a script tells
  // "stopped, continue with --resume" (128 + N) from bad input (1).
  return outcome.interrupted ? 128 + outcome.signal : rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  rnnsearch::tools::select_gemm_kernels(argv);
  return rnnsearch::tools::run_tool_in_group(
      "nmt-train", [&](const rnnsearch::train::ProcessGroup& group) { return run(argc, argv, group); });
}
