#!/usr/bin/env bash
# Word aligners side by side on exactly the corpus the hansard36-align recipe prepared
# (`make -f Makefile.pipeline -j2 hansard36-align` writes DIR/tok/train.{en,fr}: the
# 1,021,889 hansard36 pairs tokenized, then the 37 dev and 447 test sentences of the
# WPT-2003 gold set as the last 484 lines). Each aligner reads the whole corpus and writes
# forward and reverse links (English index first) for every line; nmt-align symmetrize
# makes intersect, grow-diag, grow-diag-final-and and grow-diag-and of them, and
# pipelines/alignment-scores.sh (nmt-align eval) scores the gold lines against
# $NMT_SHARED/data/hansards/wpt03/{dev,test}.gold.en-fr (NMT_SHARED default ../shared).
# One table: per aligner, test AER % (dev AER %) of each alignment, then the wall time,
# CPU time (user + system) and peak RSS (of the largest process) of its runs, from GNU
# time (/usr/bin/time), and each run's own; symmetrizing and scoring are not counted. Then,
# when the recipe's study of this corpus is in DIR, its dev-chosen HMM links and its full
# answer (the heads merged with the HMM's links). One aligner at a time:
#   eflomal  eflomal-align of a local copy (EFLOMAL_DIR) with its defaults: -m 3 (IBM
#            Model 1, HMM, fertility), 3 samplers, iterations from the corpus size; both
#            directions in one run (-f, -r); OpenMP held to --threads (OMP_THREAD_LIMIT).
#            Its samplers start from a random seed: its AERs vary a little from run to run
#   ibm2     nmt-align ibm2 forward, then -r (reverse), each with --threads
#   hmm      nmt-align hmm: one training run (both directions by agreement) writes the
#            forward links and --save-params; then --load-params reads off the reverse
#            (--links reverse) and the agreed (--links agreed --threshold 0.2: the product of the two
#            directions' posteriors at 0.2, fixed in advance) links without training; the
#            times are those of the three runs together. Skipped when nmt-align hmm is
#            missing (its --help lacks --load-params).
# eflomal (GPL-3.0) is never part of this project; a copy of it, built in place:
#   sudo apt-get install python3-numpy cython3 python3-dev
#   git clone https://github.com/robertostling/eflomal ~/eflomal
#   make -C ~/eflomal/src python-install                          (the C core)
#   (cd ~/eflomal && /usr/bin/python3 setup.py build_ext --inplace)   (the Cython module)
#   export EFLOMAL_DIR=~/eflomal
# A copy not built yet is built so by this script when those packages are installed.
# Without a usable EFLOMAL_DIR the eflomal column is skipped with a line saying what to
# do; with --require-eflomal the script fails instead.
#
#   scripts/bench-aligners.sh [--corpus-dir DIR] [--threads N] [--only eflomal,ibm2,hmm]
#                             [--lines N] [-o OUT] [--bin BIN] [--require-eflomal]
#   --corpus-dir DIR   the recipe's OUT, holding tok/train.{en,fr} (default work/hansard36-align)
#   --threads N        threads of each aligner (default 2)
#   --only LIST        the aligners to run, comma-separated (default eflomal,ibm2,hmm)
#   --lines N          only the last N lines, the 484 gold sentences among them: a check
#                      of the plumbing in seconds, whose scores mean little
#   -o OUT             links, logs and the table, OUT/report.txt (default work/bench-aligners)
#   --bin BIN          the nmt-* tools (default build/bin; this script does not build them)
#   --require-eflomal  exit 1 when eflomal cannot run, instead of skipping it
#   -h, --help         this text
# Exit status: 0 when every aligner run ran or was skipped, 1 when one failed (its column
# says "failed"), 2 on a usage error.
set -euo pipefail
cd "$(dirname "$0")/.."
command_line=$(printf ' %q' "$@")
usage() { sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0; }
die_usage() { echo "bench-aligners.sh: $1" >&2; echo "(bench-aligners.sh --help lists the options)" >&2; exit 2; }
die() { echo "bench-aligners.sh: $1" >&2; exit 1; }

corpus_dir=work/hansard36-align threads=2 only=eflomal,ibm2,hmm lines="" out=work/bench-aligners bin=build/bin
require_eflomal=no
while [ $# -gt 0 ]; do
  case "$1" in
    --corpus-dir|--threads|--only|--lines|-o|--bin) [ $# -ge 2 ] || die_usage "option $1 needs a value" ;;&
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --lines) lines=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --require-eflomal) require_eflomal=yes; shift ;;
    -h|--help) usage ;;
    *) die_usage "unknown option $1" ;;
  esac
