#!/usr/bin/env bash
# Marian (https://github.com/marian-nmt/marian), the field's C++ NMT toolkit, beside our
# RNNsearch on the same data, sizes, threads and training time. Marian is never part of this
# project: this script builds a local copy of it outside the checkout and runs it.
#
#   scripts/bench-marian.sh build
#       Builds Marian v1.12.0 for the CPU only. Environment:
#         MARIAN_DIR    a source copy of github.com/marian-nmt/marian v1.12.0 (required); a
#                       snapshot without its git submodules is enough
#         INTGEMM_DIR   a source copy of github.com/marian-nmt/intgemm (required unless
#                       MARIAN_DIR/src/3rd_party/intgemm already holds it)
#         MARIAN_BUILD  the build folder (default MARIAN_DIR/build)
#         JOBS          parallel compile jobs (default: the number of cores; about 20 minutes
#                       on 2 cores)
#       MARIAN_DIR is left untouched: its files are copied once to MARIAN_BUILD/source (remove
#       that folder to copy them again), and the copy is edited so that a snapshot builds
#       with GCC 12 and Debian's packages; each edit is made only when it is not there yet:
#         - intgemm (a git submodule, absent from a snapshot) copied from INTGEMM_DIR;
#         - SQLiteCpp's bundled sqlite3.c (absent from a snapshot) replaced by the system's
#           libsqlite3 (Debian libsqlite3-dev);
#         - -Werror dropped from Marian's and intgemm's warnings (GCC 12 warns where the
#           authors' compilers did not);
#         - without a .git folder, the version header Marian writes from `git log` is
#           written here instead.
#       Configured with -DCOMPILE_CPU=on -DCOMPILE_CUDA=off -DUSE_SENTENCEPIECE=off
#       -DUSE_FBGEMM=off -DCOMPILE_SERVER=off -DUSE_MKL=off; targets marian_train
#       (MARIAN_BUILD/marian), marian_decoder (marian-decoder) and marian_conv (marian-conv,
#       for the 8-bit model). Debian packages: cmake g++ make zlib1g-dev libopenblas-dev
#       libsqlite3-dev (checked first, each named when missing).
#
#   scripts/bench-marian.sh run --data DIR --out OUT [options] [-- MARIAN_OPTIONS...]
#       Trains one Marian model on the BPE'd training text of a Makefile.pipeline run (DIR,
#       its OUT: bpe/train.SRC and .TGT, the text nmt-train reads) with our vocabularies
#       (DIR/vocab.SRC and .TGT, </s> and <unk> added), for --minutes of training on
#       --threads threads, then translates each --sets set (DIR/bpe/SET.SRC) with beam
#       --beam in 32-sentence batches, undoes BPE and detokenizes with nmt-bpe undo and
#       nmt-detokenize as the pipeline does, and scores BLEU and chrF with nmt-bleu against
#       DIR/raw/SET.TGT. Marian comes from MARIAN_BUILD (else MARIAN_DIR/build).
#       Options:
#         --data DIR       the pipeline's OUT (required)
#         --out OUT        where the model, translations, logs and summary go (required)
#         --name NAME      the system's name in the summary (default: the folder's name)
#         --src L, --tgt L the languages (default en, fr)
#         --minutes M      training time, from Marian's "Training started" to SIGTERM
#                          (--sigterm save-and-exit: the update under way ends, the model is
#                          saved) (default 20)
#         --threads N      Marian's --cpu-threads for training and decoding, and its
#                          --data-threads (batch preparation, 8 by default); OpenBLAS and
#                          OpenMP held to the same (default 1)
#         --beam N         beam size (default 5)
#         --sets LIST      sets to translate and score, space-separated (default "valid test")
#         --bin BIN        the nmt-* tools (default build/bin)
#       MARIAN_OPTIONS are added to the defaults below, and replace a default of the same
#       name. The defaults give Marian our hansard36 model and training: --type s2s,
#       --dim-emb 256, --dim-rnn 256, --mini-batch 64, --maxi-batch 20 (our --sort-window),
#       --max-length 80, --dropout-rnn 0.1 (Marian's s2s has no dropout on embeddings and
#       the deep output as ours; its variational RNN dropout covers the embeddings the RNNs
#       read), --label-smoothing 0.1, --optimizer adam --learn-rate 0.001 --clip-norm 1
#       (nmt-train's defaults), --cost-type ce-mean-words (our cost: the mean over target
#       tokens), --seed 1234, no validation.
#       --dim-rnn 256: Marian's s2s has one RNN size for the encoder (per direction) and the
#       decoder, and sizes its attention layer by the context (2 x dim-rnn). Ours has an
#       encoder of 256 per direction, a decoder of 512 and attention of 512. 256 matches our
#       encoder, attention and deep output exactly and gives the nearest parameter count
#       (Marian 256: about 1.5 M fewer than ours; 512: about 4 M more, with 4 times our
#       encoder's recurrent work); only Marian's decoder state is smaller than ours.
#       Marian's deep output (ff_logit_l1) is dim-emb wide, like our 256-wide maxout.
#       Summary: OUT/summary.txt, 'key: value' lines: name, options (MARIAN_OPTIONS), the
#       defaults kept beside them, minutes, updates, target tokens seen, train target
#       tokens/s, parameters, vocabularies, SET BLEU and chrF, decoding sentences/s per set,
#       and the 8-bit path's outcome (below); also printed.
#       Target tokens are Marian's labels: every target token and each sentence's </s>,
#       without padding (its 'words/s'), as nmt-train counts them; tokens/s is labels over
#       the training time. Decoding speed is the whole tool's wall time (model loading
#       included), as Makefile.pipeline times nmt-decode.
#       8-bit: Marian v1.12's CPU int8 GEMM without FBGEMM is intgemm, applied to a model
#       converted by `marian-conv --gemm-type intgemm8` (its decoder's own --gemm-type only
#       offers float32 and the FBGEMM types, absent from this build). The test set is
#       translated with that model too when marian-conv exists; whether it works, its
#       speed and BLEU go to the summary as 'int8'.
# Exit status: 0 success, 1 a failed step (named), 2 a usage error.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0; }
die_usage() { echo "bench-marian.sh: $1" >&2; echo "(bench-marian.sh --help tells how to run it)" >&2; exit 2; }
die() { echo "bench-marian.sh: $1" >&2; exit 1; }

