#!/usr/bin/env bash
# A training stage of Makefile.pipeline, run when its model is out of date:
#   train-model.sh MODEL OPTIONS_FILE LOG "INPUT FILES" NMT_TRAIN NMT_TRAIN_OPTIONS...
# NMT_TRAIN_OPTIONS (without --resume or --overwrite) name the working model with -m, in a
# folder of its own; MODEL, the stage's target, is a copy of it made when training ends.
# How it starts:
#   - MODEL stores exactly the requested options and no input file is newer than it (only
#     OPTIONS_FILE or the nmt-train binary was touched): MODEL is kept, and OPTIONS_FILE is
#     dated back to it so that make sees the stage up to date;
#   - the working model's checkpoint (WORKING.ckpt) belongs to a run of the requested
#     options and no input file is newer than it: training resumes where it stopped;
#   - otherwise training starts from scratch, and when that discards MODEL or a
#     checkpoint, one line on stderr says which and why.
# nmt-train's output goes to the terminal and to LOG (appended to when resuming).
set -euo pipefail
model=$1 options_file=$2 log=$3 inputs=$4 nmt_train=$5
shift 5
options=("$@")

working=
for ((i = 0; i + 1 < ${#options[@]}; i++)); do
  case ${options[i]} in -m | --model) working=${options[i + 1]} ;; esac
done
[ -n "$working" ] || { echo "train-model.sh: the nmt-train options name no model (-m)" >&2; exit 2; }
checkpoint=$working.ckpt

# The first input file newer than $1, if any.
first_newer_input() {
  local f
  for f in $inputs; do
    if [ "$f" -nt "$1" ]; then echo "$f"; return; fi
  done
}

# Whether model file $1 stores the requested options (nmt-train keeps its options in
# every model it writes; --dump-config without a model prints the requested ones). The
# comment lines a resumption with other options adds are not options.
stores_requested_options() {
  [ -f "$1" ] && cmp -s <("$nmt_train" --dump-config -m "$1" 2> /dev/null | grep -v '^#') \
    <("$nmt_train" "${options[@]}" --dump-config)
}

# Why file $1, whose options model file $2 stores, cannot be reused; nothing if it can.
reason_against() {
  local newer
  newer=$(first_newer_input "$1")
  if [ -n "$newer" ]; then echo "$newer is newer"
  elif ! stores_requested_options "$2"; then echo "the requested training options differ from those it stores"
  fi
}

if [ -f "$model" ]; then
  model_reason=$(reason_against "$model" "$model")
  if [ -z "$model_reason" ]; then
    touch -r "$model" "$options_file"
    echo "Makefile.pipeline: kept $model: it stores the requested options and no input is newer"
    exit 0
  fi
fi
start=--overwrite
if [ -f "$checkpoint" ]; then
  checkpoint_reason=$(reason_against "$checkpoint" "$working")
  if [ -z "$checkpoint_reason" ]; then
    start=--resume
  else
    echo "Makefile.pipeline: training $model from scratch, discarding the checkpoint $checkpoint:" \
         "$checkpoint_reason" >&2
  fi
elif [ -f "$model" ]; then
  echo "Makefile.pipeline: retraining $model from scratch: $model_reason" >&2
fi

mkdir -p "$(dirname "$working")" "$(dirname "$log")"
echo "nmt-train $start ${options[*]}"
"$nmt_train" "$start" "${options[@]}" 2>&1 | if [ $start = --resume ]; then tee -a "$log"; else tee "$log"; fi
cp "$working" "$model.tmp"
mv "$model.tmp" "$model"
