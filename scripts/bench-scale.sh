#!/usr/bin/env bash
# How each tool's cost grows with the input, beside the reference it replaces, in one run:
# the first N lines (10k, 100k and 1M; SCALE_SIZES="10000 100000" for a quick run) of the raw,
# cased English-French Hansard training text ($NMT_SHARED/data/hansard36, default ../shared)
# go through the preparation pipeline, then a tiny model is trained, decoded and aligned with:
#   tokenize  nmt-tokenize -l en|fr --no-escape --threads 2    vs Moses tokenizer.perl, same options
#   clean     nmt-clean TOK en fr CLEAN 1 80                   vs Moses clean-corpus-n.perl
#   bpe learn nmt-bpe learn -s 16000, the joint cleaned text    vs subword-nmt learn_bpe.py, and
#             spm_train --model_type=bpe --vocab_size=16000 --num_threads=2 (all the sentences)
#   bpe apply nmt-bpe apply --threads 1 with those codes       vs apply_bpe.py, spm_encode (1 thread)
#   vocab     nmt-vocab, the joint BPE'd text                  vs subword-nmt get_vocab.py
#   train     nmt-train, dims 8, --max-updates 1 --threads 1: loading the data to the first update
#   decode    nmt-decode -b 1 --threads 1 on the BPE'd English  } with the first size's model and
#   align     nmt-align (extract) --threads 1 on the BPE'd pairs } codes, so a sentence costs the same
# Per program and size: wall seconds (bash's EPOCHREALTIME around /usr/bin/time, which gives
# the peak RSS, %M), the median of 3 runs when the first run takes under 10 s, else that one
# run; the growth from the second-largest size to the largest (10x is linear for 100k->1M);
# reference time / our time; whether the outputs that should match are byte-identical (cmp;
# nmt-tokenize given Moses' nonbreaking prefix files for that check); the project's targets at
# the largest size. The references come from the environment, and one that is not found is
# skipped with a line saying why (none is a project dependency):
#   MOSES_SCRIPTS  a directory with tokenizer/tokenizer.perl and share/nonbreaking_prefixes
#                  (the multi30k/dataset repository's scripts/moses-3a0631a); run by /usr/bin/perl
#   MOSES_CLEAN    Moses scripts/training/clean-corpus-n.perl; run by /usr/bin/perl
#   SUBWORD_NMT    a checkout of rsennrich/subword-nmt; run by /usr/bin/python3
#   spm_train, spm_encode from PATH (Debian's sentencepiece: scripts/install-deps.sh --bench)
#   scripts/bench-scale.sh [--bin DIR]
# Uses a copy of the binaries as built in DIR (default build/bin; it does not build them) and
# a temporary directory, removed at exit. Runs one program at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/bin
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    *) echo "bench-scale.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
sizes=$(printf '%s\n' ${SCALE_SIZES:-10000 100000 1000000} | sort -n -u | tr '\n' ' ')
sizes=${sizes% }
shared=${NMT_SHARED:-../shared}
corpus=$shared/data/hansard36
for tool in tokenize clean bpe vocab train decode align; do
  [ -x "$bin/nmt-$tool" ] || { echo "bench-scale.sh: $bin/nmt-$tool is missing: build it first" >&2; exit 1; }