done
[[ $threads =~ ^[1-9][0-9]*$ ]] || die_usage "--threads needs a positive number, got '$threads'"
[ -z "$lines" ] || [[ $lines =~ ^[0-9]+$ && $lines -ge 484 ]] ||
  die_usage "--lines needs a number of lines of at least 484 (the gold sentences), got '$lines'"
aligners=()
for a in ${only//,/ }; do
  case $a in eflomal|ibm2|hmm) aligners+=("$a") ;; *) die_usage "--only: unknown aligner '$a' (eflomal, ibm2, hmm)" ;; esac
done
[ ${#aligners[@]} -gt 0 ] || die_usage "--only names no aligner"

gold=${NMT_SHARED:-../shared}/data/hansards/wpt03
for f in "$gold/dev.gold.en-fr" "$gold/test.gold.en-fr"; do
  [ -r "$f" ] || die "$f not found (NMT_SHARED)"
done
[ -x "$bin/nmt-align" ] || die "$bin/nmt-align is missing: build it (cmake --build build --target nmt-align) or give --bin"
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (Debian's time package)"
for l in en fr; do
  [ -r "$corpus_dir/tok/train.$l" ] ||
    die "$corpus_dir/tok/train.$l not found: run make -f Makefile.pipeline -j2 hansard36-align (or give --corpus-dir)"
done
total=$(wc -l < "$corpus_dir/tok/train.en")
[ "$total" -eq "$(wc -l < "$corpus_dir/tok/train.fr")" ] || die "$corpus_dir/tok/train.en and .fr differ in lines"
[ "$total" -ge 484 ] || die "$corpus_dir/tok/train.en has fewer than the 484 gold lines"

mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$corpus_dir/tok/train.en tgt=$corpus_dir/tok/train.fr
if [ -n "$lines" ] && [ "$lines" -lt "$total" ]; then
  mkdir -p "$out/corpus"
  tail -n "$lines" "$src" > "$out/corpus/train.en"
  tail -n "$lines" "$tgt" > "$out/corpus/train.fr"
  src=$out/corpus/train.en tgt=$out/corpus/train.fr total=$lines
fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || commit="$commit (tree with uncommitted changes)"
load_before=$(cut -d ' ' -f 1-3 /proc/loadavg)

# ready_ALIGNER: whether ALIGNER can run; when not, says why (and what to do) and returns 1.
ready() { case $1 in eflomal) ready_eflomal ;; ibm2) return 0 ;; hmm) ready_hmm ;; esac; }
ready_hmm() {
  local help
  help=$("$bin/nmt-align" hmm --help 2>&1 || true)
  [[ $help == *--load-params* ]] && return 0
  echo "skipped: hmm: $bin/nmt-align has no hmm command (its --help lacks --load-params)" >&2
  return 1
}
# eflomal: EFLOMAL_DIR holds python/scripts/eflomal-align; the C core (src/eflomal, copied
# to python/eflomal/bin) and the Cython module are built in place when missing.
eflomal_version=""
ready_eflomal() {
  local why
  why=$(eflomal_problem) || true
  if [ -n "$why" ]; then
    echo "skipped: eflomal: $why" >&2
    [ "$require_eflomal" = no ] || die "--require-eflomal: eflomal cannot run"
    return 1
  fi
  eflomal_version=$(git -C "$EFLOMAL_DIR" rev-parse --short HEAD 2>/dev/null || echo "of unknown commit")
}
eflomal_problem() {
  local d=${EFLOMAL_DIR:-} missing=() py=(/usr/bin/python3)
  local how="git clone https://github.com/robertostling/eflomal DIR, then export EFLOMAL_DIR=DIR (bench-aligners.sh --help)"
  [ -n "$d" ] || { echo "EFLOMAL_DIR is not set: $how"; return; }
  if [ ! -f "$d/python/scripts/eflomal-align" ] || [ ! -f "$d/src/eflomal.c" ]; then
    echo "$d (EFLOMAL_DIR) is not an eflomal checkout (no python/scripts/eflomal-align, src/eflomal.c): $how"; return
  fi
  [ -x "${py[0]}" ] || { echo "/usr/bin/python3 is missing: sudo apt-get install python3"; return; }
  "${py[@]}" -c 'import numpy' 2>/dev/null || missing+=(python3-numpy)
  if ! eflomal_built "$d"; then
    "${py[@]}" -c 'import Cython' 2>/dev/null || missing+=(cython3)
    [ -f "$("${py[@]}" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ] || missing+=(python3-dev)
    command -v gcc make >/dev/null || missing+=(build-essential)
  fi
  [ ${#missing[@]} -eq 0 ] || { echo "missing Debian packages: sudo apt-get install ${missing[*]}"; return; }
  if ! eflomal_built "$d"; then
    echo "bench-aligners.sh: building eflomal in $d (log: $out/eflomal-build.log)" >&2
    { make -C "$d/src" python-install && (cd "$d" && "${py[@]}" setup.py build_ext --inplace); } \
      > "$out/eflomal-build.log" 2>&1 || { echo "building it in $d failed: see $out/eflomal-build.log"; return; }
  fi
  PYTHONPATH=$d/python "${py[@]}" -c 'import eflomal' 2>/dev/null ||
    echo "PYTHONPATH=$d/python /usr/bin/python3 cannot import eflomal (build it again: bench-aligners.sh --help)"
}
eflomal_built() {
  [ -x "$1/python/eflomal/bin/eflomal" ] && compgen -G "$1/python/eflomal/cython*.so" > /dev/null
}
run_eflomal() {
  timed eflomal align env PYTHONPATH="$EFLOMAL_DIR/python${PYTHONPATH:+:$PYTHONPATH}" OMP_THREAD_LIMIT="$threads" \
    /usr/bin/python3 "$EFLOMAL_DIR/python/scripts/eflomal-align" -m 3 -s "$src" -t "$tgt" \
    -f "$out/eflomal/forward" -r "$out/eflomal/reverse" --overwrite
}

# timed ALIGNER RUN COMMAND...: runs COMMAND with its stderr in OUT/ALIGNER/RUN.log and
# adds its wall and CPU seconds and peak RSS to the aligner's; returns 1 (with the log's
# end) when it fails.
declare -A wall=() cpu=() peak=() state=()
timed() {
  local a=$1 run=$2; shift 2
  echo "  $a: $*" >&2
  if ! /usr/bin/time -f '%e %U %S %M' -o "$out/$a/$run.time" "$@" 2> "$out/$a/$run.log"; then
    echo "bench-aligners.sh: $a failed: $*" >&2
    tail -n 5 "$out/$a/$run.log" >&2
    return 1
  fi
  read -r w u s kb < <(tail -n 1 "$out/$a/$run.time")
  wall[$a]=$(awk -v t="${wall[$a]:-0}" -v w="$w" 'BEGIN { print t + w }')
  cpu[$a]=$(awk -v t="${cpu[$a]:-0}" -v u="$u" -v s="$s" 'BEGIN { print t + u + s }')
  peak[$a]=$(awk -v p="${peak[$a]:-0}" -v kb="$kb" 'BEGIN { print (kb > p ? kb : p) }')
}

run() { case $1 in eflomal) run_eflomal ;; ibm2) run_ibm2 ;; hmm) run_hmm ;; esac; }
run_ibm2() {
  timed ibm2 forward "$bin/nmt-align" ibm2 -s "$src" -t "$tgt" -o "$out/ibm2/forward" --threads "$threads" -q &&
    timed ibm2 reverse "$bin/nmt-align" ibm2 -r -s "$src" -t "$tgt" -o "$out/ibm2/reverse" --threads "$threads" -q
}

