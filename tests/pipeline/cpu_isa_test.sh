#!/usr/bin/env bash
# One binary prints the same bytes on every CPU it runs on: nmt-decode (fp32 beam search
# with n-best lists and soft alignments; int8 with a shortlist; greedy), nmt-score (fp32 and
# int8), nmt-align (the model's soft and hard links; IBM Model 2's links and table; the HMM's
# agreed posterior links, its parameters and Viterbi links),
# nmt-tokenize, nmt-bpe (learn, apply) and nmt-bleu (BLEU, chrF, TER) give identical output
#   - with RNNSEARCH_CPU_ISA set to each level of instruction sets this CPU has (baseline,
#     avx2, avx512, avx512-vnni, avx512-bf16: each runs the kernels of that level), and
#   - under qemu's user-mode emulation of CPUs without AVX (-cpu Nehalem) and without
#     AVX-512 (-cpu Haswell-v4), for the portable build (Debian's qemu-user, which
#     scripts/install-deps.sh installs; required under CI=true, else the qemu part skips).
# A tiny model (a reversal task, a few seconds of nmt-train) is trained first.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR, NMT_SHARED.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"

echo "== a tiny reversal model, its vocabulary and a shortlist"
awk -v seed=7 -v n=1500 'BEGIN { srand(seed); for (i = 0; i < n; ++i) { len = 2 + int(rand() * 6); s = "";
  for (k = 0; k < len; ++k) s = s (k ? " " : "") "w" int(rand() * 10); print s } }' > "$work/train.src"
awk '{ for (k = NF; k >= 1; --k) printf "%s%s", $k, (k > 1 ? " " : "\n") }' "$work/train.src" > "$work/train.tgt"
head -60 "$work/train.src" > "$work/test.src"
head -60 "$work/train.tgt" > "$work/test.tgt"
"$bin/nmt-train" -t "$work/train.src" "$work/train.tgt" -m "$work/model.bin" --dim-emb 16 --dim-enc 24 \
  --dim-dec 40 --dim-att 20 --dim-maxout 16 --mini-batch 32 --dropout 0 -l 0.003 --max-updates 120 --quiet
"$bin/nmt-align" ibm2 -s "$work/train.src" -t "$work/train.tgt" --save-table "$work/table" -o "$work/links" -q
"$bin/nmt-vocab" -i "$work/train.tgt" -o "$work/vocab" -q
"$bin/nmt-shortlist" --table "$work/table" --target-vocab "$work/vocab" --first 3 --best 3 -o "$work/shortlist" -q

# Text for the text tools: 300 German and English sentences of Multi30k (shared data).
shared=${NMT_SHARED:?}
require_shared "$shared/data/multi30k/val.de.gz"
zcat "$shared/data/multi30k/val.de.gz" | sed -n 1,300p > "$work/text.de"
zcat "$shared/data/multi30k/val.en.gz" | sed -n 1,300p > "$work/text.en"

# run PREFIX...: every output of the set, into $work/PREFIX.*, by the command given first
# (an environment or an emulator, then the tool).
run_all() {
  local name=$1; shift
  local m=$work/model.bin s=$work/test.src t=$work/test.tgt
  "$@" "$bin/nmt-tokenize" -l de -q < "$work/text.de" > "$work/$name.tok"
  "$@" "$bin/nmt-bpe" learn -i "$work/$name.tok" -s 500 -o "$work/$name.codes" -q
  "$@" "$bin/nmt-bpe" apply -c "$work/$name.codes" -i "$work/$name.tok" -o "$work/$name.bpe" -q
  "$@" "$bin/nmt-bleu" "$work/text.en" -i "$work/text.de" -m bleu chrf ter -f text > "$work/$name.bleu"
  "$@" "$bin/nmt-align" ibm2 -s "$work/train.src" -t "$work/train.tgt" --save-table "$work/$name.table" -q \
    > "$work/$name.ibm2"
  "$@" "$bin/nmt-align" hmm -s "$work/text.de" -t "$work/text.en" --links agreed --threshold 0.3 \
    --save-params "$work/$name.hmm-params" -q > "$work/$name.hmm"
  "$@" "$bin/nmt-align" hmm -s "$work/text.de" -t "$work/text.en" --load-params "$work/$name.hmm-params" \
    --decode viterbi -q > "$work/$name.hmm-viterbi"
  "$@" "$bin/nmt-decode" -m "$m" -b 4 --n-best 3 --alignment soft -q < "$s" > "$work/$name.fp32"
  "$@" "$bin/nmt-decode" -m "$m" -b 1 --alignment hard -q < "$s" > "$work/$name.greedy"
  "$@" "$bin/nmt-decode" -m "$m" -b 4 --n-best 2 --precision int8 --shortlist "$work/shortlist" -q < "$s" \
    > "$work/$name.int8"
  "$@" "$bin/nmt-score" -m "$m" -s "$s" -t "$t" -q > "$work/$name.score"
  "$@" "$bin/nmt-score" -m "$m" -s "$s" -t "$t" --precision int8 -q > "$work/$name.score-int8"
  "$@" "$bin/nmt-align" -m "$m" -s "$s" -t "$t" --mode soft -q > "$work/$name.align-soft"
  "$@" "$bin/nmt-align" -m "$m" -s "$s" -t "$t" --mode hard -q > "$work/$name.align-hard"
}
outputs="tok codes bpe bleu ibm2 table hmm hmm-params hmm-viterbi fp32 greedy int8 score score-int8 align-soft align-hard"

