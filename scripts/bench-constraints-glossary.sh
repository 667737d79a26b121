# The glossary test of scripts/bench-constraints.sh (sourced by it, with its variables set:
# dir, work, bin, model, codes, lines, beam, threads, glossary_pairs, kind):
#   1. a glossary from the training data: the HMM's agreed links (nmt-align hmm --links agreed
#      --threshold 0.2) of the first $glossary_pairs tokenized pairs, then nmt-glossary extract
#      (one- to three-word phrases seen 20 times or more, one translation in 80% of them);
#   2. the test's glossary: the entries whose target term is, in one of the first $lines test
#      sentences, matched by nmt-glossary match in the source and present in the tokenized
#      reference (whole words);
#      the test set: those sentences, each expecting the target terms of its entries;
#   3. the raw text through rnnsearch-translate (pipelines/translate.sh) without and with
#      --glossary (the test's glossary, detokenized as a user's would be): nmt-terms' term
#      usage and exact match in the tokenized outputs, BLEU and chrF of the raw outputs.
cmake --build build -j "$(nproc)" --target nmt-align nmt-glossary nmt-terms >/dev/null
g=$work/glossary
mkdir -p "$g"
if [ ! -f "$g/glossary.tok" ]; then
  head -n "$glossary_pairs" "$dir/tok/train.en" > "$g/train.en"
  head -n "$glossary_pairs" "$dir/tok/train.fr" > "$g/train.fr"
  "$bin"/nmt-align hmm -s "$g/train.en" -t "$g/train.fr" --links agreed --threshold 0.2 --threads "$threads" -q \
    -o "$g/train.links"
  "$bin"/nmt-glossary extract -s "$g/train.en" -t "$g/train.fr" -a "$g/train.links" -o "$g/glossary.tok"
fi
head -n "$lines" "$dir/tok/test.en" > "$g/test.tok.en"
head -n "$lines" "$dir/raw/test.en" > "$g/test.en"

# Per test line, the target terms of the glossary entries it holds on both sides: "line<TAB>target".
"$bin"/nmt-glossary match -g "$g/glossary.tok" -i "$g/test.tok.en" --terms-only -q > "$g/test.matched"
awk -F'\t' 'NR == FNR { ref[FNR] = " " $0 " "; next }
  { for (i = 1; i <= NF; ++i) if ($i != "" && index(ref[FNR], " " $i " ")) print FNR "\t" $i }' \
  "$work/test.tok.fr" "$g/test.matched" > "$g/test.entries"
cut -f1 "$g/test.entries" | sort -nu > "$g/test.lines"
[ -s "$g/test.lines" ] || { echo "bench-constraints.sh: no test sentence holds a glossary entry" >&2; exit 1; }

# The test set and the test's glossary, detokenized.
detok() { "$bin"/nmt-detokenize -l "$1" -q; }
awk 'NR == FNR { keep[$1] = 1; next } keep[FNR]' "$g/test.lines" "$g/test.en" > "$g/set.en"
awk 'NR == FNR { keep[$1] = 1; next } keep[FNR]' "$g/test.lines" "$work/test.fr" > "$g/set.fr"
awk -F'\t' 'NR == FNR { used[$2] = 1; next } used[$2]' "$g/test.entries" "$g/glossary.tok" > "$g/entries.tok"
paste <(cut -f1 "$g/entries.tok" | detok en) <(cut -f2 "$g/entries.tok" | detok fr) > "$g/glossary.raw"
# Expected terms per kept line, detokenized, tab-separated, in line order.
awk -F'\t' '{ terms[$1] = terms[$1] (terms[$1] == "" ? "" : "\t") $2 } END { for (l in terms) print l "\t" terms[l] }' \
  "$g/test.entries" | sort -n | cut -f2- > "$g/set.terms.tok"
while IFS= read -r line; do
  printf '%s\n' "$line" | tr '\t' '\n' | detok fr | paste -sd '\t'
done < "$g/set.terms.tok" > "$g/set.terms"

translate() { pipelines/translate.sh -m "$model" -c "$codes" -s en -t fr -b "$beam" -j "$threads" "$@"; }
translate < "$g/set.en" > "$g/plain.fr"
translate --glossary "$g/glossary.raw" < "$g/set.en" > "$g/glossary.fr"
echo "== glossary: $(wc -l < "$g/glossary.tok") entries from $glossary_pairs training pairs; $(wc -l < "$g/glossary.raw")" \
  "of them in $(wc -l < "$g/set.en") of the first $lines test sentences, $(wc -w < <(tr '\t' ' ' < "$g/set.terms.tok")) words of terms"
# Terms are counted in the tokenized text (nmt-tokenize -l fr --no-escape of each output), as
# the test set was chosen: French elision ("L'ÉCONOMIE") keeps 13a's word apart from the term.
head -n "$lines" "$work/test.tok.fr" | awk 'NR == FNR { keep[$1] = 1; next } keep[FNR]' "$g/test.lines" - > "$g/set.tok.fr"
printf '| translation | term usage | exact match | BLEU | chrF2 |\n|---|---|---|---|---|\n'
for run in reference plain glossary; do
  hyp=$g/$run.fr
  [ "$run" = reference ] && hyp=$g/set.fr
  "$bin"/nmt-tokenize -l fr --no-escape -q -i "$hyp" -o "$g/$run.tok.fr"
  terms=$("$bin"/nmt-terms -r "$g/set.tok.fr" -i "$g/$run.tok.fr" -t "$g/set.terms.tok" | head -2 |
    sed -E 's/^[a-z ]*: //; s/ terms( in [0-9,]* lines)?\)/)/' | paste -sd '|' | sed 's/|/ | /')
  printf '| %s | %s | %s | %s |\n' "$run" "$terms" "$("$bin"/nmt-bleu "$g/set.fr" -i "$hyp" -b -w 2)" \
    "$("$bin"/nmt-bleu "$g/set.fr" -i "$hyp" -m chrf -b -w 1)"
done
