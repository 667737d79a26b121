#include "data/language_check.h"

#include "util/number_format.h"
#include "util/option_range.h"

namespace rnnsearch::data {

void check_language_warning(double ratio) { util::check_range("language-warning", ratio, 0.0, 100.0); }

void LanguageCheck::add(std::string_view line) {
  if (profile_->empty()) return;
  const std::u32string text = profile_text(line);
  for (std::size_t i = 2; i < text.size(); ++i) bits_ += profile_->bits(text[i - 2], text[i - 1], text[i]);
  characters_ += text.size() - 2;
  const WordSplits splits = word_splits(line);
  splits_.words += splits.words;
  splits_.split += splits.split;
}

double LanguageCheck::bits_per_character() const {
  return characters_ == 0 ? 0.0 : bits_ / static_cast<double>(characters_);
}

double LanguageCheck::ratio() const {
  if (profile_->empty() || characters_ == 0) return 0.0;
  return bits_per_character() / profile_->training_bits();
}

double LanguageCheck::split_share() const {
  return splits_.words == 0 ? 0.0 : static_cast<double>(splits_.split) / static_cast<double>(splits_.words);
}

bool LanguageCheck::looks_unsplit() const {
  return splits_.words >= kUnsplitMinWords && split_share() < kUnsplitFraction * profile_->figures().split_share;
}

std::string LanguageCheck::warning(double threshold, const std::string& input) const {
  if (threshold <= 0.0 || profile_->empty()) return "";
  const std::string& name = profile_->training_source();
  const std::string source = name.empty() ? "its training source" : name;
  const std::string end = "; is it the right file, language and preprocessing?";
  if (characters_ >= kMinCharacters && ratio() > threshold) {
    return input + " does not look like the model's source language (" + source + "): " +
           util::fixed(bits_per_character(), 2) + " bits per character under the model's character trigrams of " +
           source + ", " + util::fixed(ratio(), 2) + " times that text's own " +
           util::fixed(profile_->training_bits(), 2) + end;
  }
  if (!looks_unsplit()) return "";
  return input + " does not look BPE'd with the model's codes: " + util::fixed(100.0 * split_share(), 1) + "% of its " +
         util::grouped(splits_.words) + " words are split into pieces, " + source + " splits " +
         util::fixed(100.0 * profile_->figures().split_share, 1) + "% of its own" + end;
}

void LanguageCheck::warn(const util::Messages& messages, double threshold, const std::string& input) const {
  const std::string line = warning(threshold, input);
  if (!line.empty()) messages.warn(line);
}

}  // namespace rnnsearch::data