done
for lang in en fr; do
  [ -r "$corpus/train.$lang.gz" ] || { echo "bench-scale.sh: $corpus/train.$lang.gz not found (NMT_SHARED)" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A copy of the binaries: a rebuild of DIR during the run does not mix two builds.
built=$(date -u -r "$bin/nmt-train" '+%Y-%m-%d %H:%M UTC')
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || commit="$commit (tree with uncommitted changes)"
mkdir "$work/bin"
cp "$bin"/nmt-* "$work/bin/"
bin=$work/bin

# The references: each one found is a command prefix; each one missing prints why.
moses_tok=() moses_clean=() learn_py=() apply_py=() vocab_py=() spm_train=() spm_encode=()
skip() { echo "skipped: $1"; }
if [ ! -x /usr/bin/perl ]; then
  skip "tokenizer.perl and clean-corpus-n.perl: /usr/bin/perl not found"
else
  if [ -z "${MOSES_SCRIPTS:-}" ]; then
    skip "tokenizer.perl: MOSES_SCRIPTS is not set (a directory with tokenizer/tokenizer.perl)"
  elif [ ! -f "$MOSES_SCRIPTS/tokenizer/tokenizer.perl" ]; then
    skip "tokenizer.perl: $MOSES_SCRIPTS/tokenizer/tokenizer.perl not found (MOSES_SCRIPTS)"
  else
    moses_tok=(/usr/bin/perl "$MOSES_SCRIPTS/tokenizer/tokenizer.perl")
  fi
  if [ -z "${MOSES_CLEAN:-}" ]; then
    skip "clean-corpus-n.perl: MOSES_CLEAN is not set (the path of Moses scripts/training/clean-corpus-n.perl)"
  elif [ ! -f "$MOSES_CLEAN" ]; then
    skip "clean-corpus-n.perl: $MOSES_CLEAN not found (MOSES_CLEAN)"
  else
    moses_clean=(/usr/bin/perl "$MOSES_CLEAN")
  fi
fi
if [ -z "${SUBWORD_NMT:-}" ]; then
  skip "subword-nmt learn_bpe.py, apply_bpe.py, get_vocab.py: SUBWORD_NMT is not set (a checkout of rsennrich/subword-nmt)"
elif [ ! -x /usr/bin/python3 ]; then
  skip "subword-nmt learn_bpe.py, apply_bpe.py, get_vocab.py: /usr/bin/python3 not found"
else
  for script in learn_bpe apply_bpe get_vocab; do
    path=$SUBWORD_NMT/subword_nmt/$script.py
    [ -f "$path" ] || path=$SUBWORD_NMT/$script.py
    if [ ! -f "$path" ]; then
      skip "$script.py: not found in $SUBWORD_NMT/subword_nmt or $SUBWORD_NMT (SUBWORD_NMT)"
      continue
    fi
    case $script in
      learn_bpe) learn_py=(/usr/bin/python3 "$path") ;;
      apply_bpe) apply_py=(/usr/bin/python3 "$path") ;;
      get_vocab) vocab_py=(/usr/bin/python3 "$path") ;;
    esac
  done
fi
for program in spm_train spm_encode; do
  if ! command -v "$program" >/dev/null; then
    skip "$program: not in PATH (Debian's sentencepiece; scripts/install-deps.sh --bench installs it)"
  elif [ "$program" = spm_train ]; then
    spm_train=("$(command -v spm_train)")
  else
    spm_encode=("$(command -v spm_encode)")
  fi
done

