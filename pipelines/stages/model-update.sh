#!/usr/bin/env bash
# The report's line on the update a model comes from, read from its training log:
#   model-update.sh LABEL LOG
# prints "-- LABEL: update U of N (WHY)" from the last "final model: update U (WHY)" line
# nmt-train writes at the end of training and the last "training ended at update N (...)"
# (a resumed run appends to the log); nothing, and status 0, when LOG lacks either line
# (a log of an nmt-train that does not write the first) or does not exist.
set -euo pipefail
label=$1 log=$2
[ -f "$log" ] || exit 0
awk -v label="$label" '
  /^training ended at update [0-9]+ / { ended = $5 }
  /^final model: update [0-9]+ \(.*\)$/ { final = substr($0, length("final model: update ") + 1) }
  END {
    if (ended == "" || final == "") exit
    space = index(final, " ")
    print "-- " label ": update " substr(final, 1, space - 1) " of " ended substr(final, space)
  }' "$log"
