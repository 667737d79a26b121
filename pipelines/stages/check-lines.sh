#!/usr/bin/env bash
# Makefile.pipeline's first stage on your corpus (CONFIG=custom): the two sides of each set
# have one line per sentence pair, checked on your files as given, before anything reads
# them (nmt-train would find out only after tokenizing and BPE, naming its own files):
#   check-lines.sh OUTPUT SOURCE_1 TARGET_1 [SOURCE_2 TARGET_2 ...]
# Each file is plain text or gzip'd (.gz); a line is counted with or without its final
# newline. OUTPUT (written beside its name and renamed into place) lists "FILE LINES".
# Sides that differ: one line on stderr naming both files and their counts, status 1.
set -euo pipefail
output=$1
shift
lines_of() {
  if [[ $1 == *.gz ]]; then
    gzip -dc -- "$1" 2> /dev/null | awk 'END { print NR }' ||
      { echo "Makefile.pipeline: $1 is not gzip data, or is cut short" >&2; return 1; }
  else
    [ -r "$1" ] || { echo "Makefile.pipeline: $1 cannot be read" >&2; return 1; }
    awk 'END { print NR }' "$1"
  fi
}
tmp=$output.tmp
trap 'rm -f -- "$tmp"' EXIT
: > "$tmp"
while [ $# -ge 2 ]; do
  source_lines=$(lines_of "$1")
  target_lines=$(lines_of "$2")
  if [ "$source_lines" != "$target_lines" ]; then
    echo "Makefile.pipeline: $1 has $source_lines lines, $2 has $target_lines:" \
         "the two sides of a set need one line per sentence pair" >&2
    exit 1
  fi
  printf '%s %s\n%s %s\n' "${1##*/}" "$source_lines" "${2##*/}" "$target_lines" >> "$tmp"
  shift 2
done
mv -- "$tmp" "$output"
trap - EXIT
