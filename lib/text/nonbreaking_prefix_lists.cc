// rnnsearch's own abbreviation lists, written for this project (not taken from Moses):
// capital initials, titles and ranks, month names, and common abbreviations of each
// language. Abbreviations that contain a period (e.g., z.B., c.-à-d.) need no entry:
// the tokenizer keeps any word with an inner period and a letter.
#include "text/nonbreaking_prefix_lists.h"

#include "text/languages.h"

namespace rnnsearch::text {
namespace {

// Initials: "J. R. R. Tolkien".
#define RNNSEARCH_CAPITALS \
  "A\nB\nC\nD\nE\nF\nG\nH\nI\nJ\nK\nL\nM\nN\nO\nP\nQ\nR\nS\nT\nU\nV\nW\nX\nY\nZ\n"

constexpr std::string_view kEnglish =
    "# English\n" RNNSEARCH_CAPITALS
    "# titles, ranks and forms of address\n"
    "Mr\nMrs\nMs\nMx\nMessrs\nDr\nProf\nRev\nFr\nHon\nSr\nJr\nSt\nPres\nGov\nSen\nRep\n"
    "Gen\nCol\nLt\nMaj\nCapt\nCmdr\nAdm\nSgt\nCpl\nPvt\nInsp\nSupt\nSupr\n"
    "# organisations and places\n"
    "Inc\nLtd\nCo\nCorp\nBros\nDept\nUniv\nAssn\nAve\nBlvd\nRd\nMt\nFt\n"
    "# months\n"
    "Jan\nFeb\nMar\nApr\nJun\nJul\nAug\nSep\nSept\nOct\nNov\nDec\n"
    "# other\n"
    "etc\nvs\nviz\napprox\nal\ncf\nca\nest\n"
    "# only before a number: No. 5, pp. 10-12\n"
    "No #NUMERIC_ONLY#\nNos #NUMERIC_ONLY#\nArt #NUMERIC_ONLY#\np #NUMERIC_ONLY#\n"
    "pp #NUMERIC_ONLY#\nvol #NUMERIC_ONLY#\nch #NUMERIC_ONLY#\nnr #NUMERIC_ONLY#\n";

constexpr std::string_view kGerman =
    "# German\n" RNNSEARCH_CAPITALS
    "# ordinals in dates and lists: am 3. Oktober\n"
    "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n"
    "21\n22\n23\n24\n25\n26\n27\n28\n29\n30\n31\n"
    "# titles and forms of address\n"
    "Hr\nHrn\nFr\nFrl\nDr\nProf\nDipl\nIng\nMag\nSt\nHl\n"
    "# months\n"
    "Jan\nFeb\nMär\nApr\nJun\nJul\nAug\nSep\nSept\nOkt\nNov\nDez\n"
    "# common abbreviations\n"
    "usw\nbzw\nca\nevtl\nggf\ninkl\nexkl\nvgl\nsog\nzzgl\nallg\nbzgl\nmind\nmax\nmin\n"
    "Abb\nAbs\nAnm\nBd\nBde\nJh\nJhd\nKap\nMio\nMrd\nTsd\nStr\nTel\nNr\nHrsg\n"
    "# only before a number\n"
    "Art #NUMERIC_ONLY#\nS #NUMERIC_ONLY#\nNr #NUMERIC_ONLY#\n";

constexpr std::string_view kFrench =
    "# French\n" RNNSEARCH_CAPITALS
    "# titles and forms of address\n"
    "MM\nMme\nMmes\nMlle\nMlles\nMgr\nMe\nDr\nPr\nSt\nSte\n"
    "# months\n"
    "janv\nfévr\navr\njuil\nsept\noct\nnov\ndéc\n"
    "# common abbreviations\n"
    "av\nbd\ncf\netc\nenv\nex\nchap\nfig\nvol\napr\nav\n"
    "# only before a number\n"
    "art #NUMERIC_ONLY#\nno #NUMERIC_ONLY#\nNo #NUMERIC_ONLY#\np #NUMERIC_ONLY#\npp #NUMERIC_ONLY#\n";

constexpr std::string_view kCzech =
    "# Czech\n" RNNSEARCH_CAPITALS
    "# academic titles\n"
    "Bc\nIng\nMgr\nMUDr\nJUDr\nPhDr\nRNDr\nPaedDr\ndoc\nprof\n"
    "# months\n"
    "led\núno\nbře\ndub\nkvě\nčvn\nčvc\nsrp\nzář\nříj\nlis\npro\n"
    "# common abbreviations\n"
    "atd\napod\ntzv\ntj\nnapř\nresp\nmj\nstr\nobr\ntel\nul\nnám\nsv\n"
    "# only before a number\n"
    "č #NUMERIC_ONLY#\nčís #NUMERIC_ONLY#\nodst #NUMERIC_ONLY#\nsb #NUMERIC_ONLY#\n";

#undef RNNSEARCH_CAPITALS

}  // namespace

std::string_view built_in_prefix_list(const std::string& language) {
  if (is_generated_language(language)) return "";
  if (language == "de") return kGerman;
  if (language == "fr") return kFrench;
  if (language == "cs") return kCzech;
  return kEnglish;
}

}  // namespace rnnsearch::text
