#include "model/model_file.h"

#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <algorithm>
#include <array>
#include <cstring>
#include <istream>
#include <sstream>
#include <streambuf>
#include <new>
#include <stdexcept>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/number_format.h"
#include "util/option_range.h"
#include "util/read_file.h"
#include "util/utf8.h"

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

std::uint32_t float_one_bits() {
  const float one = 1.0f;
  std::uint32_t bits;
  std::memcpy(&bits, &one, 4);
  return bits;
}

// "a model file", "a checkpoint file", "a file of unknown kind 7".
std::string kind_name(std::uint32_t kind) {
  if (kind == static_cast<std::uint32_t>(FileKind::kModel)) return "a model file";
  if (kind == static_cast<std::uint32_t>(FileKind::kCheckpoint)) return "a checkpoint file";
  return "a file of unknown kind " + std::to_string(kind);
}

// A token the tools could have read from a vocabulary file (nmt-vocab) or split from a
// line of text: not empty, no space or line feed, valid UTF-8. Another one, in a file
// whose checksum holds, would break the output's one line per input line when printed.
void check_token(const std::string& token, std::size_t index, const std::string& path, const char* side) {
  const auto refuse = [&](const std::string& why) {
    throw util::Error(path, std::string("damaged: ") + side + " vocabulary token " + std::to_string(index) + " " + why);
  };
  if (token.empty()) refuse("is empty");
  if (token.find('\n') != std::string::npos) refuse("holds a line break");
  if (token.find(' ') != std::string::npos) refuse("holds a space");
  if (const std::size_t at = util::find_invalid_utf8(token); at != std::string::npos) {
    refuse("is not valid UTF-8 (byte " + std::to_string(at + 1) + ")");
  }
}

// A vocabulary as `archive << tokens` wrote it, checked against the config's count and
// the four specials (the archive checks the stored count and each length before allocating).
data::Vocabulary read_vocabulary(CheckedBinaryIArchive& archive, const std::string& path, const char* side,
                                 int expected_size) {
  std::vector<std::string> tokens;
  archive >> tokens;
  if (tokens.size() != static_cast<std::size_t>(expected_size)) {
    throw util::Error(path, std::string("damaged: its config says ") + std::to_string(expected_size) + " " + side +
                                " vocabulary entries, the file lists " + std::to_string(tokens.size()));
  }
  const data::Vocabulary specials;
  for (std::int32_t i = 0; i < data::Vocabulary::kSpecials; ++i) {
    if (tokens[static_cast<std::size_t>(i)] != specials.token(i)) {
      throw util::Error(path, std::string("damaged: the ") + side + " vocabulary does not start with the specials");
    }
  }
  for (std::size_t i = data::Vocabulary::kSpecials; i < tokens.size(); ++i) check_token(tokens[i], i, path, side);
  data::Vocabulary vocabulary(std::vector<std::string>(tokens.begin() + data::Vocabulary::kSpecials, tokens.end()));
  if (vocabulary.size() != tokens.size()) {
    throw util::Error(path, std::string("damaged: the ") + side + " vocabulary lists a token twice");
  }
  return vocabulary;
}

// The floats the parameters of `config` take at least (the matrices every model has,
// whatever its options): checked against the payload before the model is allocated, so
// a damaged config cannot ask for gigabytes.
double least_parameter_floats(const ModelOptions& c) {
  const double e = c.embedding, n = c.encoder_hidden, m = c.decoder_hidden, l = c.maxout;
  const double vs = c.source_vocabulary, vt = c.target_vocabulary;
  double floats = vs * e + vt * e + vt;       // E_x, E_y, b_out
  floats += 2 * e * 3 * n + 2 * c.encoder_depth * n * 3 * n;  // encoder GRUs, both directions
  floats += (e + 2 * n) * 3 * m + c.decoder_depth * m * 3 * m;  // decoder GRUs (all inputs, all U)
  floats += (m + e + 2 * n) * 2 * l;          // deep output
  if (!c.tied_embeddings) floats += l * vt;   // W_out
  if (c.attention_form == nn::AttentionForm::kAdditive) floats += (m + 2 * n + 1) * c.attention;
  floats += static_cast<double>(c.alignment_head) * (2 * n + m + e + 1);
  return floats;
}

void write_profile(boost::archive::binary_oarchive& archive, const data::SourceProfile& profile) {
  std::string source = profile.training_source();
  double bits = profile.figures().bits_per_character, split = profile.figures().split_share;
  archive << source << bits << split;
  for (int order = 1; order <= 3; ++order) {
    std::vector<std::uint64_t> keys = profile.table(order).keys;
    std::vector<std::uint32_t> counts = profile.table(order).counts;
    archive << keys << counts;
  }
}

// The archive checks each table's count against the bytes left before allocating;
// SourceProfile then refuses a table over its size.
data::SourceProfile read_profile(CheckedBinaryIArchive& archive, const std::string& path) {
  data::ProfileFigures figures;
  archive >> figures.training_source >> figures.bits_per_character >> figures.split_share;
  std::array<data::NgramTable, 3> tables;
  for (data::NgramTable& table : tables) archive >> table.keys >> table.counts;
  return data::SourceProfile(std::move(tables), std::move(figures), path);
}

}  // namespace

