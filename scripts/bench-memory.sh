#!/usr/bin/env bash
# Peak memory of the scoring and alignment tools as the input grows: the first N lines
# (default 100k and 1M) of the Hansard training text ($NMT_SHARED/data/hansard36), the
# English side as reference, the English without each line's first word as hypothesis,
# the lowercased English as a second reference, the French as source. Prints the peak
# RSS (/usr/bin/time -v "Maximum resident set size") of each command at each size and
# the growth factor from the first size to the last: a tool that streams stays flat.
#   scripts/bench-memory.sh [--bin DIR] [--sizes "100000 1000000"] [--ibm2-iterations N] [--work DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/bin sizes="100000 1000000" iterations=2 work=build/bench-data/memory
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --ibm2-iterations) iterations=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    *) echo "bench-memory.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
shared=${NMT_SHARED:-../shared}
corpus=$shared/data/hansard36
if [ "$bin" = build/bin ]; then
  [ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j "$(nproc)" --target nmt-bleu nmt-by-length nmt-align >/dev/null
fi
mkdir -p "$work"

# peak_mb NAME COMMAND...: runs the command, prints its peak RSS in MB.
peak_mb() {
  local log=$work/time.log
  /usr/bin/time -v -o "$log" "$@" >/dev/null 2>"$work/stderr.log" || {
    echo "bench-memory.sh: failed: $*" >&2; cat "$work/stderr.log" >&2; exit 1; }
  awk '/Maximum resident set size/ { printf "%.1f", $NF / 1024 }' "$log"
}

declare -A results
names=(bleu bleu-2refs chrf ter by-length align-ibm2 align-symmetrize align-eval)
for n in $sizes; do
  d=$work/$n
  mkdir -p "$d"
  if [ ! -s "$d/fr" ]; then
    { zcat "$corpus/train.en.gz" || true; } | head -n "$n" > "$d/en"  # zcat stops on SIGPIPE
    { zcat "$corpus/train.fr.gz" || true; } | head -n "$n" > "$d/fr"
    awk '{ $1 = ""; sub(/^ /, ""); print }' "$d/en" > "$d/hyp"
    tr 'A-Z' 'a-z' < "$d/en" > "$d/ref2"
  fi
  results[bleu,$n]=$(peak_mb "$bin/nmt-bleu" "$d/en" -i "$d/hyp" -m bleu --force)
  results[bleu-2refs,$n]=$(peak_mb "$bin/nmt-bleu" "$d/en" "$d/ref2" -i "$d/hyp" -m bleu --force)
  results[chrf,$n]=$(peak_mb "$bin/nmt-bleu" "$d/en" -i "$d/hyp" -m chrf)
  results[ter,$n]=$(peak_mb "$bin/nmt-bleu" "$d/en" -i "$d/hyp" -m ter)
  results[by-length,$n]=$(peak_mb "$bin/nmt-by-length" -s "$d/fr" -r "$d/en" -i "$d/hyp" -o "$d/by-length.txt")
  results[align-ibm2,$n]=$(peak_mb "$bin/nmt-align" ibm2 -s "$d/fr" -t "$d/en" -I "$iterations" --quiet \
    -o "$d/fwd.align")
  results[align-symmetrize,$n]=$(peak_mb "$bin/nmt-align" symmetrize -i "$d/fwd.align" -j "$d/fwd.align" \
    -o "$d/sym.align")
  results[align-eval,$n]=$(peak_mb "$bin/nmt-align" eval -g "$d/fwd.align" -a "$d/fwd.align")
done

first=${sizes%% *} last=${sizes##* }
printf '%-18s' "peak RSS (MB)"
for n in $sizes; do printf '%12s' "$n lines"; done
printf '%10s\n' growth
for name in "${names[@]}"; do
  printf '%-18s' "$name"
  for n in $sizes; do printf '%12s' "${results[$name,$n]}"; done
  awk -v a="${results[$name,$first]}" -v b="${results[$name,$last]}" 'BEGIN { printf "%9.1fx\n", b / a }'
done
