// Crafted model files with a valid header and checksum: every size the reader meets is
// checked against the payload before anything is allocated, and every refusal is a
// util::Error naming the file (not "cannot create std::vector larger than max_size()").
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <functional>
#include <sstream>

#include "model/model_file.h"
#include "support/temp_dir.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

// The header of lib/model/model_file.cc, written as it writes it.
struct Header {
  char magic[8];
  std::uint32_t version, kind, float_size, one_bits;
  std::uint64_t payload_size, payload_hash;
};


// A model file whose payload `fill` writes, under a valid header of `kind`.
std::string model_bytes(const std::function<void(boost::archive::binary_oarchive&)>& fill, std::uint32_t kind = 1) {
  std::ostringstream payload;
  {
    boost::archive::binary_oarchive archive(payload, boost::archive::no_header);
    fill(archive);
  }
  const std::string data = payload.str();
  Header h{};
  std::memcpy(h.magic, "RNNSRCH\n", 8);
  h.version = model::kModelFormatVersion;
  h.kind = kind;
  h.float_size = sizeof(float);
  const float one = 1.0f;
  std::memcpy(&h.one_bits, &one, 4);
  h.payload_size = data.size();
  h.payload_hash = rnnsearch::model::payload_hash(data);
  return std::string(reinterpret_cast<const char*>(&h), sizeof(h)) + data;
}

constexpr std::uint64_t kTen = 10;

// `bytes` with the header's payload hash recomputed after a patch.
std::string rehash(std::string bytes) {
  Header h;
  std::memcpy(&h, bytes.data(), sizeof(h));
  h.payload_hash = rnnsearch::model::payload_hash(bytes.substr(sizeof(h)));
  std::memcpy(bytes.data(), &h, sizeof(h));
  return bytes;
}

model::ModelOptions small_config(int source, int target) {
  model::ModelOptions c;
  c.source_vocabulary = source;
  c.target_vocabulary = target;
  c.embedding = c.encoder_hidden = c.decoder_hidden = c.attention = c.maxout = 4;
  return c;
}

std::vector<std::string> tokens(int count) {
  std::vector<std::string> t = {"<pad>", "<unk>", "<s>", "</s>"};
  while (static_cast<int>(t.size()) < count) t.push_back("w" + std::to_string(t.size()));
  return t;
}

// The message read_model_file throws for `bytes`, or "" when it reads them.
std::string refusal(const std::string& bytes, model::FileKind kind = model::FileKind::kModel) {
  rt::TempDir dir;
  const std::string path = dir.write("crafted.bin", bytes);
  try {
    model::read_model_file(path, kind);
  } catch (const util::Error& e) {
    BOOST_TEST(e.file() == path);
    return e.detail();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_config_that_disagrees_with_its_vocabulary_is_refused) {
  const auto message = refusal(model_bytes([](auto& a) {
    auto c = small_config(151, 10);
    auto src = tokens(51), tgt = tokens(10);
    a << c << src << tgt;
  }));
  BOOST_TEST(message.find("config says 151 source vocabulary entries, the file lists 51") != std::string::npos, message);
}

BOOST_AUTO_TEST_CASE(a_vocabulary_count_larger_than_the_file_is_refused_before_allocating) {
  // The target vocabulary's count, patched to 2^60, follows the source vocabulary.
  std::string bytes = model_bytes([](auto& a) {
    auto c = small_config(10, 10);
    auto src = tokens(10), tgt = tokens(10);
    a << c << src << tgt;
  });
  const std::string count(reinterpret_cast<const char*>(&kTen), sizeof(kTen));
  const auto at = bytes.rfind(count + std::string(4, '\0'));  // the count (size_t), then the item version
  BOOST_REQUIRE(at != std::string::npos);
  const std::uint64_t huge = std::uint64_t{1} << 60;
  bytes.replace(at, 8, reinterpret_cast<const char*>(&huge), 8);
  const auto patched = rehash(bytes);
  const auto refused = refusal(patched);
  BOOST_TEST(refused.find("damaged: a list of 1152921504606846976 entries, more than the") != std::string::npos, refused);
}

// Boost would allocate and zero what the length says before reading: 2^62 bytes fails, but
// a damaged length of a gigabyte would be granted. Both are refused before allocating.
BOOST_AUTO_TEST_CASE(a_string_longer_than_the_file_is_refused_before_allocating) {
  std::string bytes = model_bytes([](auto& a) {
    auto c = small_config(5, 5);
    auto src = tokens(5);
    src[4] = "w4-marker";
    auto tgt = tokens(5);
    a << c << src << tgt;
  });
  const std::uint64_t nine = 9;  // the length of "w4-marker"
  const auto at = bytes.find(std::string(reinterpret_cast<const char*>(&nine), 8) + "w4-marker");
  BOOST_REQUIRE(at != std::string::npos);
  for (const std::uint64_t huge : {std::uint64_t{1} << 62, std::uint64_t{1} << 30}) {
    std::string patched = bytes;
    patched.replace(at, 8, reinterpret_cast<const char*>(&huge), 8);
    const auto refused = refusal(rehash(patched));
    BOOST_TEST(refused.find("damaged: a string of " + std::to_string(huge) + " bytes, more than the") != std::string::npos,
               refused);
  }
  // Shorter than the payload, longer than what follows it: checked against the bytes left.
  const std::uint64_t left = bytes.size() - (at + 8), longer = left + 1;
  std::string patched = bytes;
  patched.replace(at, 8, reinterpret_cast<const char*>(&longer), 8);
  BOOST_TEST(refusal(rehash(patched)) == "damaged: a string of " + std::to_string(longer) + " bytes, more than the " +
                                             std::to_string(left) + " bytes left in the file");
}

BOOST_AUTO_TEST_CASE(a_config_too_large_for_the_file_is_refused_before_allocating) {
  const auto message = refusal(model_bytes([](auto& a) {
    auto c = small_config(5, 5);
    c.embedding = c.encoder_hidden = c.decoder_hidden = c.maxout = 8192;  // gigabytes of parameters
    auto src = tokens(5), tgt = tokens(5);
    a << c << src << tgt;
  }));
  BOOST_TEST(message.find("bytes of parameters") != std::string::npos, message);
}

BOOST_AUTO_TEST_CASE(an_out_of_range_config_is_refused) {
  const auto message = refusal(model_bytes([](auto& a) {
    auto c = small_config(5, 5);
    c.embedding = 1 << 30;
    a << c;
  }));
  BOOST_TEST(message.find("--dim-emb must be in [1, 8192], got 1073741824") != std::string::npos, message);
}

BOOST_AUTO_TEST_CASE(the_wrong_kind_names_both_kinds) {
  const auto bytes = model_bytes([](auto& a) { auto c = small_config(5, 5); a << c; }, 1);
  const auto message = refusal(bytes, model::FileKind::kCheckpoint);
  BOOST_TEST(message == "is a model file, expected a checkpoint file", message);
  const auto other = refusal(model_bytes([](auto& a) { auto c = small_config(5, 5); a << c; }, 7),
                             model::FileKind::kCheckpoint);
  BOOST_TEST(other == "is a file of unknown kind 7, expected a checkpoint file", other);
}

BOOST_AUTO_TEST_CASE(a_directory_is_refused_by_name) {
  rt::TempDir dir;
  try {
    model::read_model_file(dir.path().string());
    BOOST_FAIL("a directory was read as a model");
  } catch (const util::Error& e) {
    BOOST_TEST(std::string(e.what()) == dir.path().string() + ": is a directory");
  }
}
