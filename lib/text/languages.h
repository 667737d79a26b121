#pragma once
// The languages nmt-tokenize and nmt-detokenize have rules for (-l CODE, an ISO 639-1 code):
//   en        English nonbreaking prefixes and contractions ("don 't")
//   de, cs    their own nonbreaking prefixes
//   fr        its nonbreaking prefixes and elisions ("l' homme"), --expand-contractions
//   it, ga    elisions; English nonbreaking prefixes
//   fi, sv    ':' inside a word kept; ca: '·' inside a word kept; English prefixes
//   xa, xb    the generated demo corpus's languages (nmt-demo-corpus): the
//             language-independent rules, and no nonbreaking prefixes (they have no
//             abbreviations)
// The detokenizer has rules of its own for en, fr, it and cs and the generic ones for the
// rest of them. Any other code ("french", "es") is tokenized with the English nonbreaking
// prefixes and the language-independent rules, detokenized with the generic rules, as
// Moses does, and both tools warn (Moses's tokenizer.perl warns likewise).
#include <string>
#include <vector>

namespace rnnsearch::text {

// The codes above, sorted: "ca", "cs", "de", ...
const std::vector<std::string>& languages_with_rules();

bool has_rules(const std::string& language);

// True for the generated demo corpus's languages, xa and xb.
bool is_generated_language(const std::string& language);

// For a language without rules: "no rules for language 'french'; FALLBACK (languages with
// rules: ca, cs, ...; codes are ISO 639-1, e.g. fr)", FALLBACK saying what is used instead.
// "" for a language with rules.
std::string unknown_language_warning(const std::string& language, const std::string& fallback);

// The language's English name from ICU's locale data ("en" -> "English", "fr" -> "French");
// the demo corpus's xa and xb, and codes ICU does not know, are named by their code.
std::string language_name(const std::string& language);

}  // namespace rnnsearch::text
