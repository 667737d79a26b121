// nmt-serve: translations, scores and alignments over HTTP and WebSocket (nmt-serve(1)).
#include <iostream>
#include <vector>

#include "serve/server_run.h"
#include "tools/support/gemm_choice.h"
#include "tools/support/tool_entry.h"
#include "util/allocator.h"
#include "util/option_range.h"

namespace po = boost::program_options;
using rnnsearch::util::defaulted;

namespace {

void add_pair_options(po::options_description& options, rnnsearch::serve::PairConfig& pair,
                      std::vector<std::string>& pairs) {
  options.add_options()
      ("model,m", po::value(&pair.models)->multitoken(), "model file(s) of nmt-train; several form an ensemble")
      ("codes,c", po::value(&pair.codes), "the BPE codes the model was trained with (nmt-bpe learn)")
      ("source-language,s", po::value(&pair.source_language), "the source language's code, as nmt-tokenize -l")
      ("target-language,t", po::value(&pair.target_language), "the target language's code, as nmt-detokenize -l")
      ("shortlist", po::value(&pair.shortlist), "an nmt-shortlist file restricting each sentence's output")
      ("weights", po::value(&pair.weights)->multitoken(), "one weight per model of the ensemble (default equal)")
      ("hmm-params", po::value(&pair.hmm_params), "nmt-align hmm --save-params's file, for /v1/align's method hmm")
      ("pair", po::value(&pairs),
       "another pair: SRC,TGT,MODEL[+MODEL...],CODES[,SHORTLIST[,HMM_PARAMS]] (repeatable)");
}

void add_decoding_options(po::options_description& options, rnnsearch::serve::ServeOptions& cfg) {
  auto& search = cfg.translate;
  options.add_options()
      ("beam-size,b", defaulted(&search.beam.beam_size), "beam size of requests that give none (1 = greedy)")
      ("max-beam-size", defaulted(&cfg.max_beam_size), "the largest beam_size a request may ask for")
      ("n-best", defaulted(&search.n_best), "hypotheses per sentence of requests that give none (0 = the best only)")
      ("max-n-best", defaulted(&cfg.max_n_best), "the largest n_best (and LibreTranslate alternatives + 1)")
      ("length-penalty", defaulted(&search.beam.length_penalty), "alpha: hypotheses ranked by log p / length^alpha")
      ("max-length-ratio", defaulted(&search.beam.max_length_ratio),
       "at most ratio * source length + 10 tokens (a request may ask for less)")
      ("max-length", defaulted(&search.max_length), "longer sources are truncated (0 = translated whole)")
      ("language-warning", defaulted(&search.language_warning),
       "RATIO in [0, 100] (0 = never): log a warning for each window of 100 source lines sent to a pair that "
       "does not look like its source language, as nmt-decode's --language-warning")
      ("precision", rnnsearch::util::enum_value(&search.precision, rnnsearch::math::precision_name,
                                                rnnsearch::math::parse_precision),
       "the weight products: fp32, int8, bf16 or auto, as nmt-decode's");
}

void add_server_options(po::options_description& options, rnnsearch::serve::ServeOptions& cfg, std::string& wait_ms) {
  options.add_options()
      ("host", defaulted(&cfg.host), "the address to listen on (127.0.0.1: this machine only)")
      ("port,p", defaulted(&cfg.port), "the port (0: one the system chooses, printed once listening)")
      ("mini-batch", defaulted(&cfg.queue.max_batch), "sentences per batch, pooled across requests")
      ("max-batch-tokens", defaulted(&cfg.queue.max_batch_tokens), "source pieces per batch")
      ("batch-wait-ms", po::value(&wait_ms)->default_value("auto"),
       "how long a batch that is not full waits for more sentences (auto: 2 with one worker, 0 with more)")
      ("queue-size", defaulted(&cfg.queue.capacity), "sentences waiting at most; a request past it gets 503")
      ("queue-seconds", defaulted(&cfg.queue_seconds), "a sentence queued longer is answered 503")
      ("max-lines", defaulted(&cfg.max_lines), "lines (or pairs) per request")
      ("max-line-chars", defaulted(&cfg.max_line_chars), "characters per line")
      ("max-body-bytes", defaulted(&cfg.http.max_body_bytes), "a larger request body is answered 413")
      ("max-header-bytes", defaulted(&cfg.http.max_header_bytes), "larger request headers are answered 431")
      ("max-connections", defaulted(&cfg.http.max_connections), "open connections at most; one more gets 503")
      ("header-seconds", defaulted(&cfg.http.header_seconds), "time to send a request's headers (else 408)")
      ("read-seconds", defaulted(&cfg.http.body_seconds), "time to send a request's body (else 408)")
      ("idle-seconds", defaulted(&cfg.http.idle_seconds), "an idle keep-alive connection is closed after this")
      ("api-keys", po::value(&cfg.api_keys), "a file of API keys, one a line: requests must give one")
      ("drain-seconds", defaulted(&cfg.drain_seconds), "after SIGTERM, time to answer the requests in flight");
}

int run(int argc, char** argv) {
  rnnsearch::serve::ServeOptions cfg;
  cfg.translate.max_length = 0;  // a line translated whole, as rnnsearch-translate does
  rnnsearch::serve::PairConfig first;
  std::vector<std::string> pairs;
  std::string wait_ms;
  rnnsearch::util::CommonOptions common;
  po::options_description options("Options");
  add_pair_options(options, first, pairs);
  add_decoding_options(options, cfg);
  add_server_options(options, cfg, wait_ms);
  rnnsearch::util::add_common_options(options, common);
  const rnnsearch::util::ToolInfo tool{
      "nmt-serve",
      "Usage: nmt-serve -m MODEL -c CODES -s SRC -t TGT [--port 8080] [options]\n"
      "Serves translations over HTTP and WebSocket: LibreTranslate's /translate, OpenNMT-py's\n"
      "/translator/translate, Marian's WebSocket /translate and the native /v1/translate, /v1/score\n"
      "and /v1/align; a reply has the bytes the command-line tools print. --threads N: N workers, each\n"
      "with its copy of the models. SIGTERM stops accepting and exits once the requests in flight are\n"
      "answered (0; 1 when --drain-seconds cut some off); SIGHUP reloads the models.\n",
      ""};
  if (rnnsearch::tools::parse_command_line(tool, std::vector<std::string>(argv + 1, argv + argc), options, common)) {
    return rnnsearch::util::kExitOk;
  }
  if (!first.models.empty() || !first.source_language.empty()) cfg.pairs.push_back(first);
  for (const auto& pair : pairs) cfg.pairs.push_back(rnnsearch::serve::parse_pair(pair));
  cfg.queue.workers = common.resolved_threads();
  cfg.queue.max_wait_seconds = rnnsearch::serve::batch_wait_seconds(wait_ms, cfg.queue.workers);
  cfg.log_requests = !common.quiet;
  const auto messages = rnnsearch::tools::stderr_messages(common, "nmt-serve");
  return rnnsearch::serve::serve(cfg, messages, [](const std::string& url) {
    std::cerr << "nmt-serve: listening on " << url << std::endl;
  });
}

}  // namespace

int main(int argc, char** argv) {
  rnnsearch::tools::select_gemm_kernels(argv);
  rnnsearch::util::keep_freed_memory_for_reuse();
  return rnnsearch::tools::run_tool("nmt-serve", [&] { return run(argc, argv); });
}
