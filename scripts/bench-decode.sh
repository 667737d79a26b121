#!/usr/bin/env bash
# Decoding speed side by side, in one run: build/bench/decode_bench (nmt-decode's library
# path) and the PyTorch implementation in $NMT_SHARED/peer, on Multi30k test_2016_flickr
# (BPE'd by scripts/prepare-multi30k.sh), the benchmark configuration, beam 1 and beam 5,
# 32 sentences per batch, the same threads. Prints sentences/s of both and their ratio, for
# each precision this CPU runs (fp32, int8, bf16 with avx512_bf16), without and with a
# lexical shortlist of the training text (nmt-align ibm2 --save-table, nmt-shortlist
# --first 100 --best 100).
#   scripts/bench-decode.sh [--model MODEL] [--peer-model PEER.pt] [--threads N] [--train-minutes M]
# Without --model / --peer-model, each side first trains its model for M minutes (default
# 3): speed hardly depends on quality, but translations of an untrained model run long.
set -euo pipefail
cd "$(dirname "$0")/.."
threads=2 minutes=3 model="" peer_model=""
while [ $# -gt 0 ]; do
  case "$1" in
    --model) model=$2; shift 2 ;;
    --peer-model) peer_model=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --train-minutes) minutes=$2; shift 2 ;;
    *) echo "bench-decode.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
shared=${NMT_SHARED:-../shared}
./scripts/install-deps.sh --bench
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target decode_bench nmt-train nmt-tokenize nmt-bpe >/dev/null
data=build/bench-data/multi30k-de-en
./scripts/prepare-multi30k.sh "$data"
work=build/bench-data/decode
mkdir -p "$work"
if [ -z "$model" ]; then
  model=$work/model.bin
  build/bin/nmt-train -t "$data/train.bpe.de" "$data/train.bpe.en" -m "$model" --overwrite --max-minutes "$minutes" \
    --threads "$threads" --quiet
fi
if [ -z "$peer_model" ]; then
  peer_model=$work/peer.pt
  OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 "$shared/peer/rnnsearch.py" --threads "$threads" train \
    --train-src "$data/train.bpe.de" --train-tgt "$data/train.bpe.en" --val-src "$data/val.bpe.de" \
    --val-tgt "$data/val.bpe.en" --save "$peer_model" --max-minutes "$minutes" --log-every 1000 >/dev/null 2>&1
fi
shortlist=$(./scripts/bench-shortlist.sh "$data" "$work" "$threads")
# Precisions this CPU runs: bf16 only with avx512_bf16.
precisions="fp32 int8"
grep -q avx512_bf16 /proc/cpuinfo && precisions="$precisions bf16"

for beam in 1 5; do
  echo "== beam $beam, $threads thread(s)"
  peer_rates=()
  for run in 1 2 3; do
    rate=$(OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 "$shared/peer/rnnsearch.py" --threads "$threads" translate \
      --model "$peer_model" --beam "$beam" --batch-size 32 < "$data/test_2016_flickr.bpe.de" 2>&1 >/dev/null |
      sed -n 's/.*| \([0-9.]*\) sent\/s |.*/\1/p')
    peer_rates+=("$rate")
  done
  peer=$(printf '%s\n' "${peer_rates[@]}" | sort -n | sed -n 2p)
  echo "PyTorch runs (sentences/s): ${peer_rates[*]}, median $peer"
  for precision in $precisions; do
    for list in none "$shortlist"; do
      options=(--precision "$precision")
      [ "$list" = none ] || options+=(--shortlist "$list")
      report=$(build/bench/decode_bench --model "$model" --src "$data/test_2016_flickr.bpe.de" --beam "$beam" \
        --threads "$threads" --runs 3 "${options[@]}")
      [ "$precision $list" = "fp32 none" ] && echo "$report"
      ours=$(echo "$report" | sed -n 's/^RESULT sentences_per_second=\([0-9.]*\).*/\1/p')
      awk -v ours="$ours" -v peer="$peer" -v beam="$beam" -v p="$precision" -v l="$([ "$list" = none ] && echo no ||
        echo yes)" 'BEGIN { printf "beam %d, %-4s, shortlist %-3s: rnnsearch %7.1f sentences/s   PyTorch %.1f   ratio %.2f\n",
        beam, p, l, ours, peer, ours / peer }'
    done
  done
done
