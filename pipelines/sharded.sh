#!/usr/bin/env bash
# nmt-decode or nmt-align over a large input in N processes at once: the input is cut by
# lines into N consecutive shards (split -l), each shard goes through its own process,
# and the outputs are joined in shard order, so the result equals one process's output
# on the whole input, byte for byte. --n-best lists are renumbered (each shard's sentence
# numbers shifted by the lines before it).
# Installed as rnnsearch-sharded (cmake --install).
set -euo pipefail
source "$(dirname "$(readlink -f "$0")")/common.sh"
USAGE="$NAME -n N [-d DIR] decode -m MODEL [nmt-decode options] < in.bpe > out.bpe
       $NAME -n N [-d DIR] align -m MODEL -s SRC.bpe -t TGT.bpe [nmt-align options] > links
Runs nmt-decode or nmt-align in N processes, each on its own consecutive share of the lines,
and joins their outputs in order: the result equals one process's, byte for byte.
  -n N        processes (at least 1); each runs the tool's --threads (default 1), so N
              processes of T threads use N x T cores
  -d DIR      keep the shards and their outputs in DIR (default: a temporary directory)
  -h, --help  this message
  --version   the recipe's version (rnnsearch's)
The tool's options pass through unchanged. decode reads -i FILE or standard input (whole,
before decoding starts); align cuts -s and -t at the same lines; -o FILE writes the joined
output there (a file atomically, a device or FIFO directly), else to standard output.
Messages from the tool name the shard file and its line."
processes= dir=
while getopts ":n:d:h-:" opt; do
  case $opt in
    n) processes=$OPTARG ;; d) dir=$OPTARG ;; *) common_option "$opt" "${OPTARG:-}" ;;
  esac
done
shift $((OPTIND - 1))
[[ "$processes" =~ ^[1-9][0-9]*$ ]] || die_usage "-n N (processes, at least 1) is required"
[ $# -gt 0 ] || die_usage "decode or align is required"
mode=$1
shift
case $mode in decode | align) ;; *) die_usage "decode or align, not '$mode'" ;; esac

# The options the recipe itself reads (input, sides, output); the rest pass through.
input=- output=- source= target= nbest=0 options=()
while [ $# -gt 0 ]; do
  case $1 in
    -i | --input) input=${2:-}; shift 2 ;;
    --input=*) input=${1#*=}; shift ;;
    -o | --output) output=${2:-}; shift 2 ;;
    --output=*) output=${1#*=}; shift ;;
    -s | --source) source=${2:-}; shift 2 ;;
    --source=*) source=${1#*=}; shift ;;
    -t | --target) target=${2:-}; shift 2 ;;
    --target=*) target=${1#*=}; shift ;;
    --n-best) nbest=${2:-0}; options+=("$1" "${2:-}"); shift 2 ;;
    --n-best=*) nbest=${1#*=}; options+=("$1"); shift ;;
    *) options+=("$1"); shift ;;
  esac
done
if [ "$mode" = align ]; then
  [ -n "$source" ] && [ -n "$target" ] || die_usage "align needs -s SOURCE and -t TARGET"
  [ "$input" = - ] || die_usage "align reads -s and -t, not -i"
  need_file source "$source"
  need_file target "$target"
elif [ -n "$source$target" ]; then
  die_usage "decode reads -i FILE or stdin, not -s or -t"
elif [ "$input" != - ]; then
  need_file input "$input"
fi

check_outputs "-o=$output"

if [ -z "$dir" ]; then
  dir=$(mktemp -d)
  remove_on_exit "$dir"
fi
mkdir -p "$dir"
rm -f "$dir"/shard.* "$dir"/out.* "$dir"/joined "$dir"/check.*
if [ "$mode" = decode ]; then
  if [ "$input" = - ]; then
    cat > "$dir/input"
    input=$dir/input
  fi
  sides=("$input:src")
else
  sides=("$source:src" "$target:tgt")
  [ "$(wc -l < "$source")" -eq "$(wc -l < "$target")" ] || {
    echo "$NAME: $source has $(wc -l < "$source") lines, $target has $(wc -l < "$target"):" \
      "the pairs must be line-aligned" >&2
    exit 1
  }
fi

# Cut every side at the same lines: ceil(lines / N) per shard (a last line without a
# newline counts too).
lines=$(awk 'END { print NR }' "${sides[0]%:*}")
per_shard=$(((lines + processes - 1) / processes))
[ "$per_shard" -gt 0 ] || per_shard=1
for side in "${sides[@]}"; do
  split -l "$per_shard" -d -a 4 "${side%:*}" "$dir/shard.${side##*:}."
done
shards=()
for f in "$dir"/shard.src.*; do [ -e "$f" ] && shards+=("${f##*.}"); done

tool=$(nmt_tool "nmt-$mode")
# The model and the options are checked once, on no input: a bad one is one message, not
# one per shard.
: > "$dir/check.empty"
if [ "$mode" = decode ]; then
  check=(-i "$dir/check.empty")
else
  check=(-s "$dir/check.empty" -t "$dir/check.empty")
fi
run_job "$tool" "${options[@]}" "${check[@]}" -o "$dir/check.out" 2> "$dir/check.err" || {
  status=$?
  cat "$dir/check.err" >&2
  exit "$status"
}
pids=()
for k in "${shards[@]}"; do
  if [ "$mode" = decode ]; then
    "$tool" "${options[@]}" -i "$dir/shard.src.$k" -o "$dir/out.$k" &
  else
    "$tool" "${options[@]}" -s "$dir/shard.src.$k" -t "$dir/shard.tgt.$k" -o "$dir/out.$k" &
  fi
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
[ "$status" -eq 0 ] || exit "$status"

join_outputs() {
  local k
  for k in "${shards[@]}"; do
    if [ "$nbest" -gt 0 ] 2>/dev/null; then
      # "N ||| translation ||| ...": N counts from 0 in each shard.
      awk -v offset=$((10#$k * per_shard)) '{ i = index($0, " ||| "); print (substr($0, 1, i - 1) + offset) substr($0, i) }' \
        "$dir/out.$k"
    else
      cat "$dir/out.$k"
    fi
  done
}
join_outputs > "$dir/joined"
write_output "$output" < "$dir/joined"