run_hmm() {
  local p=$out/hmm/params
  timed hmm forward "$bin/nmt-align" hmm -s "$src" -t "$tgt" -o "$out/hmm/forward" --save-params "$p" \
      --threads "$threads" -q &&
    timed hmm reverse "$bin/nmt-align" hmm -s "$src" -t "$tgt" -o "$out/hmm/reverse" --load-params "$p" \
      --links reverse --threads "$threads" -q &&
    timed hmm agreed "$bin/nmt-align" hmm -s "$src" -t "$tgt" -o "$out/hmm/agreed" --load-params "$p" \
      --links agreed --threshold 0.2 --threads "$threads" -q
}

# The symmetrizations of OUT/ALIGNER/{forward,reverse}, then the scores of every
# alignment in OUT/ALIGNER/scores.txt.
symmetrizations=(intersect grow-diag grow-diag-final-and grow-diag-and)
score() {
  local a=$1 h files=()
  for h in "${symmetrizations[@]}"; do
    "$bin/nmt-align" symmetrize -i "$out/$a/forward" -j "$out/$a/reverse" -c "$h" -o "$out/$a/$h" -q || return 1
  done
  for h in forward reverse "${symmetrizations[@]}" agreed; do
    [ -f "$out/$a/$h" ] && files+=("$h=$out/$a/$h")
  done
  NMT_BIN=$bin pipelines/alignment-scores.sh -d "$gold/dev.gold.en-fr" -t "$gold/test.gold.en-fr" "${files[@]}" \
    > "$out/$a/scores.txt"
}

# Every aligner's readiness first: --require-eflomal fails before anything runs.
for a in "${aligners[@]}"; do
  ready "$a" || state[$a]=skipped
