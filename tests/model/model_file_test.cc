// The model file across attention forms and format versions: every form saves and loads
// to the same config, parameters and log-probabilities, bit for bit; a committed
// format-1 file (written before the config held an attention form: a tiny additive
// reversal model) still loads as additive and still reverses, with no training options; a
// newer version is refused; the training options (format 4) survive saving and loading.
#include <boost/serialization/string.hpp>
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <fstream>
#include <iterator>

#include "data/batch.h"
#include "model/model_file.h"
#include "search/greedy.h"
#include "support/gradcheck.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

data::Vocabulary words(int count) {
  std::vector<std::string> tokens;
  for (int i = 0; i < count; ++i) tokens.push_back("w" + std::to_string(i));
  return data::Vocabulary(tokens);
}

// The log-probabilities of the first two decoder steps on a small padded batch.
math::Matrix first_steps(model::RnnSearch& net) {
  const std::vector<std::vector<std::int32_t>> sources = {{4, 5, 6}, {7}};
  const data::Batch batch = data::make_batch(sources, nullptr, {0, 1});
  model::EncoderOutput encoded;
  net.encode(batch.source, batch.source_mask, encoded);
  math::Matrix state = encoded.initial_state, next, log_probs, weights, out;
  net.decoder_step(encoded, nullptr, {data::Vocabulary::kBos, data::Vocabulary::kBos}, state, log_probs, next, weights);
  out = log_probs;
  net.decoder_step(encoded, nullptr, {4, 5}, next, log_probs, state, weights);
  out.conservativeResize(4, out.cols());
  out.bottomRows(2) = log_probs;
  return out;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const util::Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(model_file)

BOOST_AUTO_TEST_CASE(every_attention_form_round_trips_bit_for_bit) {
  rt::TempDir dir;
  const data::Vocabulary source = words(6), target = words(5);
  for (const auto form : {nn::AttentionForm::kAdditive, nn::AttentionForm::kGeneral, nn::AttentionForm::kDot,
                          nn::AttentionForm::kNone}) {
    BOOST_TEST_CONTEXT(nn::attention_form_name(form)) {
      model::ModelOptions config;
      config.source_vocabulary = static_cast<int>(source.size());
      config.target_vocabulary = static_cast<int>(target.size());
      config.embedding = 4;
      config.encoder_hidden = 3;
      config.decoder_hidden = 5;
      config.attention = 4;
      config.maxout = 3;
      config.attention_form = form;
      config.alignment_head = form == nn::AttentionForm::kGeneral ? 3 : 0;  // the head's parameters too
      model::RnnSearch net(config);
      rt::randomize(net.parameters(), 11, 0.5f);
      const std::string path = (dir.path() / (std::string(nn::attention_form_name(form)) + ".bin")).string();
      model::write_model_file(path, model::FileKind::kModel, net, source, target);
      std::uint32_t version = 0;
      std::memcpy(&version, read_bytes(path).data() + 8, sizeof(version));
      BOOST_TEST(version == model::kModelFormatVersion);

      const auto loaded = model::read_model_file(path);
      BOOST_TEST((loaded.model->config().attention_form == form));
      BOOST_TEST(loaded.model->config().summary() == config.summary());
      const auto mine = net.parameters().all();
      const auto theirs = loaded.model->parameters().all();
      BOOST_TEST_REQUIRE(mine.size() == theirs.size());
      for (std::size_t i = 0; i < mine.size(); ++i) BOOST_TEST((mine[i]->value == theirs[i]->value), mine[i]->name);
      BOOST_TEST((first_steps(net) == first_steps(*loaded.model)));
      BOOST_TEST(loaded.model->has_attention() == (form != nn::AttentionForm::kNone));
      BOOST_TEST(loaded.model->config().alignment_head == config.alignment_head);
      BOOST_TEST(loaded.model->has_alignment_head() == (form == nn::AttentionForm::kGeneral));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_format_1_file_is_an_additive_model) {
  // tests/model/reversal_format1.bin: written by nmt-train at format version 1 (emb 8,
  // enc 8, dec 16, att 8, maxout 8), trained to reverse 3-5 words over w0..w5.
  const std::string path = rt::source_dir() + "/tests/model/reversal_format1.bin";
  const std::string bytes = read_bytes(path);
  BOOST_TEST_REQUIRE(bytes.size() > 16u);
  std::uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, sizeof(version));
  BOOST_TEST(version == 1u);

  const auto loaded = model::read_model_file(path);
  const model::ModelOptions& config = loaded.model->config();
  BOOST_TEST((config.attention_form == nn::AttentionForm::kAdditive));
  BOOST_TEST(config.alignment_head == 0);
  BOOST_TEST(config.summary() == "emb 8, enc 8x2, dec 16, att additive 8, maxout 8, vocab 10/10");
  const auto ids = [&](const std::vector<std::string>& tokens) {
    std::vector<std::int32_t> out;
    for (const auto& token : tokens) out.push_back(loaded.source_vocabulary.id_or_unk(token));
    return out;
  };
  const auto translations = search::greedy_translate(
      *loaded.model, {ids({"w1", "w2", "w3"}), ids({"w0", "w5", "w4", "w3", "w2"}), ids({"w3", "w3", "w1", "w0"})});
  const auto text = [&](const std::vector<std::int32_t>& sentence) {
    std::string out;
    for (const auto id : sentence) out += (out.empty() ? "" : " ") + loaded.target_vocabulary.token(id);
    return out;
  };
  BOOST_TEST(text(translations[0]) == "w3 w2 w1");
  BOOST_TEST(text(translations[1]) == "w2 w3 w4 w5 w0");
  BOOST_TEST(text(translations[2]) == "w0 w1 w3 w3");
  BOOST_TEST(loaded.training_options == "");  // format 1 stores none

  // Saved again, it is a current-format file of the same model.
  rt::TempDir dir;
  const std::string again = (dir.path() / "again.bin").string();
  model::write_model_file(again, model::FileKind::kModel, *loaded.model, loaded.source_vocabulary,
                          loaded.target_vocabulary);
  const auto reloaded = model::read_model_file(again);
  BOOST_TEST((reloaded.model->config().attention_form == nn::AttentionForm::kAdditive));
  BOOST_TEST((first_steps(*loaded.model) == first_steps(*reloaded.model)));
}

BOOST_AUTO_TEST_CASE(a_format_3_file_loads_without_training_options) {
  // tests/model/tiny_format3.bin (and .ckpt): written by nmt-train at format version 3
  // (emb, enc, dec, att, maxout 4; 2 updates on config_cli_test's 4-line corpus).
  const std::string path = rt::source_dir() + "/tests/model/tiny_format3.bin";
  std::uint32_t version = 0;
  std::memcpy(&version, read_bytes(path).data() + 8, sizeof(version));
  BOOST_TEST(version == 3u);
  const auto loaded = model::read_model_file(path);
  BOOST_TEST(loaded.model->config().summary() == "emb 4, enc 4x2, dec 4, att additive 4, maxout 4, vocab 7/7");
  BOOST_TEST(loaded.training_options == "");
  BOOST_TEST(loaded.source_profile.empty());  // before format 6: no profile
  const auto checkpoint = model::read_model_file(path + ".ckpt");
  BOOST_TEST(checkpoint.training_options == "");
  BOOST_TEST(checkpoint.source_profile.empty());
}

BOOST_AUTO_TEST_CASE(training_options_survive_saving_and_loading) {
  rt::TempDir dir;
  model::ModelOptions config;
  config.source_vocabulary = config.target_vocabulary = 10;
  config.embedding = config.encoder_hidden = config.decoder_hidden = config.attention = config.maxout = 3;
  model::RnnSearch net(config);
  rt::randomize(net.parameters(), 5, 0.5f);
  const data::Vocabulary vocabulary = words(6);
  const std::string options = "train-sets = a b.de\ntrain-sets = a b.en\ndropout = 0.2\nseparator = \" @@\"\n";
  const std::string path = (dir.path() / "m.bin").string(), checkpoint = (dir.path() / "m.bin.ckpt").string();
  model::write_model_file(path, model::FileKind::kModel, net, vocabulary, vocabulary, options);
  const auto loaded = model::read_model_file(path);
  BOOST_TEST(loaded.training_options == options);
  BOOST_TEST((first_steps(net) == first_steps(*loaded.model)));

  // A checkpoint: the options, then the trainer's part, read back in place.
  const std::string trainer_part = "the trainer's state";
  model::write_model_file(checkpoint, model::FileKind::kCheckpoint, net, vocabulary, vocabulary, options, {},
                          [&](boost::archive::binary_oarchive& archive) { archive << trainer_part; });
  std::string read_back;
  const auto resumed = model::read_model_file(checkpoint, model::FileKind::kCheckpoint,
                                              [&](model::CheckedBinaryIArchive& archive) { archive >> read_back; });
  BOOST_TEST(resumed.training_options == options);
  BOOST_TEST(read_back == trainer_part);
  BOOST_TEST(model::read_model_file(checkpoint).training_options == options);  // a checkpoint read as a model

  model::write_model_file(path, model::FileKind::kModel, net, vocabulary, vocabulary);
  BOOST_TEST(model::read_model_file(path).training_options == "");
}

BOOST_AUTO_TEST_CASE(the_source_profile_survives_saving_and_loading) {
  rt::TempDir dir;
  model::ModelOptions config;
  config.source_vocabulary = config.target_vocabulary = 10;
  config.embedding = config.encoder_hidden = config.decoder_hidden = config.attention = config.maxout = 3;
  model::RnnSearch net(config);
  const data::Vocabulary vocabulary = words(6);
  data::ProfileBuilder builder;
  builder.add_line("a man is stand@@ ing on a ladder .");
  builder.add_line("two dogs play in the snow .");
  const data::SourceProfile profile = builder.build("train.en");
  const std::string path = (dir.path() / "m.bin").string(), checkpoint = (dir.path() / "m.bin.ckpt").string();
  model::write_model_file(path, model::FileKind::kModel, net, vocabulary, vocabulary, "dropout = 0.2\n", profile);
  const std::string trainer_part = "the trainer's state";
  model::write_model_file(checkpoint, model::FileKind::kCheckpoint, net, vocabulary, vocabulary, "", profile,
                          [&](boost::archive::binary_oarchive& archive) { archive << trainer_part; });
  for (const auto& loaded : {model::read_model_file(path), model::read_model_file(checkpoint)}) {
    const data::SourceProfile& read = loaded.source_profile;
    BOOST_TEST(read.training_source() == "train.en");
    BOOST_TEST(read.training_bits() == profile.training_bits());
    for (int order = 1; order <= 3; ++order) {
      BOOST_TEST(read.table(order).keys == profile.table(order).keys);
      BOOST_TEST(read.table(order).counts == profile.table(order).counts);
    }
    BOOST_TEST(read.bits(U'a', U' ', U'm') == profile.bits(U'a', U' ', U'm'));
  }
  std::string read_back;
  model::read_model_file(checkpoint, model::FileKind::kCheckpoint,
                         [&](model::CheckedBinaryIArchive& archive) { archive >> read_back; });
  BOOST_TEST(read_back == trainer_part);  // the trainer's part still follows
  model::write_model_file(path, model::FileKind::kModel, net, vocabulary, vocabulary);
  BOOST_TEST(model::read_model_file(path).source_profile.empty());

  // The model file ends with the trigram table: its keys' count, keys (8 bytes each),
  // counts' count, counts (4 bytes each). A damaged count is refused before allocating.
  model::write_model_file(path, model::FileKind::kModel, net, vocabulary, vocabulary, "", profile);
  std::string bytes = read_bytes(path);
  const std::size_t trigrams = profile.table(3).keys.size();
  const std::size_t at = bytes.size() - 4 * trigrams - 8 - 8 * trigrams - 8;
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + at, 8);
  BOOST_TEST_REQUIRE(stored == trigrams);
  const std::uint64_t huge = std::uint64_t{1} << 40;
  std::memcpy(bytes.data() + at, &huge, 8);
  std::uint64_t hash = model::payload_hash(std::string_view(bytes).substr(40));
  std::memcpy(bytes.data() + 32, &hash, 8);  // the header's hash, after magic, 4 words and the size
  const std::string damaged = dir.write("damaged.bin", bytes);
  BOOST_TEST(error_of([&] { model::read_model_file(damaged); }).find(damaged + ": damaged") == 0u);
}

BOOST_AUTO_TEST_CASE(a_newer_format_version_is_refused) {
  rt::TempDir dir;
  const std::string path = rt::source_dir() + "/tests/model/reversal_format1.bin";
  std::string bytes = read_bytes(path);
  const std::uint32_t newer = model::kModelFormatVersion + 1;
  std::memcpy(bytes.data() + 8, &newer, sizeof(newer));
  const std::string written = dir.write("newer.bin", bytes);
  BOOST_TEST(error_of([&] { model::read_model_file(written); }) ==
             written + ": model format version " + std::to_string(newer) + " is newer than this build reads (" +
                 std::to_string(model::kModelFormatVersion) + "); use a newer rnnsearch");
}

BOOST_AUTO_TEST_CASE(alignment_needs_a_model_with_attention) {
  model::ModelOptions config;
  config.source_vocabulary = config.target_vocabulary = 6;
  config.embedding = config.encoder_hidden = config.decoder_hidden = config.attention = config.maxout = 2;
  config.attention_form = nn::AttentionForm::kNone;
  const model::RnnSearch none(config);
  BOOST_TEST(error_of([&] { model::require_attention(none, "m.bin", "--alignment"); }) ==
             "m.bin: trained with --attention none, the model has no attention weights for --alignment");
  config.attention_form = nn::AttentionForm::kDot;
  BOOST_TEST(error_of([&] { model::require_attention(model::RnnSearch(config), "m.bin", "--alignment"); }) ==
             "no error");
}

BOOST_AUTO_TEST_SUITE_END()
