#!/usr/bin/env bash
# Decoding speed and BLEU at a realistic vocabulary, side by side in one run: the hansard36
# English -> French model (13,039 target pieces, `make -f Makefile.pipeline hansard36`) and
# the PyTorch peer's model of the same run, on the first N sentences of the hansard36 test
# set, 2 threads, 32 sentences per batch, beam 1 and beam 5. Rows: a baseline nmt-decode
# (e.g. the binary before a change, --baseline DIR), then this build's nmt-decode in each
# precision the CPU has, with and without a lexical shortlist, then the peer. Each speed is
# the median of --runs wall times of the whole tool (model loading included; the peer's
# figure is its own, loading excluded); BLEU is of the same N sentences, BPE undone,
# detokenized, cased, against the raw reference.
#   scripts/bench-decode-hansard36.sh [--dir work/hansard36] [--lines 2000] [--threads 2] [--runs 3]
#                                     [--baseline BIN_DIR] [--shortlist FILE] [--no-peer] [--avx2-proxy BUILD_DIR]
# --avx2-proxy measures the AVX2 machine kind on an AVX-512 one: this tree's nmt-decode built
# in BUILD_DIR for x86-64-v3 (configured here when new), oneDNN held to AVX2
# (ONEDNN_MAX_CPU_ISA=AVX2) and the peer's PyTorch too (ATEN_CPU_CAPABILITY=avx2); rows fp32
# and int8. The baseline should then be built the same way.
# Without --shortlist, one is made: nmt-align ibm2 on the first 200,000 training pairs
# (--save-table), then nmt-shortlist --first 100 --best 100 (as Marian's usual setting).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=work/hansard36 lines=2000 threads=2 runs=3 baseline="" shortlist="" peer=yes proxy=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --lines) lines=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    --shortlist) shortlist=$2; shift 2 ;;
    --no-peer) peer=no; shift ;;
    --avx2-proxy) proxy=$2; shift 2 ;;
    *) echo "bench-decode-hansard36.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
shared=${NMT_SHARED:-../shared}
for f in "$dir/model.en-fr.bin" "$dir/bpe/test.en" "$dir/raw/test.fr" "$dir/bpe/train.en" "$dir/bpe/train.fr" \
  "$dir/vocab.fr"; do
  [ -f "$f" ] || { echo "bench-decode-hansard36.sh: $f is missing: run make -f Makefile.pipeline hansard36" >&2; exit 1; }
done
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target nmt-decode nmt-align nmt-shortlist nmt-bpe nmt-detokenize nmt-bleu >/dev/null
bin=build/bin
decode_bin=$bin
precisions="fp32 int8"
grep -q avx512_bf16 /proc/cpuinfo && precisions="$precisions bf16"
kind=$(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2 only)
if [ -n "$proxy" ]; then
  [ -f "$proxy/CMakeCache.txt" ] || cmake -S . -B "$proxy" -DCMAKE_BUILD_TYPE=Release -DRNNSEARCH_NATIVE=OFF \
    -DCMAKE_CXX_FLAGS=-march=x86-64-v3 >/dev/null
  cmake --build "$proxy" -j "$(nproc)" --target nmt-decode >/dev/null
  export ONEDNN_MAX_CPU_ISA=AVX2 ATEN_CPU_CAPABILITY=avx2
  decode_bin=$proxy/bin precisions="fp32 int8" kind="AVX2 proxy ($proxy, ONEDNN_MAX_CPU_ISA=AVX2, ATEN_CPU_CAPABILITY=avx2)"
fi
work=build/bench-data/hansard36
mkdir -p "$work"
head -n "$lines" "$dir/bpe/test.en" > "$work/test.en"
head -n "$lines" "$dir/raw/test.fr" > "$work/test.fr"

