#!/usr/bin/env bash
# Makefile.pipeline extends a finished training run asked only for a larger budget
# (pipelines/stages/train-model.sh), on a small generated corpus and a tiny model:
#   - --max-updates 40, then 80: the run resumes from its checkpoint (--resume, a line
#     saying it extends the model from update 40, nothing "from scratch"), and the model
#     equals one trained for 80 updates at once: the same parameters, the same stored
#     options but for the comment line nmt-train adds on resuming with other options;
#   - the extended model is then up to date (make -q), and kept when its options file is
#     touched;
#   - TRAIN_MINUTES raised on a finished run resumes it; a budget raised to 0 (no limit)
#     counts as larger;
#   - a smaller budget, or another option changed, trains from scratch, saying why.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"

"$bin/nmt-demo-corpus" -o "$work/corpus" --train 800 --valid 30 --test 30 --seed 5 > /dev/null 2>&1
vars=(BUILD="$build" THREADS=2 BPE_MERGES=300 CONFIG=custom CORPUS_DIR="$work/corpus" SRC=xa TGT=xb
      DIRECTIONS=forward BEAMS=1 TRAIN_MINUTES=
      "MODEL_OPTS=--dim-emb 16 --dim-enc 32 --dim-dec 32 --dim-att 32 --dim-maxout 16")
# train OUT TRAIN_OPTS-tail [VARIABLE=value...]: the model of OUT, nmt-train's and the
# stage's lines in OUT.out (stdout and stderr).
train() {
  local out=$1 budget=$2
  shift 2
  make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" OUT="$out" \
    "TRAIN_OPTS=--mini-batch 32 --valid-freq 20 --log-freq 20 --final-model last $budget" "$@" \
    "$out/model.xa-xb.bin" > "$out.out" 2>&1 || { tail -20 "$out.out"; fail "training $out ($budget $*)"; }
}
expect_extended() {  # OUT WHAT
  grep -q "^Makefile.pipeline: extending $1/model.xa-xb.bin from update [0-9]* .*$2" "$1.out" ||
    fail "no line says $1 is extended with $2: $(grep -v '^epoch\|^validation' "$1.out" | head -5)"
  grep -q "^nmt-train --resume " "$1.out" || fail "$1 was not resumed"
  grep -q "from scratch" "$1.out" && fail "$1 was trained from scratch: $(grep "from scratch" "$1.out")"
  return 0
}
expect_scratch() {  # OUT WHY
  grep -q "^Makefile.pipeline: training $1/model.xa-xb.bin from scratch, discarding the checkpoint .*: $2" "$1.out" ||
    fail "no line says why $1 trains from scratch ($2): $(grep -v '^epoch\|^validation' "$1.out" | head -5)"
  grep -q "^nmt-train --overwrite " "$1.out" || fail "$1 was not trained from scratch"
}
# The model file but its 40-byte header and its stored options (the text at the end, after
# its 8-byte length): the configuration, vocabularies and parameters.
parameters() {
  perl -0777 -ne 'my $i = index($_, "train-sets = "); my $c = index($_, "# resumed after update");
                  $i = $c if $c >= 0 && $c < $i; die "no stored options\n" if $i < 0;
                  print substr($_, 40, $i - 8 - 40)' "$1"
}

echo "== --max-updates 40, then 80: extended, equal to 80 at once"
a=$work/a b=$work/b  # names of one length: the stored options' paths line up
train "$a" "--max-updates 40"
grep -q "^nmt-train --overwrite " "$a.out" || fail "the first run did not start afresh"
cp "$a/model.xa-xb.bin" "$work/model.40"
train "$a" "--max-updates 80"
expect_extended "$a" "the larger budget --max-updates 80 (was 40)"
grep -q "from update 40 " "$a.out" || fail "the line does not say the run is extended from update 40"
grep -q "^training ended at update 80 " "$a.out" || fail "the extended run did not end at update 80"
train "$b" "--max-updates 80"
cmp -s <(parameters "$work/model.40") <(parameters "$a/model.xa-xb.bin") && fail "40 and 80 updates give one model"
cmp <(parameters "$a/model.xa-xb.bin") <(parameters "$b/model.xa-xb.bin") ||
  fail "the model extended from 40 to 80 updates differs from 80 at once"
stored_a=$("$bin/nmt-train" --dump-config -m "$a/model.xa-xb.bin")
stored_b=$("$bin/nmt-train" --dump-config -m "$b/model.xa-xb.bin")
[ "$(grep '^#' <<< "$stored_a")" = "# resumed after update 40 with max-updates = 80 (was 40)" ] ||
  fail "the extended model's comment lines: $(grep '^#' <<< "$stored_a")"
diff <(grep -v '^#' <<< "$stored_a" | sed "s|$a/|OUT/|g") <(sed "s|$b/|OUT/|g" <<< "$stored_b") ||
  fail "the extended model's options differ from those of 80 updates at once"

echo "== the extended model is up to date, and kept"
make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" OUT="$a" -q "$a/model.xa-xb.bin" \
  "TRAIN_OPTS=--mini-batch 32 --valid-freq 20 --log-freq 20 --final-model last --max-updates 80" ||
  fail "make -q says the extended model is out of date"
sleep 1
touch "$a/config/train.xa-xb.opts"
cp "$a/model.xa-xb.bin" "$work/model.80"
train "$a" "--max-updates 80"
grep -q "^Makefile.pipeline: kept $a/model.xa-xb.bin" "$a.out" || fail "the extended model was not kept: $(head -3 "$a.out")"
cmp -s "$work/model.80" "$a/model.xa-xb.bin" || fail "keeping the extended model changed it"

# No early stopping: the time limit ends these runs whatever the load.
echo "== TRAIN_MINUTES raised, then no update limit"
c=$work/c
train "$c" "--early-stopping 0 --max-updates 100000" TRAIN_MINUTES=0.04
grep -q "^training ended at update [0-9]* (--max-minutes " "$c.out" || fail "the first timed run did not end on time"
first=$(grep -o '^training ended at update [0-9]*' "$c.out" | grep -o '[0-9]*$')
train "$c" "--early-stopping 0 --max-updates 100000" TRAIN_MINUTES=0.08
expect_extended "$c" "the larger budget --max-minutes 0.08 (was 0.04)"
grep -q "^resuming at update $first " "$c.out" || fail "the longer run did not resume at update $first"
train "$c" "--early-stopping 0 --max-updates 0" TRAIN_MINUTES=0.08
expect_extended "$c" "the larger budget --max-updates 0 (was 100000)"

echo "== a smaller budget, another option: from scratch"
train "$a" "--max-updates 60"
expect_scratch "$a" "the requested budget is smaller: --max-updates 60 (was 80)"
train "$a" "--max-updates 80" EXTRA_TRAIN_OPTS="--dropout 0.3"
expect_scratch "$a" "the requested training options differ from those it stores"
echo "all pipeline extension checks passed"