// FNV-1a over 8-byte words: stable across builds, fast enough for a 32 MB payload.
std::uint64_t payload_hash(std::string_view data) {
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

void write_model_file(const std::string& path, FileKind kind, const RnnSearch& model,
                      const data::Vocabulary& source_vocabulary, const data::Vocabulary& target_vocabulary,
                      const std::string& training_options, const data::SourceProfile& source_profile,
                      const ExtraWriter& extra) {
  std::ostringstream payload;
  {
    boost::archive::binary_oarchive archive(payload, kArchiveFlags);
    ModelOptions config = model.config();
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
    archive << training_options;
    write_profile(archive, source_profile);
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

namespace {

// An input stream's buffer over bytes already in memory (which must outlive it). It tells
// its read position, which CheckedBinaryIArchive::bytes_left asks for (a streambuf that
// cannot seek answers -1, and every size was then checked against the whole payload).
class ByteSpanBuffer : public std::streambuf {
 public:
  ByteSpanBuffer(char* begin, char* end) { setg(begin, begin, end); }

 protected:
  pos_type seekoff(off_type offset, std::ios_base::seekdir from, std::ios_base::openmode which) override {
    if (offset != 0 || from != std::ios_base::cur || !(which & std::ios_base::in)) return pos_type(off_type(-1));
    return pos_type(gptr() - eback());
  }
};

// The header of the file read into `bytes`, after checking it and the payload's size and
// checksum against it.
Header checked_header(const std::string& bytes, const std::string& path, FileKind kind) {
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
    throw util::Error(path, "is " + kind_name(header.kind) + ", expected " + kind_name(static_cast<std::uint32_t>(kind)));
  }
  const std::uint64_t available = bytes.size() - sizeof(Header);
  if (available != header.payload_size) {
    throw util::Error(path, "truncated or damaged: " + std::to_string(available) + " bytes of payload, expected " +
                                std::to_string(header.payload_size));
  }
  if (payload_hash(std::string_view(bytes).substr(sizeof(Header))) != header.payload_hash) {
    throw util::Error(path, "corrupt: the payload's checksum does not match");
  }
  return header;
}

}  // namespace

LoadedModel read_model_file(const std::string& path, FileKind kind, const ExtraReader& extra) {
  std::string bytes = util::read_file(path, "the model file");
  const Header header = checked_header(bytes, path, kind);
  const std::uint64_t available = header.payload_size;
  char* const payload_begin = bytes.data() + sizeof(Header);
  LoadedModel loaded;
  try {
    ByteSpanBuffer span(payload_begin, payload_begin + available);  // the bytes read, not a copy of them
    std::istream payload(&span);
    CheckedBinaryIArchive archive(payload, header.payload_size, kArchiveFlags, path);
    ModelOptions config;
    archive >> config;
    config.validate();
    loaded.source_vocabulary = read_vocabulary(archive, path, "source", config.source_vocabulary);
    loaded.target_vocabulary = read_vocabulary(archive, path, "target", config.target_vocabulary);
    const double needed = least_parameter_floats(config) * sizeof(float);
    if (needed > static_cast<double>(archive.bytes_left())) {
      throw util::Error(path, "damaged: its config (" + config.summary() + ") needs at least " +
                                  util::general(needed) + " bytes of parameters, the file has " +
                                  std::to_string(archive.bytes_left()) + " left");
    }
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
      archive >> name;
      std::int64_t rows = 0, cols = 0;
      archive >> rows >> cols;
      if (name != p->name || rows != p->value.rows() || cols != p->value.cols()) {
        throw util::Error(path, "parameter '" + name + "' [" + std::to_string(rows) + " x " + std::to_string(cols) +
                                    "] does not match the model's '" + p->name + "'");
      }
      archive.load_binary(p->value.data(), static_cast<std::size_t>(p->value.size()) * sizeof(float));
    }
    if (header.version >= 4) archive >> loaded.training_options;
    if (header.version >= 6) loaded.source_profile = read_profile(archive, path);
    if (header.kind == static_cast<std::uint32_t>(kind) && kind == FileKind::kCheckpoint && extra) extra(archive);
  } catch (const boost::archive::archive_exception& e) {
    throw util::Error(path, std::string("damaged model file: ") + e.what());
  } catch (const util::UsageError& e) {
    throw util::Error(path, std::string("holds an invalid model configuration: ") + e.what());
  } catch (const std::length_error& e) {  // a damaged count or length (vocabularies, checkpoint state)
    throw util::Error(path, std::string("damaged: a size in it is out of range (") + e.what() + ")");
  } catch (const std::bad_alloc&) {  // the same, where no new-handler ends the process first
    throw util::Error(path, "damaged: a size in it asks for more memory than there is");
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
