#include "model/model_file.h"

#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cstring>
#include <fstream>
#include <sstream>

#include "util/atomic_file.h"
#include "util/error.h"

namespace rnnsearch::model {

namespace {

constexpr char kMagic[8] = {'R', 'N', 'N', 'S', 'R', 'C', 'H', '\n'};
constexpr int kArchiveFlags = boost::archive::no_header;

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t kind;
  std::uint32_t float_size;
  std::uint32_t one_bits;  // the bits of 1.0f as written: catches another byte order
  std::uint64_t payload_size;
  std::uint64_t payload_hash;
};

// FNV-1a over 8-byte words: stable across builds, fast enough for a 32 MB payload.
std::uint64_t payload_hash(const std::string& data) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  std::size_t i = 0;
  for (; i + 8 <= data.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, data.data() + i, 8);
    hash = (hash ^ word) * 0x100000001b3ull;
  }
  for (; i < data.size(); ++i) hash = (hash ^ static_cast<unsigned char>(data[i])) * 0x100000001b3ull;
  return hash;
}

std::uint32_t float_one_bits() {
  const float one = 1.0f;
  std::uint32_t bits;
  std::memcpy(&bits, &one, 4);
  return bits;
}

const char* kind_name(std::uint32_t kind) {
  return kind == static_cast<std::uint32_t>(FileKind::kModel) ? "model" : "checkpoint";
}

}  // namespace

void write_model_file(const std::string& path, FileKind kind, const RnnSearch& model,
                      const data::Vocabulary& source_vocabulary, const data::Vocabulary& target_vocabulary,
                      const ExtraWriter& extra) {
  std::ostringstream payload;
  {
    boost::archive::binary_oarchive archive(payload, kArchiveFlags);
    ModelConfig config = model.config();
    archive << config;
    std::vector<std::string> tokens = source_vocabulary.tokens();
    archive << tokens;
    tokens = target_vocabulary.tokens();
    archive << tokens;
    const auto parameters = model.parameters().all();
    std::uint64_t count = parameters.size();
    archive << count;
    for (const nn::Parameter* p : parameters) {
      std::string name = p->name;
      std::int64_t rows = p->value.rows(), cols = p->value.cols();
      archive << name << rows << cols;
      archive.save_binary(p->value.data(), static_cast<std::size_t>(p->value.size()) * sizeof(float));
    }
    if (kind == FileKind::kCheckpoint && extra) extra(archive);
  }
  const std::string data = payload.str();
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof(kMagic));
  header.version = kModelFormatVersion;
  header.kind = static_cast<std::uint32_t>(kind);
  header.float_size = sizeof(float);
  header.one_bits = float_one_bits();
  header.payload_size = data.size();
  header.payload_hash = payload_hash(data);
  util::AtomicFileWriter writer(path);
  writer.write(std::string_view(reinterpret_cast<const char*>(&header), sizeof(header)));
  writer.write(data);
  writer.commit();
}

LoadedModel read_model_file(const std::string& path, FileKind kind, const ExtraReader& extra) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw util::Error(path, "cannot open the model file: " + std::string(std::strerror(errno)));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Header header{};
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    throw util::Error(path, "not an rnnsearch model file (no RNNSRCH header)");
  }
  if (bytes.size() < sizeof(Header)) {
    throw util::Error(path, "truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the file header");
  }
  std::memcpy(&header, bytes.data(), sizeof(header));
  if (header.version > kModelFormatVersion) {
    throw util::Error(path, "model format version " + std::to_string(header.version) +
                                " is newer than this build reads (" + std::to_string(kModelFormatVersion) +
                                "); use a newer rnnsearch");
  }
  if (header.version < 1) throw util::Error(path, "unknown model format version " + std::to_string(header.version));
  if (header.float_size != sizeof(float) || header.one_bits != float_one_bits()) {
    throw util::Error(path, "written on a machine with another float layout or byte order");
  }
  if (header.kind != static_cast<std::uint32_t>(kind) &&
      !(kind == FileKind::kModel && header.kind == static_cast<std::uint32_t>(FileKind::kCheckpoint))) {
    throw util::Error(path, std::string("is a ") + kind_name(header.kind) + " file, expected a " +
                                kind_name(static_cast<std::uint32_t>(kind)));
  }
  const std::uint64_t available = bytes.size() - sizeof(Header);
  if (available != header.payload_size) {
    throw util::Error(path, "truncated or damaged: " + std::to_string(available) + " bytes of payload, expected " +
                                std::to_string(header.payload_size));
  }
  std::string data = bytes.substr(sizeof(Header));
  bytes.clear();
  if (payload_hash(data) != header.payload_hash) throw util::Error(path, "corrupt: the payload's checksum does not match");

  LoadedModel loaded;
  try {
    std::istringstream payload(std::move(data));
    boost::archive::binary_iarchive archive(payload, kArchiveFlags);
    ModelConfig config;
    archive >> config;
    std::vector<std::string> tokens;
    archive >> tokens;
    loaded.source_vocabulary = data::Vocabulary(std::vector<std::string>(tokens.begin() + data::Vocabulary::kSpecials,
                                                                         tokens.end()));
    archive >> tokens;
    loaded.target_vocabulary = data::Vocabulary(std::vector<std::string>(tokens.begin() + data::Vocabulary::kSpecials,
                                                                         tokens.end()));
    loaded.model = std::make_unique<RnnSearch>(config);
    std::uint64_t count = 0;
    archive >> count;
    const auto parameters = loaded.model->parameters().all();
    if (count != parameters.size()) {
      throw util::Error(path, "holds " + std::to_string(count) + " parameters, the model of its config has " +
                                  std::to_string(parameters.size()));
    }
    for (nn::Parameter* p : parameters) {
      std::string name;
      std::int64_t rows = 0, cols = 0;
      archive >> name >> rows >> cols;
      if (name != p->name || rows != p->value.rows() || cols != p->value.cols()) {
        throw util::Error(path, "parameter '" + name + "' [" + std::to_string(rows) + " x " + std::to_string(cols) +
                                    "] does not match the model's '" + p->name + "'");
      }
      archive.load_binary(p->value.data(), static_cast<std::size_t>(p->value.size()) * sizeof(float));
    }
    if (header.kind == static_cast<std::uint32_t>(kind) && kind == FileKind::kCheckpoint && extra) extra(archive);
  } catch (const boost::archive::archive_exception& e) {
    throw util::Error(path, std::string("damaged model file: ") + e.what());
  } catch (const util::UsageError& e) {
    throw util::Error(path, std::string("holds an invalid model configuration: ") + e.what());
  }
  return loaded;
}

void require_attention(const RnnSearch& model, const std::string& path, const std::string& need) {
  if (!model.has_attention()) {
    throw util::Error(path, "trained with --attention none, the model has no attention weights for " + need);
  }
}

void check_attention_source_name(const std::string& name) {
  if (name != "auto" && name != "decoder" && name != "head") {
    throw util::UsageError("--attention-source must be auto, decoder or head, got '" + name + "'");
  }
}

AttentionSource choose_attention_source(const std::string& name, const RnnSearch& model, const std::string& path,
                                        const std::string& need) {
  check_attention_source_name(name);
  if (name == "head" || (name == "auto" && model.has_alignment_head())) {
    if (!model.has_alignment_head()) {
      throw util::Error(path, "has no alignment head (nmt-train --alignment-head) for " + need);
    }
    return AttentionSource::kAlignmentHead;
  }
  require_attention(model, path, need);
  return AttentionSource::kDecoder;
}

}  // namespace rnnsearch::model
