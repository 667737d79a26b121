#!/usr/bin/env bash
# The demo's figures in the documents, made from a run of the demo (command 1,
# `make -f Makefile.pipeline`): README.md's report block and its results-table row, and
# data/results/README.md's demo table, so that what the documents show is what the demo
# prints.
#   scripts/demo-docs.sh write [--commit HASH] [--date DAY] [--machine KIND] [--unguided DIR] OUT
#   scripts/demo-docs.sh check [--structure] [--unguided DIR] OUT
#   scripts/demo-docs.sh same-machine --bin DIR
#   scripts/demo-docs.sh regenerate [--build DIR] [--commit HASH] [--date DAY] [--machine KIND]
# OUT is the folder of a finished demo run (its report.txt, and log/train.*.log for the
# updates); --unguided DIR a run with GUIDE= (data/results/README.md's table without guided
# alignment, left alone when not given).
#   write         rewrites the blocks in place, each under a provenance line of --date
#                 (default today), --commit (default the checkout's HEAD) and --machine
#                 (default the kind the block names now).
#   check         compares the blocks with what the run gives, keeping the blocks' own
#                 provenance; prints FILE:LINE and both lines for each block that differs,
#                 exits 1. --structure compares the lines with every number masked: the run
#                 has every part the documents show, whatever its figures.
#   regenerate    runs the demo from scratch twice in a scratch folder, with and without
#                 guided alignment (make -f Makefile.pipeline pipeline BUILD=DIR, default
#                 build: the tools already built), then writes every block from the runs.
#   same-machine  exits 0 when this CPU is of the kind data/results/README.md's demo table
#                 names (its model name and the tools' kernel level, nmt-train --version of
#                 DIR), else prints why not and exits 1: the demo's figures are the same
#                 bytes on one kind of CPU, not across kinds.
# A block is the lines between "<!-- demo-docs.sh NAME: ..." and "<!-- demo-docs.sh end NAME";
# README.md's row is the table line beginning "| Demo pipeline (command 1)". Exit status:
# 0, 1 (a block differs, a run or document lacks a part), 2 (usage).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
readme=$root/README.md results=$root/data/results/README.md
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
die() { echo "demo-docs.sh: $*" >&2; exit 1; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
mode=$1; shift
commit="" day="" machine="" unguided="" structure=no bin="" build=build
while [ $# -gt 0 ]; do
  case "$1" in
    --commit | --date | --machine | --unguided | --bin | --build) [ $# -ge 2 ] || { echo "demo-docs.sh: $1 needs a value" >&2; exit 2; } ;;&
    --commit) commit=$2; shift 2 ;;
    --date) day=$2; shift 2 ;;
    --machine) machine=$2; shift 2 ;;
    --unguided) unguided=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --structure) structure=yes; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "demo-docs.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