# same_as REFERENCE NAME WHAT: every output of NAME is the bytes of REFERENCE's.
same_as() {
  local out
  for out in $outputs; do
    cmp -s "$work/$1.$out" "$work/$2.$out" || fail "$3: $out differs from $1's: $(diff "$work/$1.$out" "$work/$2.$out" | head -4)"
  done
}

echo "== the levels of this CPU"
run_all native env
[ -s "$work/native.fp32" ] && grep -q ' ||| 0\.[0-9]' "$work/native.fp32" || fail "no soft alignments to compare"
grep -q 'F0=' "$work/native.int8" || fail "no int8 n-best scores to compare"
levels=$(grep -o 'avx2\|avx512f\|avx512vnni\|avx512_vnni\|avx512_bf16\|avx512bf16' /proc/cpuinfo | sort -u | tr '\n' ' ')
tried="baseline"
run_all baseline env RNNSEARCH_CPU_ISA=baseline
same_as native baseline "RNNSEARCH_CPU_ISA=baseline"
for level in avx2 avx512 avx512-vnni avx512-bf16; do
  case $level in
    avx2) grep -qw avx2 <<< "$levels" || continue ;;
    avx512) grep -qw avx512f <<< "$levels" || continue ;;
    avx512-vnni) grep -qw 'avx512_vnni\|avx512vnni' <<< "$levels" || continue ;;
    avx512-bf16) grep -qw 'avx512_bf16\|avx512bf16' <<< "$levels" || continue ;;
  esac
  version=$(RNNSEARCH_CPU_ISA="$level" "$bin/nmt-decode" --version)
  grep -q "^kernels: $level, " <<< "$version" || fail "RNNSEARCH_CPU_ISA=$level: nmt-decode --version says $version"
  run_all "$level" env RNNSEARCH_CPU_ISA="$level"
  same_as native "$level" "RNNSEARCH_CPU_ISA=$level"
  tried="$tried $level"
done
echo "levels compared: $tried"

echo "== a bad level is a usage error"
set +e
RNNSEARCH_CPU_ISA=avx3 "$bin/nmt-decode" -m "$work/model.bin" -q < "$work/test.src" > "$work/bad.out" 2> "$work/bad.err"
code=$?
set -e
[ $code -eq 2 ] || fail "RNNSEARCH_CPU_ISA=avx3 exits $code, not 2: $(cat "$work/bad.err")"
grep -q 'RNNSEARCH_CPU_ISA=avx3: expected one of baseline, avx2, avx512, avx512-vnni, avx512-bf16' "$work/bad.err" ||
  fail "RNNSEARCH_CPU_ISA=avx3: $(cat "$work/bad.err")"

echo "== other CPUs under qemu"
if grep -q "^RNNSEARCH_NATIVE:BOOL=ON" "$build/CMakeCache.txt"; then
  echo "native build: it runs only on CPUs like this one (the cpu_guard test checks the refusal)"
elif ! command -v qemu-x86_64 > /dev/null; then
  [ "${CI:-}" = true ] && fail "qemu-x86_64 (Debian's qemu-user, installed by scripts/install-deps.sh) is missing"
  echo "SKIP: qemu-x86_64 (Debian's qemu-user) is not installed"
else
  for cpu in Nehalem Haswell-v4; do
    expected=baseline
    [ "$cpu" = Haswell-v4 ] && expected=avx2
    version=$(qemu-x86_64 -cpu "$cpu" "$bin/nmt-decode" --version 2> /dev/null)
    grep -q "^kernels: $expected, the highest level this CPU has" <<< "$version" ||
      fail "qemu -cpu $cpu: nmt-decode --version says $version"
    # qemu warns of CPU features its emulator leaves out (tsc-deadline, pcid, ...): not the tools' output.
    run_all "qemu-$cpu" qemu-x86_64 -cpu "$cpu" 2> >(grep -v '^qemu-x86_64: warning: TCG doesn' >&2)
    same_as native "qemu-$cpu" "qemu-x86_64 -cpu $cpu"
  done
  echo "qemu CPUs compared: Nehalem Haswell-v4"
fi
echo "cpu isa: ok"
