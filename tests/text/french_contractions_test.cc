// French written out as the WPT-2003 alignment gold writes it (text/french_contractions.h),
// alone and through the tokenizer's -l fr -a --plain-hyphens --expand-contractions.
#include <boost/test/unit_test.hpp>

#include <string>

#include "text/french_contractions.h"
#include "text/nonbreaking_prefixes.h"
#include "text/tokenizer.h"
#include "util/error.h"

using rnnsearch::text::expand_french_contractions;
using rnnsearch::text::plain_hyphen_marks;

BOOST_AUTO_TEST_SUITE(french_contractions)

BOOST_AUTO_TEST_CASE(writes_elisions_and_contractions_out_as_the_gold_does) {
  BOOST_TEST(expand_french_contractions("l' homme qu' il a vu") == "le homme que il a vu");
  BOOST_TEST(expand_french_contractions("c' est la fin de l' économie") == "ce est la fin de le économie");
  BOOST_TEST(expand_french_contractions("s' il vient , j' en parle jusqu' à demain") ==
             "se il vient , je en parle jusque à demain");
  BOOST_TEST(expand_french_contractions("le début du projet , des gens aux Communes , au moins") ==
             "le début de le projet , de les gens à les Communes , à le moins");
}

BOOST_AUTO_TEST_CASE(keeps_other_apostrophes_and_compounds) {
  BOOST_TEST(expand_french_contractions("aujourd' hui , presqu' île") == "aujourd' hui , presqu' île");
  BOOST_TEST(expand_french_contractions("au @-@ dessus des @-@ x du") == "au @-@ dessus des @-@ x de le");
  // A dash written as a hyphen ("juridictions-des permis") does not make a compound.
  BOOST_TEST(expand_french_contractions("juridictions @-@ des permis") == "juridictions @-@ de les permis");
  BOOST_TEST(expand_french_contractions("dual au pied") == "dual à le pied");
  BOOST_TEST(expand_french_contractions("") == "");
}

BOOST_AUTO_TEST_CASE(keeps_the_words_case) {
  BOOST_TEST(expand_french_contractions("L' État") == "Le État");
  BOOST_TEST(expand_french_contractions("Au cours , Aux Communes") == "\u00c0 le cours , \u00c0 les Communes");
  BOOST_TEST(expand_french_contractions("Du pain , DU PAIN , AU BOUT , QU' IL") == "De le pain , DE LE PAIN , À LE BOUT , QUE IL");
}

BOOST_AUTO_TEST_CASE(writes_hyphen_marks_plain) {
  BOOST_TEST(plain_hyphen_marks("au @-@ dessus de C @-@ 49 , a - b") == "au - dessus de C - 49 , a - b");
}

BOOST_AUTO_TEST_CASE(the_tokenizer_spells_raw_french_as_the_gold) {
  rnnsearch::text::TokenizerOptions options;
  options.language = "fr";
  options.aggressive = true;
  options.escape = false;
  options.expand_contractions = true;
  options.plain_hyphens = true;
  options.lowercase = true;
  const rnnsearch::text::Tokenizer tokenizer(options, rnnsearch::text::NonbreakingPrefixes::built_in("fr"));
  // The gold's dev sentence 5, before tokenization.
  BOOST_TEST(tokenizer.tokenize("Le projet de loi C-49, de la façon dont il est présenté aujourd'hui, nous fait "
                                "sentir que seules les prostituées sont punies et stigmatisées.") ==
             "le projet de loi c - 49 , de la façon dont il est présenté aujourd' hui , nous fait sentir que "
             "seules les prostituées sont punies et stigmatisées .");
  BOOST_TEST(tokenizer.tokenize("L'État s'en occupe au-dessus des lois d'aujourd'hui.") ==
             "le état se en occupe au - dessus de les lois de aujourd' hui .");
}

BOOST_AUTO_TEST_CASE(is_for_french_only) {
  rnnsearch::text::TokenizerOptions options;
  options.language = "en";
  options.expand_contractions = true;
  BOOST_CHECK_THROW(options.validate(), rnnsearch::util::UsageError);
  options.language = "fr";
  BOOST_CHECK_NO_THROW(options.validate());
}

BOOST_AUTO_TEST_SUITE_END()