case "$mode" in write | check) [ $# -eq 1 ] || { usage >&2; exit 2; } ;; same-machine | regenerate) ;; *) usage >&2; exit 2 ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "$mode" = regenerate ]; then
  [ -x "$build/bin/nmt-train" ] || die "$build/bin/nmt-train is not built (cmake --build $build --target tools)"
  for run in demo unguided; do
    guide=(); [ $run = demo ] || guide=(GUIDE=)
    echo "demo-docs.sh: make -f Makefile.pipeline pipeline ${guide[*]} (OUT in $work)" >&2
    make --no-print-directory -C "$root" -f Makefile.pipeline pipeline BUILD="$(cd "$build" && pwd)" \
      OUT="$work/$run" "${guide[@]}" > "$work/$run.log" 2>&1 ||
      { tail -20 "$work/$run.log" >&2; die "the demo pipeline failed (above)"; }
  done
  args=()
  for option in commit:"$commit" date:"$day" machine:"$machine"; do
    [ -z "${option#*:}" ] || args+=("--${option%%:*}" "${option#*:}")
  done
  "$0" write "${args[@]}" --unguided "$work/unguided" "$work/demo"
  exit
fi

# ---- The machine kinds whose demo figures can be compared: KIND|CPU model|kernel level.
kinds='AMD EPYC, 2 cores, AVX-512|AMD EPYC|avx512-bf16'

# The provenance line of block NAME in FILE (its first line after the marker).
block_provenance() { awk -v name="$2" 'index($0, "<!-- demo-docs.sh " name ":") == 1 { getline; print; exit }' "$1"; }
field() { sed -E "s/.*$1: ([^·]*[^· ]).*/\\1/" <<< "$2"; }  # a provenance field's value

if [ "$mode" = same-machine ]; then
  [ -n "$bin" ] || { echo "demo-docs.sh: same-machine needs --bin DIR" >&2; exit 2; }
  named=$(field Machine "$(block_provenance "$results" guided)")
  cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
  level=$("$bin/nmt-train" --version | awk '/^kernels:/ { sub(/^kernels: */, ""); sub(/,.*/, ""); print; exit }')
  while IFS='|' read -r kind model wanted; do
    [[ $named == "$kind"* ]] || continue
    if [[ $cpu == *"$model"* ]] && [ "$level" = "$wanted" ]; then echo "this CPU ($cpu, kernels $level) is of the kind '$kind'"; exit 0; fi
    echo "this CPU ($cpu, kernels ${level:-unknown}) is not of the kind '$kind' ($model, kernels $wanted) the demo's figures were made on"
    exit 1
  done <<< "$kinds"
  echo "the demo's figures name the machine '$named', of no kind scripts/demo-docs.sh knows the CPU of"
  exit 1
fi

# ---- What a run gives.
out=$1
report=$out/report.txt
[ -f "$report" ] || die "$report: no report (run make -f Makefile.pipeline pipeline OUT=$out first)"
# The folder the report names (OUT as the run spelled it), shown as work/demo.
named_out() { sed -n -E '1s|^== demo: .* test set (.*)/raw/test\.[a-z]+ \([0-9]+ sentences\)$|\1|p' "$1"; }
# report.txt as README.md shows it: work/demo for the run's folder, the BLEU line cut after
# the four precisions.
readme_report() {
  local dir; dir=$(named_out "$1/report.txt")
  [ -n "$dir" ] || die "$1/report.txt:1: not a demo report (== demo: SRC -> TGT, test set DIR/raw/test.SRC (N sentences))"
  awk -v dir="$dir" '{ while ((i = index($0, dir)) > 0) $0 = substr($0, 1, i - 1) "work/demo" substr($0, i + length(dir))
                       if ($0 ~ /^ *BLEU\|/) sub(/ \(BP = .*$/, " ...")
                       print }' "$1/report.txt"
}
thousands() { sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta' <<< "$1"; }  # 6600 -> 6,600
# "6,600 updates (best 5,100)" from a training log's last "training ended" line.
updates() {
  local line
  line=$(grep -E '^training ended at update [0-9]+' "$1" | tail -1) || die "$1: no line 'training ended at update N'"
  [[ $line =~ ^training\ ended\ at\ update\ ([0-9]+).*best\ validation\ at\ update\ ([0-9]+) ]] ||
    die "$1: '$line' names no best validation"
  echo "$(thousands "${BASH_REMATCH[1]}") updates (best $(thousands "${BASH_REMATCH[2]}"))"
}
aer() {  # RUN ALIGNMENT: the AER of that row of align/aer.txt, in percent
  awk -v a="$2" '$1 == a { printf "%.2f%%", 100 * $4; found = 1 } END { exit !found }' "$1/align/aer.txt" ||
    die "$1/align/aer.txt: no row $2"
}
score() {  # RUN METRIC: the score of the beam-5 test set's METRIC line
  awk -v m="$2" 'index($1, m "|") == 1 { for (i = 1; i < NF; i++) if ($i == "=") { print $(i + 1); found = 1; exit } }
                 END { exit !found }' "$1/test.beam5.scores" || die "$1/test.beam5.scores: no $2 line"
}
provenance() {  # COMMAND: the line above a block
  echo "Date: $day · Command: \`$1\` · Commit: $commit · Machine: $machine"
}
results_table() {  # RUN COMMAND HEADING
  local run=$1 bleu
  bleu=$(score "$run" BLEU)
  [ "$bleu" = 100.0 ] && bleu="**$bleu**"
  provenance "$2"; echo
  echo "| | $3 |"
  echo "|---|---|"
  echo "| BLEU / chrF2, Avelic -> Borish | $bleu / $(score "$run" chrF2) |"
  echo "| AER forward (Avelic -> Borish attention) | $(aer "$run" forward) |"
  echo "| AER reverse (Borish -> Avelic attention, inverted) | $(aer "$run" reverse) |"
  echo "| AER intersect | $(aer "$run" intersect) |"
  echo "| AER union | $(aer "$run" union) |"
  echo "| AER grow-diag / grow-diag-final / grow-diag-final-and |" \
    "$(aer "$run" grow-diag) / $(aer "$run" grow-diag-final) / $(aer "$run" grow-diag-final-and) |"
  echo "| training, forward / reverse (updates of 32 pairs) |" \
    "$(updates "$run/log/train.xa-xb.log") / $(updates "$run/log/train.xb-xa.log") |"
}
readme_block() {  # RUN
  provenance "make -f Makefile.pipeline"; echo
  echo '```'; readme_report "$1"; echo '```'
}
readme_row() {  # RUN
  echo "| Demo pipeline (command 1), Avelic→Borish, 500 test pairs, beam 5 |" \
    "BLEU $(score "$1" BLEU); AER $(aer "$1" grow-diag-final-and) (grow-diag-final-and) |" \
    "$day | \`make -f Makefile.pipeline\` | $commit | ${machine%%;*} |"
}

# replace_block FILE NAME CONTENT-FILE: FILE with block NAME's lines replaced, on stdout.
replace_block() {
  grep -q "^<!-- demo-docs.sh $2:" "$1" || die "$1: no block '<!-- demo-docs.sh $2: ...' (and '<!-- demo-docs.sh end $2 -->')"
  awk -v name="$2" -v content="$3" '
    index($0, "<!-- demo-docs.sh " name ":") == 1 { print; while ((getline l < content) > 0) print l; skip = 1; next }
    index($0, "<!-- demo-docs.sh end " name " ") == 1 { skip = 0 }
    !skip' "$1"
}
replace_row() {  # FILE ROW-FILE
  grep -q '^| Demo pipeline (command 1)' "$1" || die "$1: no table row '| Demo pipeline (command 1) ...'"
  awk -v row="$(cat "$2")" '/^\| Demo pipeline \(command 1\)/ { print row; next } { print }' "$1"
}

# The provenance a block keeps (check) or gets (write): DAY, COMMIT, MACHINE.
set_provenance() {  # FILE BLOCK
  local line; line=$(block_provenance "$1" "$2")
  if [ "$mode" = check ] || [ -z "$machine" ]; then
    [[ $line == Date:* ]] || die "$1: block $2 does not begin with its provenance line (Date: · Command: · Commit: · Machine:)"
  fi
  if [ "$mode" = check ]; then day=$(field Date "$line") commit=$(field Commit "$line") machine=$(field Machine "$line")
  else
    day=${day:-$(date +%F)} commit=${commit:-$(git -C "$root" rev-parse --short HEAD)}
    machine=${machine:-$(field Machine "$line")}
  fi
}
set_provenance "$readme" report
readme_block "$out" > "$work/report"
readme_row "$out" > "$work/row"
replace_block "$readme" report "$work/report" > "$work/readme.1"
replace_row "$work/readme.1" "$work/row" > "$work/README.md"
set_provenance "$results" guided
results_table "$out" "make -f Makefile.pipeline" "with guided alignment (the default)" > "$work/guided"
replace_block "$results" guided "$work/guided" > "$work/results.md"
if [ -n "$unguided" ]; then
  set_provenance "$results" unguided
  results_table "$unguided" "make -f Makefile.pipeline GUIDE= OUT=work/demo-unguided" "without (\`GUIDE=\`)" > "$work/unguided"
  replace_block "$work/results.md" unguided "$work/unguided" > "$work/results.2"
  mv "$work/results.2" "$work/results.md"
fi

if [ "$mode" = write ]; then
  for pair in "README.md:$readme" "results.md:$results"; do
    cp "$work/${pair%%:*}" "${pair#*:}.tmp" && mv "${pair#*:}.tmp" "${pair#*:}"
  done
  echo "demo-docs.sh: wrote the demo's blocks of README.md and data/results/README.md from $out"
  exit 0
fi
# With numbers masked the bold of a perfect BLEU goes too: a run of another CPU kind may
# score 99.8 where the documents' kind scored 100.0, and its lines are the same otherwise.
mask() { if [ $structure = yes ]; then sed -E 's/\*\*([0-9][0-9.,]*)\*\*/\1/g; s/[0-9][0-9.,]*/N/g' "$1"; else cat "$1"; fi; }
differs=0
for pair in "README.md:$readme" "results.md:$results"; do
  doc=${pair#*:}
  mask "$doc" > "$work/have"; mask "$work/${pair%%:*}" > "$work/want"
  cmp -s "$work/have" "$work/want" && continue
  differs=1
  n=$(cmp "$work/have" "$work/want" 2> /dev/null | sed -E 's/.* line ([0-9]+).*/\1/') || true
  n=${n:-$(($(wc -l < "$work/have") + 1))}
  echo "${doc#"$root"/}:$n: differs from the demo run in $out"
  echo "  the document: $(sed -n "${n}p" "$doc")"
  echo "  the run:      $(sed -n "${n}p" "$work/${pair%%:*}")"
done
[ $differs = 0 ] || { echo "(scripts/demo-docs.sh write OUT rewrites the blocks from the run)"; exit 1; }
echo "demo-docs.sh: README.md and data/results/README.md show the run in $out$([ $structure = yes ] && echo ', numbers masked')"
