#include "demo/generated_corpus.h"

#include <filesystem>
#include <unordered_set>

#include "util/atomic_file.h"
#include "util/distinct_outputs.h"
#include "util/error.h"
#include "util/option_range.h"

namespace rnnsearch::demo {

void GeneratedCorpusOptions::validate() const {
  if (output_dir.empty()) throw util::UsageError("--output-dir is required");
  for (const auto& [option, size] : {std::pair{"train", train}, {"valid", valid}, {"test", test}}) {
    util::check_range(option, size, 0L, kMaxSplitPairs);
  }
  if (source_language.empty() || target_language.empty() || source_language == target_language) {
    throw util::UsageError("--source-language and --target-language must be two different non-empty codes, got '" +
                           source_language + "' and '" + target_language + "'");
  }
  // A language code may still name the file of the gold links ("align").
  const std::string stem = output_dir + "/train.";
  util::check_distinct_outputs({{"--source-language", stem + source_language},
                                {"--target-language", stem + target_language},
                                {"the gold alignments", stem + "align"}});
}

std::vector<Split> generate_corpus(const GeneratedCorpusOptions& config) {
  util::Rng rng(config.seed);
  std::unordered_set<std::string> held_out;
  // Held-out sentences must be new; the grammar has far more sentences than any split,
  // so a run of failures means a bug, not bad luck.
  auto draw_held_out = [&](long count) {
    std::vector<SentencePair> pairs;
    long failures = 0;
    while (static_cast<long>(pairs.size()) < count) {
      SentencePair pair = generate_pair(rng);
      if (held_out.insert(tokenized_text(pair.source)).second) {
        pairs.push_back(std::move(pair));
        failures = 0;
      } else if (++failures > 100000) {
        throw util::Error("the demo grammar produced no new sentence in 100000 draws");
      }
    }
    return pairs;
  };
  Split test{"test", draw_held_out(config.test)};
  Split valid{"valid", draw_held_out(config.valid)};
  Split train{"train", {}};
  while (static_cast<long>(train.pairs.size()) < config.train) {
    SentencePair pair = generate_pair(rng);
    if (held_out.count(tokenized_text(pair.source)) == 0) train.pairs.push_back(std::move(pair));
  }
  std::vector<Split> splits;
  for (Split* split : {&train, &valid, &test}) {
    if (!split->pairs.empty()) splits.push_back(std::move(*split));
  }
  return splits;
}

std::vector<std::string> write_corpus(const std::vector<Split>& splits, const GeneratedCorpusOptions& config,
                                      const std::string& directory) {
  std::filesystem::create_directories(directory);
  std::vector<std::string> paths;
  auto sentence = [&](const std::vector<std::string>& tokens) {
    return config.tokenized ? tokenized_text(tokens) : raw_text(tokens);
  };
  for (const Split& split : splits) {
    const std::string stem = directory + "/" + split.name + ".";
    util::AtomicFileWriter source(stem + config.source_language);
    util::AtomicFileWriter target(stem + config.target_language);
    util::AtomicFileWriter links(stem + "align");
    for (const SentencePair& pair : split.pairs) {
      source.write_line(sentence(pair.source));
      target.write_line(sentence(pair.target));
      links.write_line(data::format_pharaoh(pair.links));
    }
    util::commit_together({&source, &target, &links});
    for (const util::AtomicFileWriter* file : {&source, &target, &links}) paths.push_back(file->path());
  }
  return paths;
}

GeneratedCorpus write_generated_corpus(const GeneratedCorpusOptions& config) {
  config.validate();
  GeneratedCorpus corpus;
  corpus.splits = generate_corpus(config);
  corpus.paths = write_corpus(corpus.splits, config, config.output_dir);
  return corpus;
}

}  // namespace rnnsearch::demo
