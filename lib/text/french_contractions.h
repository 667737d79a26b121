#pragma once
// French written as the HLT-NAACL 2003 word-alignment gold writes it (Och and Ney's
// annotation of the Hansards): every elided word in full ("l'" -> "le", "qu'" -> "que",
// "c'" -> "ce") and every article contracted with a preposition split ("du" -> "de le",
// "des" -> "de les", "au" -> "à le", "aux" -> "à les"), mechanically, as the gold does
// ("s' il" -> "se il", "des" as an article -> "de les"). Words not in the list keep their
// apostrophe ("aujourd' hui"). A word followed by a hyphen mark ("au @-@ dessus") starts a
// compound and is kept. The text is tokenized (Moses -l fr puts the apostrophe on the
// left word: "l' homme"); a capital first letter, or a word in capitals, keeps its case.
#include <string>
#include <string_view>

namespace rnnsearch::text {

std::string expand_french_contractions(std::string_view tokenized_line);

// Moses -a writes a hyphen between word parts as the token "@-@"; the gold writes "-".
std::string plain_hyphen_marks(std::string_view tokenized_line);

}  // namespace rnnsearch::text
