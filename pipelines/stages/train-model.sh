#!/usr/bin/env bash
# A training stage of Makefile.pipeline, run when its model is out of date:
#   train-model.sh MODEL OPTIONS_FILE LOG "INPUT FILES" NMT_TRAIN NMT_TRAIN_OPTIONS...
# NMT_TRAIN_OPTIONS (without --resume or --overwrite) name the working model with -m, in a
# folder of its own; MODEL, the stage's target, is a copy of it made when training ends.
# The working folder keeps the run's checkpoint (WORKING.ckpt), finished or not. How it starts:
#   - MODEL stores exactly the requested options (or is a copy of the working model whose
#     checkpoint does) and no input file is newer than it (only OPTIONS_FILE or the
#     nmt-train binary was touched): MODEL is kept, and OPTIONS_FILE is dated back to it so
#     that make sees the stage up to date;
#   - the checkpoint belongs to a run of the requested options and no input file is newer
#     than it: training resumes where it stopped;
#   - the checkpoint's options differ from the requested ones only in a budget
#     (--max-minutes, --max-updates, --max-epochs), every changed one larger (0 is no
#     limit, the largest): training resumes too, extending the run (a line on stdout says
#     so); nmt-train records the change as a comment line in the options it stores;
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
budgets='^(max-minutes|max-updates|max-epochs) = '

# The first input file newer than $1, if any.
first_newer_input() {
  local f
  for f in $inputs; do
    if [ "$f" -nt "$1" ]; then echo "$f"; return; fi
  done
}

# The options model file $1 stores (nmt-train keeps its options in every model and
# checkpoint it writes), and the requested ones (--dump-config without a model). The
# comment lines a resumption with other options adds are not options.
stored_options() { "$nmt_train" --dump-config -m "$1" 2> /dev/null | grep -v '^#'; }
requested_options() { "$nmt_train" "${options[@]}" --dump-config; }

# How the options model file $1 stores compare with the requested ones: "same"; "larger
# BUDGETS" when only budgets differ and each is larger (BUDGETS as "max-updates 80 (was
# 40)"); else the reason it cannot be reused.
compare_options() {
  local stored requested
  [ -f "$1" ] && stored=$(stored_options "$1") || { echo "it stores no options nmt-train can read"; return; }
  requested=$(requested_options)
  if [ "$stored" = "$requested" ]; then echo same; return; fi
  if [ "$(grep -Ev "$budgets" <<< "$stored")" != "$(grep -Ev "$budgets" <<< "$requested")" ]; then
    echo "the requested training options differ from those it stores"; return
  fi
  # Each budget as "name was now", then: larger (0 = no limit) or smaller.
  join <(grep -E "$budgets" <<< "$stored" | sed 's/ = / /' | sort) \
       <(grep -E "$budgets" <<< "$requested" | sed 's/ = / /' | sort) |
    awk '$2 != $3 { item = "--" $1 " " $3 " (was " $2 ")"
                    if ($3 + 0 == 0 || ($2 + 0 != 0 && $3 + 0 > $2 + 0)) larger = larger (larger == "" ? "" : ", ") item
                    else smaller = smaller (smaller == "" ? "" : ", ") item }
         END { print smaller != "" ? "the requested budget is smaller: " smaller : "larger " larger }'
}

# Why file $1, whose options model file $2 stores, cannot be reused as it is; nothing if
# it can.
reason_against() {
  local newer comparison
  newer=$(first_newer_input "$1")
  if [ -n "$newer" ]; then echo "$newer is newer"; return; fi
  comparison=$(compare_options "$2")
  [ "$comparison" = same ] || echo "${comparison/#larger /a larger budget was requested: }"
}

if [ -f "$model" ]; then
  model_reason=$(reason_against "$model" "$model")
  # A model copied from a run later extended may hold the parameters of a validation
  # before the extension (--final-model best), and so the options of that time.
  if [ -n "$model_reason" ] && [ -f "$checkpoint" ] && cmp -s "$model" "$working" &&
     [ -z "$(first_newer_input "$model")" ] && [ "$(compare_options "$checkpoint")" = same ]; then
    model_reason=
  fi
  if [ -z "$model_reason" ]; then
    touch -r "$model" "$options_file"
    echo "Makefile.pipeline: kept $model: it stores the requested options and no input is newer"
    exit 0
  fi
fi
start=--overwrite
if [ -f "$checkpoint" ]; then
  checkpoint_reason=$(first_newer_input "$checkpoint")
  if [ -n "$checkpoint_reason" ]; then
    checkpoint_reason="$checkpoint_reason is newer"
  else
    comparison=$(compare_options "$checkpoint")
    case $comparison in
      same) start=--resume ;;
      larger*)
        start=--resume
        ended=$( { grep -o 'training ended at update [0-9]*' "$log" 2> /dev/null || true; } | tail -1)
        echo "Makefile.pipeline: extending $model from ${ended:+update ${ended##* } (}its checkpoint" \
             "$checkpoint${ended:+)} with the larger budget ${comparison#larger }" ;;
      *) checkpoint_reason=$comparison ;;
    esac
  fi
  if [ $start = --overwrite ]; then
    echo "Makefile.pipeline: training $model from scratch, discarding the checkpoint $checkpoint:" \
         "$checkpoint_reason" >&2
  fi
elif [ -f "$model" ]; then
  case $model_reason in "a larger budget"*) model_reason+="; there is no checkpoint $checkpoint to extend" ;; esac
  echo "Makefile.pipeline: retraining $model from scratch: $model_reason" >&2
fi

mkdir -p "$(dirname "$working")" "$(dirname "$log")"
echo "nmt-train $start ${options[*]}"
"$nmt_train" "$start" "${options[@]}" 2>&1 | if [ $start = --resume ]; then tee -a "$log"; else tee "$log"; fi
cp "$working" "$model.tmp"
mv "$model.tmp" "$model"