done
status=0
for a in "${aligners[@]}"; do
  [ -z "${state[$a]:-}" ] || continue
  rm -rf "${out:?}/$a"
  mkdir -p "$out/$a"
  echo "bench-aligners.sh: $a on $total lines, threads: $threads" >&2
  if run "$a" && score "$a"; then state[$a]=ran; else state[$a]=failed status=1; fi
done

# The table, also in OUT/report.txt.
kind=AVX2
grep -qw avx512f /proc/cpuinfo && kind=AVX-512
grep -qw amx_tile /proc/cpuinfo && kind="$kind + AMX"
# cell ALIGNER ROW: "test (dev)" AER in %, or why there is none.
cell() {
  case ${state[$1]} in
    ran) awk -v r="$2" '$1 == r { printf "%.2f (%.2f) %.2f (%.2f)", 100 * $5, 100 * $2, 100 * $9, 100 * $6; found = 1 }
                        END { if (!found) print "-" }' \
           "$out/$1/scores.txt" ;;
    *) echo "${state[$1]}" ;;
  esac
}
# figure ALIGNER FORMAT VALUE: a time or memory figure of an aligner that ran.
figure() { if [ "${state[$1]}" = ran ]; then awk -v v="$3" -v f="$2" 'BEGIN { printf f, v }'; else echo -; fi; }
{
  echo "== bench-aligners: $total lines of $corpus_dir/tok/train.{en,fr} (the last 484: the gold sentences)," \
    "threads: $threads"
  echo "Date: $(date -u +%Y-%m-%d) · Command: \`${EFLOMAL_DIR:+EFLOMAL_DIR=$EFLOMAL_DIR }scripts/bench-aligners.sh$command_line\`" \
    "· Commit: $commit · Machine: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores, $kind"
  echo "load average before $load_before, after $(cut -d ' ' -f 1-3 /proc/loadavg);" \
    "$("$bin/nmt-align" --version 2>&1 | head -n 1)${eflomal_version:+; eflomal $eflomal_version}"
  echo "test AER % (dev AER %) on the WPT-2003 gold sentences, lilt's protocol (447 test, 37 dev) then Liang et al.'s"
  echo "(the last 347 test; 137 dev: the 37 and the first 100 test); times and memory of the aligner's runs"
  printf '%-22s' alignment
  for a in "${aligners[@]}"; do printf '%28s' "$a"; done
  echo
  rows=(forward reverse "${symmetrizations[@]}")
  [[ " ${aligners[*]} " != *" hmm "* ]] || rows+=(agreed)
  for row in "${rows[@]}"; do
    printf '%-22s' "$row"
    for a in "${aligners[@]}"; do printf '%28s' "$(cell "$a" "$row")"; done
    echo
  done
  for row in "wall time:%.1f s:wall" "CPU time, user+sys:%.1f s:cpu" "peak RSS:%.0f MB:peak"; do
    IFS=: read -r label format var <<< "$row"
    printf '%-22s' "$label"
    for a in "${aligners[@]}"; do
      v=0
      case $var in wall) v=${wall[$a]:-0} ;; cpu) v=${cpu[$a]:-0} ;; peak) v=$(( ${peak[$a]:-0} / 1024 )) ;; esac
      printf '%28s' "$(figure "$a" "$format" "$v")"
    done
    echo
  done
  # Each run's own figures: wall s / CPU s / peak MB.
  for a in "${aligners[@]}"; do
    [ "${state[$a]}" = ran ] || continue
    printf '%s runs:' "$a"
    for t in "$out/$a"/*.time; do
      awk -v run="$(basename "$t" .time)" 'END { printf " %s %.1f s / %.1f s / %.0f MB;", run, $1, $2 + $3, $4 / 1024 }' "$t"
    done
    echo
  done
  # The recipe's own dev-chosen answers, when its study of this corpus is there.
  if [ -z "$lines" ] && [ -f "$corpus_dir/hmm/study.txt" ] && [ -f "$corpus_dir/mix/study.txt" ]; then
    echo "the recipe's choices on dev ($corpus_dir, make -f Makefile.pipeline -j2 hansard36-align), test AER % (dev AER %):"
    awk '$1 == "chosen:" { printf "  the HMM aligners, %s: %.2f (%.2f)\n", $2, 100 * $6, 100 * $3 }' "$corpus_dir/hmm/study.txt"
    awk '$1 == "chosen:" { printf "  the full recipe, %s: %.2f (%.2f)\n", $2, 100 * $6, 100 * $3 }' "$corpus_dir/mix/study.txt"
  fi
} | tee "$out/report.txt"
exit $status