# measure KEY IN OUT COMMAND...: runs COMMAND with stdin IN and stdout OUT (- = none) once,
# or three times when the first run takes under 10 s; records the median wall seconds in
# secs[KEY,n], the median peak RSS in MB in mb[KEY,n], the runs in runs[KEY,n]; keeps the last
# run's stderr in $work/stderr. Returns 1 (with the stderr's end) when COMMAND fails.
declare -A secs=() mb=() runs=()
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
measure() {
  local key=$1 in=$2 out=$3; shift 3
  [ "$in" = - ] && in=/dev/null
  [ "$out" = - ] && out=/dev/null
  local times=() kbs=() start end t kb
  while :; do
    start=${EPOCHREALTIME/,/.}
    if ! /usr/bin/time -f '%e %M' -o "$work/time" "$@" <"$in" >"$out" 2>"$work/stderr"; then
      echo "bench-scale.sh: failed: $*" >&2
      tail -n 5 "$work/stderr" >&2
      return 1
    fi
    end=${EPOCHREALTIME/,/.}
    t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
    kb=$(awk 'END { print $2 }' "$work/time")
    times+=("$t") kbs+=("$kb")
    if [ ${#times[@]} -ge 3 ] || awk -v t="${times[0]}" 'BEGIN { exit !(t >= 10) }'; then break; fi
  done
  secs[$key,$n]=$(printf '%s\n' "${times[@]}" | median)
  mb[$key,$n]=$(printf '%s\n' "${kbs[@]}" | median | awk '{ printf "%.1f", $1 / 1024 }')
  runs[$key,$n]=${#times[@]}
  echo "  $n lines, $key: ${secs[$key,$n]} s, ${mb[$key,$n]} MB, ${#times[@]} run(s)" >&2
}
# reference KEY IN OUT COMMAND...: measure for a reference; a failure skips just this one.
reference() {
  local key=$1
  measure "$@" || { skip "$key at $n lines: it failed (above)"; return 1; }
}
# same KEY FILE_A FILE_B: records whether two outputs are byte-identical.
declare -A checks=()
same() {
  local verdict=DIFFERENT
  cmp -s "$2" "$3" && verdict=identical
  checks[$1]="${checks[$1]:-}  $n: $verdict"
}
declare -A notes=()

tiny=(--dim-emb 8 --dim-enc 8 --dim-dec 8 --dim-att 8 --dim-maxout 8)
for n in $sizes; do
  d=$work/$n
  mkdir -p "$d"
  echo "== $n lines" >&2
  # awk reads to the end, so that gzip never dies of SIGPIPE under pipefail
  for lang in en fr; do gzip -dc "$corpus/train.$lang.gz" | awk -v n="$n" 'NR <= n' >"$d/raw.$lang"; done
  got=$(wc -l <"$d/raw.en")
  [ "$got" -eq "$n" ] || echo "warning: the corpus has only $got lines, not $n" >&2

  for lang in en fr; do
    measure "tokenize-$lang" "$d/raw.$lang" "$d/tok.$lang" \
      "$bin/nmt-tokenize" -l "$lang" --no-escape --threads 2 -q
    if [ ${#moses_tok[@]} -gt 0 ] && reference "tokenizer.perl-$lang" "$d/raw.$lang" "$d/moses.tok.$lang" \
      "${moses_tok[@]}" -l "$lang" -no-escape -threads 2 -q; then
      # nmt-tokenize's built-in prefix lists are its own: the identity holds with Moses' lists
      prefixes=$MOSES_SCRIPTS/share/nonbreaking_prefixes/nonbreaking_prefix.$lang
      if [ -f "$prefixes" ]; then
        "$bin/nmt-tokenize" -l "$lang" --no-escape --threads 2 -q --nonbreaking-prefixes "$prefixes" \
          <"$d/raw.$lang" >"$d/check.tok.$lang"
        same "tokenize -l $lang (with Moses' nonbreaking_prefix.$lang) vs tokenizer.perl" \
          "$d/check.tok.$lang" "$d/moses.tok.$lang"
      fi
    fi
  done

  measure clean - - "$bin/nmt-clean" -q "$d/tok" en fr "$d/clean" 1 80
  if [ ${#moses_clean[@]} -gt 0 ] && reference clean-corpus-n.perl - - "${moses_clean[@]}" "$d/tok" en fr "$d/moses.clean" 1 80; then
    cat "$d/clean.en" "$d/clean.fr" >"$d/check.ours"
    cat "$d/moses.clean.en" "$d/moses.clean.fr" >"$d/check.moses"
    same "nmt-clean vs clean-corpus-n.perl (both sides)" "$d/check.ours" "$d/check.moses"
  fi
  pairs=$(wc -l <"$d/clean.en")
  cat "$d/clean.en" "$d/clean.fr" >"$d/joint.tok"

  measure "bpe learn" - - "$bin/nmt-bpe" learn -q -s 16000 -i "$d/joint.tok" -o "$d/codes"
  if [ ${#learn_py[@]} -gt 0 ] && reference learn_bpe.py - - "${learn_py[@]}" -s 16000 -i "$d/joint.tok" -o "$d/py.codes"; then
    same "nmt-bpe learn vs learn_bpe.py (codes)" "$d/codes" "$d/py.codes"
  fi
  if [ ${#spm_train[@]} -gt 0 ] && reference spm_train - - "${spm_train[@]}" --input="$d/joint.tok" \
    --model_prefix="$d/spm" --model_type=bpe --vocab_size=16000 --num_threads=2 --input_sentence_size=0 \
    --character_coverage=1.0 --max_sentence_length=1000000; then
    loaded=$(sed -n 's/.*Loaded all \([0-9]*\) sentences.*/\1/p' "$work/stderr")
    notes[spm_train]="${notes[spm_train]:-}  $n: read ${loaded:-?} of $((2 * pairs)) sentences;"
  fi

  measure "bpe apply" - - "$bin/nmt-bpe" apply -q --threads 1 -c "$d/codes" -i "$d/joint.tok" -o "$d/joint.bpe"
  if [ ${#apply_py[@]} -gt 0 ] && reference apply_bpe.py - - "${apply_py[@]}" -c "$d/codes" -i "$d/joint.tok" \
    -o "$d/py.joint.bpe"; then
    same "nmt-bpe apply vs apply_bpe.py (the same codes)" "$d/joint.bpe" "$d/py.joint.bpe"
  fi
  if [ ${#spm_encode[@]} -gt 0 ] && [ -n "${secs[spm_train,$n]:-}" ]; then
    reference spm_encode - - "${spm_encode[@]}" --model="$d/spm.model" --input="$d/joint.tok" \
      --output="$d/spm.joint" || true
  fi

  measure vocab - - "$bin/nmt-vocab" -q -i "$d/joint.bpe" -o "$d/vocab"
  if [ ${#vocab_py[@]} -gt 0 ] && reference get_vocab.py - - "${vocab_py[@]}" -i "$d/joint.bpe" -o "$d/py.vocab"; then
    same "nmt-vocab vs get_vocab.py" "$d/vocab" "$d/py.vocab"
  fi

  awk -v n="$pairs" 'NR <= n' "$d/joint.bpe" >"$d/bpe.en"
  awk -v n="$pairs" 'NR > n' "$d/joint.bpe" >"$d/bpe.fr"
  for lang in en fr; do "$bin/nmt-vocab" -q -i "$d/bpe.$lang" -o "$d/vocab.$lang"; done
  measure train - - "$bin/nmt-train" -t "$d/bpe.en" "$d/bpe.fr" -v "$d/vocab.en" "$d/vocab.fr" -m "$d/model.bin" \
    --overwrite "${tiny[@]}" --max-updates 1 --threads 1
  notes[train]="${notes[train]:-}  $n: $(sed -n 's/^data: [0-9]* lines, \([0-9]*\) pairs.*/\1 pairs/p' "$work/stderr"),\
 vocab $(sed -n 's/^model:.* vocab \([0-9/]*\),.*/\1/p' "$work/stderr");"
  # Decoding and alignment read every size with the first size's model and codes: a sentence
  # costs the same at every size (an untrained model's output length and the output layer's
  # width vary from model to model), so the growth shows the cost of the size alone.
  fixed=$work/fixed
  if [ ! -d "$fixed" ]; then
    mkdir -p "$fixed"
    cp "$d/model.bin" "$d/codes" "$fixed/"
  fi
  for lang in en fr; do "$bin/nmt-bpe" apply -q -c "$fixed/codes" -i "$d/clean.$lang" -o "$d/fixed.$lang"; done
  measure decode - - "$bin/nmt-decode" -q -m "$fixed/model.bin" -i "$d/fixed.en" -o "$d/decoded" -b 1 --threads 1
  measure align - - "$bin/nmt-align" -q -m "$fixed/model.bin" -s "$d/fixed.en" -t "$d/fixed.fr" -o "$d/alignment" \
    --threads 1
  notes[lines]="${notes[lines]:-}  $n: $pairs;"
  rm -rf "$d"
done

# The report.
read -r -a size_list <<<"$sizes"
first=${size_list[0]} last=${size_list[-1]} prev=${size_list[0]}
[ ${#size_list[@]} -lt 2 ] || prev=${size_list[-2]}
linear=$(awk -v a="$prev" -v b="$last" 'BEGIN { printf "%g", b / a }')
limit=$(awk -v a="$prev" -v b="$last" 'BEGIN { printf "%g", 1.1 * b / a }')
kind=AVX2
grep -qw avx512f /proc/cpuinfo && kind=AVX-512
grep -qw amx_tile /proc/cpuinfo && kind="$kind + AMX"
echo
echo "== bench-scale: hansard36 en-fr, the first $sizes lines"
echo "machine: $kind, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores," \
  "load average at the end $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')   commit: $commit   binaries built $built," \
  "$("$bin/nmt-tokenize" --version 2>&1 | head -n 1)"
echo "pairs kept by nmt-clean, read by train, decode and align (bpe learn, apply and vocab read both sides):${notes[lines]}"
echo "each size: wall seconds, peak RSS in MB, runs (3 = the median of 3 runs, the first under 10 s; 1 = one run)"
[ ${#size_list[@]} -lt 2 ] || echo "growth = time($last) / time($prev): $linear is linear, over $limit is flagged"
echo "ratio = the reference's time / ours, in this run (above 1: ours is faster)"
printf '%-32s' program
for s in "${size_list[@]}"; do printf '%25s' "$s lines"; done
printf '%11s\n' growth
# growth KEY: time(last) / time(prev), empty without both.
growth() {
  [ ${#size_list[@]} -ge 2 ] && [ -n "${secs[$1,$prev]:-}" ] && [ -n "${secs[$1,$last]:-}" ] || return 0
  awk -v a="${secs[$1,$prev]}" -v b="${secs[$1,$last]}" 'BEGIN { printf "%.1f", b / (a > 0.001 ? a : 0.001) }'
}
# row KEY LABEL OURS: one program's line (OURS=1: flagged ok or MISSED; a reference only when over).
row() {
  local key=$1 label=$2 ours=$3 s g
  printf '%-32s' "$label"
  for s in "${size_list[@]}"; do
    if [ -n "${secs[$key,$s]:-}" ]; then
      printf '%9.2f s %7.1f MB %2s' "${secs[$key,$s]}" "${mb[$key,$s]}" "${runs[$key,$s]}"
    else
      printf '%25s' -
    fi
  done
  g=$(growth "$key")
  if [ -n "$g" ]; then
    awk -v g="$g" -v limit="$limit" -v ours="$ours" 'BEGIN { printf "%10.1fx %s\n", g,
      ours ? (g <= limit ? "ok" : "MISSED") : (g <= limit ? "" : "(over " limit "x)") }'
  else
    echo
  fi
}
# ratio_at REF OURS SIZE: reference time / our time, empty without both.
ratio_at() {
  [ -n "${secs[$1,$3]:-}" ] && [ -n "${secs[$2,$3]:-}" ] || return 0
  awk -v r="${secs[$1,$3]}" -v o="${secs[$2,$3]}" 'BEGIN { printf "%.2f", r / (o > 0.001 ? o : 0.001) }'
}
# reference_rows REF LABEL OURS: the reference's line and its ratio line, when it ran.
reference_rows() {
  local s r
  [ -n "${secs[$1,$first]:-}${secs[$1,$last]:-}" ] || return 0
  row "$1" "  $2" 0
  printf '%-32s' "    ratio (reference / ours)"
  for s in "${size_list[@]}"; do
    r=$(ratio_at "$1" "$3" "$s")
    if [ -n "$r" ]; then printf '%24sx' "$r"; else printf '%25s' -; fi
  done
  echo
}
row tokenize-en "nmt-tokenize -l en" 1
reference_rows tokenizer.perl-en "tokenizer.perl -l en" tokenize-en
row tokenize-fr "nmt-tokenize -l fr" 1
reference_rows tokenizer.perl-fr "tokenizer.perl -l fr" tokenize-fr
row clean "nmt-clean" 1
reference_rows clean-corpus-n.perl "clean-corpus-n.perl" clean
row "bpe learn" "nmt-bpe learn -s 16000" 1
reference_rows learn_bpe.py "learn_bpe.py" "bpe learn"
reference_rows spm_train "spm_train" "bpe learn"
row "bpe apply" "nmt-bpe apply" 1
reference_rows apply_bpe.py "apply_bpe.py" "bpe apply"
reference_rows spm_encode "spm_encode" "bpe apply"
row vocab "nmt-vocab" 1
reference_rows get_vocab.py "get_vocab.py" vocab
row train "nmt-train to update 1" 1
row decode "nmt-decode -b 1" 1
row align "nmt-align" 1
echo "nmt-train (tiny model: dims 8, one update) read:${notes[train]:-}"
echo "nmt-decode (greedy) and nmt-align (extract, hard) read every size with the model and codes of $first lines"
[ -z "${notes[spm_train]:-}" ] || echo "spm_train (--input_sentence_size=0):${notes[spm_train]}"

echo
echo "== outputs that should match, compared byte for byte (cmp)"
if [ ${#checks[@]} -eq 0 ]; then echo "(no reference ran)"; fi
for check in "${!checks[@]}"; do printf '%-72s%s\n' "$check" "${checks[$check]}"; done | sort

echo
if [ "$last" = 1000000 ]; then
  echo "== targets at $last lines"
else
  echo "== targets at $last lines (they are set for 1000000 lines)"
fi
# target TEXT FIGURE PASS: one target's line; PASS is 1, 0 or empty (not measured).
target() {
  local verdict=MISSED
  [ "$3" != 1 ] || verdict=ok
  [ -n "$3" ] || verdict="n/a"
  printf '%-60s%-34s%s\n' "$1" "$2" "$verdict"
}
worst="" worst_growth=0 missed=0 counted=0
for key in tokenize-en tokenize-fr clean "bpe learn" "bpe apply" vocab train decode align; do
  g=$(growth "$key")
  [ -n "$g" ] || continue
  counted=$((counted + 1))
  if awk -v g="$g" -v w="$worst_growth" 'BEGIN { exit !(g > w) }'; then worst=$key worst_growth=$g; fi
  if awk -v g="$g" -v limit="$limit" 'BEGIN { exit !(g > limit) }'; then missed=$((missed + 1)); fi
done
if [ "$counted" -gt 0 ]; then
  target "every tool linear: growth at most ${limit}x" "worst: $worst ${worst_growth}x" "$([ "$missed" -eq 0 ] && echo 1 || echo 0)"
else
  target "every tool linear" "needs two sizes" ""
fi
# faster KEY_OURS REF TIMES TEXT: ours at least TIMES faster than REF at the last size.
faster() {
  local r pass=""
  r=$(ratio_at "$2" "$1" "$last")
  [ -z "$r" ] || pass=$(awk -v r="$r" -v x="$3" 'BEGIN { print (r >= x) ? 1 : 0 }')
  if [ -n "$r" ]; then target "$4" "ratio ${r}x" "$pass"; else target "$4" "$2 not run" ""; fi
}
faster "bpe learn" spm_train 5 "nmt-bpe learn at least 5x faster than spm_train"
faster "bpe apply" spm_encode 10 "nmt-bpe apply at least 10x faster than spm_encode"
pass=""
[ -z "${secs[train,$last]:-}" ] || pass=$(awk -v t="${secs[train,$last]}" -v m="${mb[train,$last]}" \
  'BEGIN { print (t <= 30 && m < 1024) ? 1 : 0 }')
target "nmt-train's first update within 30 s, under 1 GB resident" \
  "${secs[train,$last]:-?} s, ${mb[train,$last]:-?} MB" "$pass"
faster tokenize-en tokenizer.perl-en 1.01 "nmt-tokenize -l en faster than tokenizer.perl"
faster tokenize-fr tokenizer.perl-fr 1.01 "nmt-tokenize -l fr faster than tokenizer.perl"
faster clean clean-corpus-n.perl 1.01 "nmt-clean faster than clean-corpus-n.perl"
faster vocab get_vocab.py 1.01 "nmt-vocab faster than get_vocab.py"
for key in decode align; do
  figure="needs two sizes" pass=""
  if [ "$first" != "$last" ]; then
    figure=$(awk -v a="${mb[$key,$first]}" -v b="${mb[$key,$last]}" 'BEGIN { printf "%.1f -> %.1f MB, %.2fx", a, b, b / a }')
    pass=$(awk -v a="${mb[$key,$first]}" -v b="${mb[$key,$last]}" 'BEGIN { print (b <= 1.5 * a) ? 1 : 0 }')
  fi
  target "nmt-$key memory flat: at $last lines within 1.5x of $first" "$figure" "$pass"
done