# ---- build ------------------------------------------------------------------------------
# check_build_packages: the Debian packages the build needs, each named when missing.
check_build_packages() {
  local missing=()
  command -v cmake > /dev/null || missing+=(cmake)
  command -v g++ > /dev/null || missing+=(g++)
  command -v make > /dev/null || missing+=(make)
  [ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
  [ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
  compgen -G '/usr/include/*/cblas.h' > /dev/null || [ -f /usr/include/cblas.h ] ||
    compgen -G '/usr/include/*/cblas-openblas.h' > /dev/null || missing+=(libopenblas-dev)
  [ ${#missing[@]} -eq 0 ] ||
    die "Marian's build needs the Debian packages: ${missing[*]} (sudo apt-get install ${missing[*]})"
}

# edit_once FILE PATTERN_THERE_WHEN_DONE SED_SCRIPT WHAT: applies SED_SCRIPT to FILE unless
# it already matches the finished pattern, then checks that it does.
edit_once() {
  local file=$1 done_pattern=$2 script=$3 what=$4
  [ -f "$file" ] || die "$file is missing: is MARIAN_DIR a copy of Marian v1.12.0?"
  grep -Eq -- "$done_pattern" "$file" && return 0
  sed -i -E "$script" "$file"
  grep -Eq -- "$done_pattern" "$file" ||
    die "could not $what in $file: is MARIAN_DIR a copy of Marian v1.12.0?"
}

# patch_copy SRC: the edits that let a v1.12.0 snapshot build here (see --help).
patch_copy() {
  local src=$1 intgemm=$1/src/3rd_party/intgemm
  if [ ! -f "$intgemm/CMakeLists.txt" ]; then
    [ -n "${INTGEMM_DIR:-}" ] ||
      die "$MARIAN_DIR/src/3rd_party/intgemm is empty (a git submodule): set INTGEMM_DIR to a copy of github.com/marian-nmt/intgemm"
    [ -f "$INTGEMM_DIR/CMakeLists.txt" ] && [ -d "$INTGEMM_DIR/intgemm" ] ||
      die "INTGEMM_DIR=$INTGEMM_DIR does not hold intgemm's sources (CMakeLists.txt, intgemm/)"
    mkdir -p "$intgemm"
    tar -C "$INTGEMM_DIR" --exclude=./.git -cf - . | tar -C "$intgemm" -xf -
  fi
  # Match the file line alone (a deleted line leaves no pattern to find: check its absence).
  local sqlite_list=$src/src/3rd_party/SQLiteCpp/CMakeLists.txt
  [ -f "$sqlite_list" ] || die "$sqlite_list is missing: is MARIAN_DIR a copy of Marian v1.12.0?"
  sed -i -E '/^[[:space:]]*sqlite3\/sqlite3\.c[[:space:]]*$/d' "$sqlite_list"
  edit_once "$src/CMakeLists.txt" 'set\(EXT_LIBS \$\{EXT_LIBS\} \$\{CMAKE_DL_LIBS\} sqlite3\)' \
    's/^set\(EXT_LIBS \$\{EXT_LIBS\} \$\{CMAKE_DL_LIBS\}\)$/set(EXT_LIBS ${EXT_LIBS} ${CMAKE_DL_LIBS} sqlite3)/' \
    "link the system's libsqlite3"
  edit_once "$src/CMakeLists.txt" 'ALL_WARNINGS -Wall; -Wextra;' 's/ALL_WARNINGS -Wall; -Werror; -Wextra;/ALL_WARNINGS -Wall; -Wextra;/' \
    "drop -Werror"
  edit_once "$intgemm/CMakeLists.txt" 'add_compile_options\(-Wall -Wextra -pedantic -Wno-unknown-pragmas\)' \
    's/add_compile_options\(-Wall -Wextra -pedantic -Werror -Wno-unknown-pragmas\)/add_compile_options(-Wall -Wextra -pedantic -Wno-unknown-pragmas)/' \
    "drop intgemm's -Werror"
  # src/CMakeLists.txt regenerates common/git_revision.h from `git log` whenever .git/logs/HEAD
  # is newer; a copy without .git gets both, the header the newer.
  if [ ! -d "$src/.git" ]; then
    local revision
    revision="$(cat "$src/VERSION" 2> /dev/null || echo unknown) source copy"
    if git -C "$MARIAN_DIR" rev-parse --git-dir > /dev/null 2>&1; then
      revision=$(git -C "$MARIAN_DIR" log -1 --pretty=format:'%h %ai')
    fi
    mkdir -p "$src/.git/logs"
    [ -f "$src/.git/logs/HEAD" ] || touch -d '2000-01-01' "$src/.git/logs/HEAD"
    printf '#define GIT_REVISION "%s"\n' "$revision" > "$src/src/common/git_revision.h"
  fi
}

build_marian() {
  [ -n "${MARIAN_DIR:-}" ] || die "set MARIAN_DIR to a source copy of github.com/marian-nmt/marian v1.12.0"
  [ -f "$MARIAN_DIR/CMakeLists.txt" ] && [ -d "$MARIAN_DIR/src/3rd_party" ] ||
    die "MARIAN_DIR=$MARIAN_DIR is not a Marian source copy (no CMakeLists.txt or src/3rd_party)"
  check_build_packages
  MARIAN_DIR=$(cd "$MARIAN_DIR" && pwd)
  local build=${MARIAN_BUILD:-$MARIAN_DIR/build}
  mkdir -p "$build"
  build=$(cd "$build" && pwd)
  local src=$build/source
  if [ ! -f "$src/.copied" ]; then
    echo "bench-marian.sh: copying $MARIAN_DIR to $src (the edits go to the copy)"
    rm -rf "$src"
    mkdir -p "$src"
    # The build folder may lie inside MARIAN_DIR: leave it out of the copy.
    local exclude=()
    case $build/ in "$MARIAN_DIR"/*) exclude=(--exclude="./${build#"$MARIAN_DIR"/}") ;; esac
    tar -C "$MARIAN_DIR" "${exclude[@]}" --exclude=./.git -cf - . | tar -C "$src" -xf -
    touch "$src/.copied"
  fi
  patch_copy "$src"
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCOMPILE_CPU=on -DCOMPILE_CUDA=off \
    -DUSE_SENTENCEPIECE=off -DUSE_FBGEMM=off -DCOMPILE_SERVER=off -DUSE_MKL=off ||
    die "cmake could not configure Marian in $build"
  cmake --build "$build" -j "${JOBS:-$(nproc)}" --target marian_train marian_decoder marian_conv ||
    die "Marian's build failed in $build"
  echo "bench-marian.sh: built $build/marian, $build/marian-decoder and $build/marian-conv"
}

# ---- run --------------------------------------------------------------------------------
# marian_defaults USER_OPTIONS...: prints the defaults (one option and its values a line)
# whose name the user's options do not give.
marian_defaults() {
  local -A given=()
  local word
  for word in "$@"; do [[ $word == --* ]] && given[${word%%=*}]=1; done
  local defaults=("--type s2s" "--dim-emb 256" "--dim-rnn 256" "--mini-batch 64" "--maxi-batch 20"
    "--max-length 80" "--dropout-rnn 0.1" "--label-smoothing 0.1" "--optimizer adam" "--learn-rate 0.001"
    "--clip-norm 1" "--cost-type ce-mean-words" "--seed 1234")
  local d
  for d in "${defaults[@]}"; do [ -n "${given[${d%% *}]:-}" ] || echo "$d"; done
}

# marian_vocab OURS OUT: our vocabulary ('token count' lines) as Marian's plain-text one,
# filled up to a multiple of 64 entries with tokens no text holds (<fill-N>): intgemm's
# AVX-512 kernels need the output layer's width to be a multiple of 64 (the 8-bit model
# aborts otherwise), at the cost of at most 63 unused rows.
marian_vocab() {
  { printf '</s>\n<unk>\n'; cut -d' ' -f1 "$1"; } |
    awk 'NF && !seen[$0]++ {print; n++} END {for (i = 1; n % 64; i++) {print "<fill-" i ">"; n++}}' > "$2"
}

# train_for_minutes LOG MINUTES COMMAND...: runs COMMAND in the background and sends SIGTERM
# MINUTES after its log says "Training started"; fails when it ends otherwise.
train_for_minutes() {
  local log=$1 minutes=$2
  shift 2
  "$@" &
  local pid=$! waited=0
  while kill -0 $pid 2> /dev/null && ! grep -q 'Training started' "$log" 2> /dev/null; do sleep 1; done
  local budget
  budget=$(awk -v m="$minutes" 'BEGIN {printf "%d", m * 60}')
  while kill -0 $pid 2> /dev/null && [ $waited -lt "$budget" ]; do sleep 1; waited=$((waited + 1)); done
  kill -0 $pid 2> /dev/null || { wait $pid || die "Marian's training stopped early (exit $?): $log"; }
  kill -TERM $pid
  # --sigterm save-and-exit saves, then ends with the signal's status (128 + 15).
  local status=0
  wait $pid || status=$?
  [ $status -eq 0 ] || [ $status -eq 143 ] || die "Marian did not save and exit on SIGTERM (exit $status): $log"
  grep -q 'Saving model weights' "$log" || die "Marian did not save its model on SIGTERM: $log"
}

# parameter_count NPZ: the number of weights in a Marian .npz (each array's shape, from the
# .npy headers), its config entry left out.
parameter_count() {
  python3 - "$1" << 'EOF' 2> /dev/null || echo unknown
import ast, sys, zipfile
total = 0
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in z.namelist():
        if name.startswith("special:"):
            continue
        with z.open(name) as f:
            major = f.read(8)[6]
            size = int.from_bytes(f.read(2 if major == 1 else 4), "little")
            shape = ast.literal_eval(f.read(size).decode("latin1"))["shape"]
        n = 1
        for d in shape:
            n *= d
        total += n
print(total)
EOF
}

# decode MODEL SET SUFFIX: SET.SUFFIX.bpe, the detokenized SET.SUFFIX.TGT, the timing
# line in decode.SET.SUFFIX.log; fails when the decoder fails.
decode() {
  local model=$1 set=$2 suffix=$3 start
  start=$(date +%s%N)
  "$marian_build/marian-decoder" -m "$model" -v "$out/vocab.$src.txt" "$out/vocab.$tgt.txt" --beam-size "$beam" \
    --normalize 1 --mini-batch 32 --maxi-batch 10 --maxi-batch-sort src --max-length-factor 2 \
    --cpu-threads "$threads" --quiet -i "$data/bpe/$set.$src" -o "$out/$set.$suffix.bpe" \
    2> "$out/decode.$set.$suffix.stderr" || return 1
  local ms=$((($(date +%s%N) - start) / 1000000))
  echo "$(wc -l < "$out/$set.$suffix.bpe") sentences in $ms ms, beam $beam, $threads threads" \
    > "$out/decode.$set.$suffix.log"
  "$bin/nmt-bpe" undo -i "$out/$set.$suffix.bpe" | "$bin/nmt-detokenize" -l "$tgt" > "$out/$set.$suffix.$tgt"
  "$bin/nmt-bleu" "$data/raw/$set.$tgt" -i "$out/$set.$suffix.$tgt" -m bleu chrf -f text > "$out/$set.$suffix.scores"
}

# score_of FILE METRIC: the BLEU or chrF2 figure of an nmt-bleu text report.
score_of() { awk -v m="$2" '$1 ~ "^" m "\\|" {for (i = 1; i < NF; i++) if ($i == "=") {print $(i + 1); exit}}' "$1"; }
# speed_of LOG: sentences per second of a decode.*.log line.
speed_of() { awk '{printf "%.2f", $1 / ($4 / 1000)}' "$1"; }

run_marian() {
  data="" out="" name="" src=en tgt=fr minutes=20 threads=1 beam=5 sets="valid test" bin=build/bin
  while [ $# -gt 0 ]; do
    case "$1" in
      --data|--out|--name|--src|--tgt|--minutes|--threads|--beam|--sets|--bin)
        [ $# -ge 2 ] || die_usage "option $1 needs a value" ;;&
      --data) data=$2; shift 2 ;;
      --out) out=$2; shift 2 ;;
      --name) name=$2; shift 2 ;;
      --src) src=$2; shift 2 ;;
      --tgt) tgt=$2; shift 2 ;;
      --minutes) minutes=$2; shift 2 ;;
      --threads) threads=$2; shift 2 ;;
      --beam) beam=$2; shift 2 ;;
      --sets) sets=$2; shift 2 ;;
      --bin) bin=$2; shift 2 ;;
      --) shift; break ;;
      *) die_usage "unknown option $1" ;;
    esac
  done
  [ -n "$data" ] && [ -n "$out" ] || die_usage "run needs --data DIR and --out OUT"
  marian_build=${MARIAN_BUILD:-${MARIAN_DIR:+$MARIAN_DIR/build}}
  [ -n "$marian_build" ] || die "set MARIAN_BUILD (or MARIAN_DIR) to Marian's build folder (scripts/bench-marian.sh build)"
  [ -x "$marian_build/marian" ] && [ -x "$marian_build/marian-decoder" ] ||
    die "$marian_build has no marian and marian-decoder: build them with scripts/bench-marian.sh build"
  local f
  for f in "$data/bpe/train.$src" "$data/bpe/train.$tgt" "$data/vocab.$src" "$data/vocab.$tgt" \
    $(for s in $sets; do echo "$data/bpe/$s.$src" "$data/raw/$s.$tgt"; done); do
    [ -f "$f" ] || die "$f is missing: run Makefile.pipeline's preparation for $data first"
  done
  for f in nmt-bpe nmt-detokenize nmt-bleu; do [ -x "$bin/$f" ] || die "$bin/$f is missing (--bin)"; done
  name=${name:-$(basename "$out")}
  mkdir -p "$out"
  rm -f "$out"/model.npz* "$out/train.log" "$out/summary.txt"
  marian_vocab "$data/vocab.$src" "$out/vocab.$src.txt"
  marian_vocab "$data/vocab.$tgt" "$out/vocab.$tgt.txt"
  local defaults options
  defaults=$(marian_defaults "$@" | paste -sd ' ')
  options="$defaults${*:+ $*}"
  # One core each: Marian's --cpu-threads does not hold OpenBLAS's or OpenMP's own threads.
  export OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads
  echo "bench-marian.sh: training $name for $minutes minutes: marian $options"
  # shellcheck disable=SC2086 # the options are words
  train_for_minutes "$out/train.log" "$minutes" "$marian_build/marian" $options \
    -m "$out/model.npz" -t "$data/bpe/train.$src" "$data/bpe/train.$tgt" \
    -v "$out/vocab.$src.txt" "$out/vocab.$tgt.txt" --cpu-threads "$threads" --data-threads "$threads" \
    --sigterm save-and-exit \
    --disp-freq 500 --save-freq 1000000 --log "$out/train.log" --quiet
  [ -f "$out/model.npz" ] || die "Marian saved no model: $out/train.log"

  local summary=$out/summary.txt.tmp updates labels seconds
  updates=$(awk '/^batches:/ {print $2}' "$out/model.npz.progress.yml")
  labels=$(awk '/^labels-total:/ {print $2}' "$out/model.npz.progress.yml")
  seconds=$(awk '/Training started/ {s = $2} /Saving model weights/ && !e {e = $2} END {
      split(s, a, ":"); split(e, b, ":"); d = (b[1] * 3600 + b[2] * 60 + b[3]) - (a[1] * 3600 + a[2] * 60 + a[3]);
      if (d < 0) d += 86400; print d}' "$out/train.log")
  {
    echo "name: $name"
    echo "options: $*"
    echo "with the defaults: $defaults"
    echo "minutes: $minutes"
    echo "updates: $updates"
    echo "target tokens seen: $labels"
    echo "train target tokens/s: $(awk -v l="$labels" -v s="$seconds" 'BEGIN {printf "%.0f", (s > 0 ? l / s : 0)}')"
    echo "parameters: $(parameter_count "$out/model.npz")"
    echo "vocabularies: $(wc -l < "$out/vocab.$src.txt") $src, $(wc -l < "$out/vocab.$tgt.txt") $tgt (ours, </s> and <unk> added, filled to a multiple of 64)"
  } > "$summary"
  local set
  for set in $sets; do
    decode "$out/model.npz" "$set" fp32 || die "marian-decoder failed: $out/decode.$set.fp32.stderr"
    echo "$set BLEU: $(score_of "$out/$set.fp32.scores" BLEU)" >> "$summary"
    echo "$set chrF: $(score_of "$out/$set.fp32.scores" chrF2)" >> "$summary"
    echo "$set decode sentences/s: $(speed_of "$out/decode.$set.fp32.log")" >> "$summary"
  done
  int8_test >> "$summary"
  mv "$summary" "$out/summary.txt"
  cat "$out/summary.txt"
}

# int8_test: the 'int8: ...' summary line of the test set with an intgemm8 model.
int8_test() {
  local set
  set=$(echo $sets | awk '{print $NF}')
  if [ ! -x "$marian_build/marian-conv" ]; then
    echo "int8: not run, $marian_build has no marian-conv"
  elif ! "$marian_build/marian-conv" -f "$out/model.npz" -t "$out/model.intgemm8.bin" --gemm-type intgemm8 \
      > "$out/conv.log" 2>&1; then
    echo "int8: marian-conv --gemm-type intgemm8 failed ($(tail -n 1 "$out/conv.log"))"
  elif ! decode "$out/model.intgemm8.bin" "$set" int8; then
    echo "int8: marian-decoder failed on the intgemm8 model: $(grep -m1 -iE 'error|abort|assert' \
      "$out/decode.$set.int8.stderr" | cut -c1-200)"
  else
    local same
    same=$(paste -d '\t' "$out/$set.fp32.bpe" "$out/$set.int8.bpe" | awk -F'\t' '$1 == $2 {n++} END {printf "%.0f", 100 * n / NR}')
    echo "int8: $set BLEU $(score_of "$out/$set.int8.scores" BLEU), chrF $(score_of "$out/$set.int8.scores" chrF2)," \
         "$(speed_of "$out/decode.$set.int8.log") sentences/s, $same% of the lines as fp32's (marian-conv --gemm-type intgemm8)"
  fi
}

case "${1:-}" in
  build) shift; [ $# -eq 0 ] || die_usage "build takes no arguments (environment: MARIAN_DIR, INTGEMM_DIR, MARIAN_BUILD)"
    build_marian ;;
  run) shift; run_marian "$@" ;;
  -h|--help) usage ;;
  *) die_usage "the first argument must be build or run" ;;
esac