if [ -z "$shortlist" ]; then
  shortlist=$work/shortlist.100-100
  if [ ! -f "$shortlist" ]; then
    head -n 200000 "$dir/bpe/train.en" > "$work/train.en"
    head -n 200000 "$dir/bpe/train.fr" > "$work/train.fr"
    "$bin"/nmt-align ibm2 -s "$work/train.en" -t "$work/train.fr" --save-table "$work/lex.en-fr" -q -o /dev/null
    "$bin"/nmt-shortlist --table "$work/lex.en-fr" --target-vocab "$dir/vocab.fr" --first 100 --best 100 \
      -o "$shortlist"
  fi
fi

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# time_decode NAME BIN BEAM [OPTIONS...]: prints "NAME sentences/s BLEU"
time_decode() {
  local name=$1 tool=$2 beam=$3; shift 3
  local out=$work/out.$name.beam$beam times=()
  for _ in $(seq 1 "$runs"); do
    local start end
    start=$(date +%s.%N)
    "$tool" -m "$dir/model.en-fr.bin" -i "$work/test.en" -o "$out" -b "$beam" --threads "$threads" --max-length 0 \
      --mini-batch 32 -q "$@"
    end=$(date +%s.%N)
    times+=("$(awk -v s="$start" -v e="$end" -v n="$lines" 'BEGIN { printf "%.2f", n / (e - s) }')")
  done
  "$bin"/nmt-bpe undo -i "$out" | "$bin"/nmt-detokenize -l fr > "$out.fr"
  local bleu
  bleu=$("$bin"/nmt-bleu "$work/test.fr" -i "$out.fr" -b -w 2)
  printf '%-28s %10s %8s   (runs: %s)\n' "$name" "$(printf '%s\n' "${times[@]}" | median)" "$bleu" "${times[*]}"
}

# peer_decode BEAM: prints "PyTorch peer sentences/s" (median of its own figures)
peer_decode() {
  local beam=$1 rates=()
  for _ in $(seq 1 "$runs"); do
    rates+=("$(OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 "$shared/peer/rnnsearch.py" --threads "$threads" translate \
      --model "$dir/peer/model.pt" --beam "$beam" --batch-size 32 < "$work/test.en" 2>&1 >/dev/null |
      sed -n 's/.*| \([0-9.]*\) sent\/s |.*/\1/p')")
  done
  printf '%-28s %10s %8s   (runs: %s)\n' "PyTorch peer" "$(printf '%s\n' "${rates[@]}" | median)" "-" "${rates[*]}"
}

echo "hansard36 En->Fr, first $lines test sentences, $threads threads, mini-batch 32, $(grep -m1 'model name' /proc/cpuinfo |
  sed 's/.*: //'), $kind"
echo "shortlist: $shortlist"
for beam in 1 5; do
  echo "== beam $beam: configuration, sentences/s (median of $runs), BLEU of the $lines sentences"
  rows=$work/rows.beam$beam
  : > "$rows"
  [ -n "$baseline" ] && time_decode baseline-fp32 "$baseline/nmt-decode" "$beam" | tee -a "$rows"
  for precision in $precisions; do
    time_decode "$precision" "$decode_bin/nmt-decode" "$beam" --precision "$precision" | tee -a "$rows"
    time_decode "$precision+shortlist" "$decode_bin/nmt-decode" "$beam" --precision "$precision" --shortlist "$shortlist" |
      tee -a "$rows"
  done
  [ "$peer" = yes ] && [ -f "$dir/peer/model.pt" ] && peer_decode "$beam" | tee -a "$rows"
  # Ratios of every row to the baseline (or fp32) and to the peer, measured in this run.
  awk '{ rate[NR] = $2; name[NR] = $1 } $1 == "PyTorch" { peer = $3; rate[NR] = $3; name[NR] = "peer" }
    END { base = rate[1]; for (i = 1; i <= NR; ++i) if (name[i] != "peer")
      printf "  %-26s %6.2fx %s   %s\n", name[i], rate[i] / base, name[1], peer ? sprintf("%6.2fx the peer", rate[i] / peer) : "" }' \
    "$rows"
done
