#pragma once
// The model file: a fixed header, then a Boost.Serialization binary archive.
//   header: magic "RNNSRCH\n", format version, file kind, sizeof(float), the bits of
//           1.0f (byte order), payload size and a 64-bit hash of the payload
//   payload: config, source and target vocabularies, parameters (name, shape, values),
//            the training options (a string), then, in a checkpoint, the trainer's
//            state (written by the caller)
// Reading refuses, with a message naming the file: another kind of file, a newer format
// version, another float layout, a truncated file (size) and a corrupt one (hash).
// Format versions: 1 (no attention form in the config: read as additive attention);
// 2 adds ModelOptions::attention_form (the config's class version 1); 3 adds
// ModelOptions::alignment_head (class version 2) and, with it, the head's parameters;
// 4 adds the training options after the parameters (nmt-train's effective options as
// --dump-config prints them; "" when read from an older file); 5 adds layer normalisation
// and the cell depths to the config (class version 3) and, with them, their parameters;
// 6 adds the source profile after the training options (data/source_profile.h: the
// training source's name and cross-entropy, then the 1-, 2- and 3-gram tables, keys and
// counts; empty tables for none; an older file reads as no profile).
// Writing goes through util::AtomicFileWriter: the old file stays until the new one is whole.
// Reading checks every size in the payload before allocating (model/checked_archive.h).
#include <boost/archive/binary_oarchive.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "data/source_profile.h"
#include "data/vocabulary.h"
#include "model/checked_archive.h"
#include "model/rnnsearch.h"

namespace rnnsearch::model {

constexpr std::uint32_t kModelFormatVersion = 6;

enum class FileKind : std::uint32_t { kModel = 1, kCheckpoint = 2 };

struct LoadedModel {
  std::unique_ptr<RnnSearch> model;
  data::Vocabulary source_vocabulary, target_vocabulary;
  std::string training_options;  // config lines (util/config_file.h); "" before format version 4
  data::SourceProfile source_profile;  // of the training source; empty before format version 6
};

using ExtraWriter = std::function<void(boost::archive::binary_oarchive&)>;
using ExtraReader = std::function<void(CheckedBinaryIArchive&)>;

// The header's checksum of the payload: FNV-1a over 8-byte words, then the remaining bytes.
std::uint64_t payload_hash(std::string_view data);

// `training_options`: the options that trained the model, as nmt-train --dump-config
// prints them (stored as they are; "" for none); `source_profile`: nmt-train's of the
// training source (empty for none).
void write_model_file(const std::string& path, FileKind kind, const RnnSearch& model,
                      const data::Vocabulary& source_vocabulary, const data::Vocabulary& target_vocabulary,
                      const std::string& training_options = {}, const data::SourceProfile& source_profile = {},
                      const ExtraWriter& extra = {});

// Reads a file of `kind` (a model file is also read from a checkpoint's model part).
LoadedModel read_model_file(const std::string& path, FileKind kind = FileKind::kModel,
                            const ExtraReader& extra = {});

// Throws util::Error naming `path` when `model` has no attention (--attention none):
// "PATH: trained with --attention none, the model has no attention weights for NEED".
void require_attention(const RnnSearch& model, const std::string& path, const std::string& need);

// The weights a tool reads for NEED, from --attention-source NAME: "auto" (the alignment
// head when the model has one, else the decoder's attention), "decoder" or "head". Throws
// util::UsageError for another name, and util::Error naming `path` when the model lacks
// the weights asked for ("PATH: has no alignment head (nmt-train --alignment-head) for
// NEED", or require_attention's message).
AttentionSource choose_attention_source(const std::string& name, const RnnSearch& model, const std::string& path,
                                        const std::string& need);

// Throws util::UsageError unless `name` is auto, decoder or head.
void check_attention_source_name(const std::string& name);

}  // namespace rnnsearch::model
