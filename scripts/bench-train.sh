#!/usr/bin/env bash
# Training throughput side by side, in one run: build/bench/train_bench and the PyTorch
# implementation of the same model in $NMT_SHARED/peer, on the same BPE'd Multi30k De-En
# data (scripts/prepare-multi30k.sh), the same configuration (emb 256, encoder 256 per
# direction, decoder 512, attention 512, maxout 256, dropout 0.2, 64 sentences per batch,
# 50-token limit) and the same number of threads. Prints both rates and their ratio;
# train_bench also trains with bf16 products where the CPU has them (a row per precision,
# each with its ratio to the same run's SGEMM rate).
#   scripts/bench-train.sh [--threads N] [--updates N] [--peer-minutes M] [--load N]
# --load N runs N busy threads beside each program (the machines are shared).
set -euo pipefail
cd "$(dirname "$0")/.."
threads=2 updates=150 peer_minutes=4 load=0
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) threads=$2; shift 2 ;;
    --updates) updates=$2; shift 2 ;;
    --peer-minutes) peer_minutes=$2; shift 2 ;;
    --load) load=$2; shift 2 ;;
    *) echo "bench-train.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
shared=${NMT_SHARED:-../shared}
./scripts/install-deps.sh --bench
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target train_bench nmt-tokenize nmt-bpe >/dev/null
data=build/bench-data/multi30k-de-en
./scripts/prepare-multi30k.sh "$data"

busy_pids=()
start_load() { for _ in $(seq 1 "$load"); do (while :; do :; done) & busy_pids+=($!); done; }
stop_load() { for p in "${busy_pids[@]}"; do kill "$p" 2>/dev/null || true; done; busy_pids=(); }
trap stop_load EXIT

echo "== rnnsearch (build/bench/train_bench, $threads thread(s), load $load)"
report=$(build/bench/train_bench --src "$data/train.bpe.de" --tgt "$data/train.bpe.en" --threads "$threads" \
  --updates "$updates" --load "$load")
echo "$report"
# One RESULT line per precision (fp32, and bf16 where the CPU has it); the peer trains in fp32.
ours=$(echo "$report" | sed -n 's/^RESULT precision=fp32 median_tokens_per_second=\([0-9]*\).*/\1/p')
ours_bf16=$(echo "$report" | sed -n 's/^RESULT precision=bf16 median_tokens_per_second=\([0-9]*\).*/\1/p')

echo "== PyTorch peer ($shared/peer/rnnsearch.py, $threads thread(s), load $load, $peer_minutes minutes)"
start_load
peer_log=build/bench-data/peer-train.log
OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 "$shared/peer/rnnsearch.py" --threads "$threads" train \
  --train-src "$data/train.bpe.de" --train-tgt "$data/train.bpe.en" \
  --val-src "$data/val.bpe.de" --val-tgt "$data/val.bpe.en" --save build/bench-data/peer.pt \
  --max-minutes "$peer_minutes" --log-every 50 --emb 256 --enc-hidden 256 --dec-hidden 512 --attn-dim 512 \
  --maxout-dim 256 --maxout-pieces 2 --dropout 0.2 --batch-size 64 --lr 5e-4 --clip 1.0 --max-len 50 \
  --seed 1234 2>&1 | tee "$peer_log" >&2
stop_load
# The step lines after the first 50 batches, as ../shared/peer/README.md reads them; their
# median. Under heavy load the peer may not get past 50 batches: then all its lines count.
peer_rates() {
  grep -E ' step [0-9]+ \|' "$peer_log" | awk -v skip="$1" '{ for (i = 1; i <= NF; ++i) { if ($i == "step") s = $(i + 1);
    if ($i == "tok/s") r = $(i + 1) } if (s > skip) print r }'
}
rates=$(peer_rates 50)
if [ -z "$rates" ]; then
  echo "(the peer logged nothing after its first 50 batches: its first lines are used)"
  rates=$(peer_rates 0)
fi
peer=$(echo "$rates" | sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1;
  print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
echo "== training throughput, target tokens/s (medians), $threads thread(s), load $load"
awk -v ours="$ours" -v peer="$peer" 'BEGIN { printf "rnnsearch %d   PyTorch %d   ratio %.2f\n", ours, peer, ours / peer }'
if [ -n "$ours_bf16" ]; then
  awk -v ours="$ours_bf16" -v peer="$peer" 'BEGIN { printf "rnnsearch bf16 %d   PyTorch (fp32) %d   ratio %.2f\n", ours, peer, ours / peer }'
fi
