#!/usr/bin/env bash
# Checks the user-facing documents: that every measured figure says when, how, on what code
# and on what machine it was measured, and that no document speaks a development log's
# language.
#   scripts/check-docs.sh [--root DIR] [--git DIR] [FILE...]
# Without FILEs it checks README.md, CONTRIBUTING.md, pipelines/README.md, data/README.md, data/results/*.md and man/man*/* of
# the checkout (or of --root DIR). Rules, by file:
#  every file   no line holds "issue N", "session", "earlier work", "this round", "the peer",
#               "PyTorch peer" (any case) or a clock time before "UTC"/"GMT" with no
#               YYYY-MM-DD date earlier on the same line;
#               in a Markdown table, a column headed Date, Commit, Command or Machine has a
#               valid value in every row (below).
#  README.md    the front page (at the root) has at most 300 lines: the reference is in
#               the man pages, the figures in data/results/.
#  */results/README.md  every table is preceded (nearest non-blank line) by a provenance line
#               Date: YYYY-MM-DD · Command: `...` · Commit: HASH · Machine: KIND
#               and every such line is followed by a table. A field may say "per row": the
#               table then has a column of that name. The file defines its machine kinds as
#               "- **KIND**: ..." items under a "## Machines" heading.
#  HISTORY.md   every "## " heading after the title is a date, newest first; every "### "
#               entry has a "Commit: HASH" line.
# Values: a date is a real calendar day; a commit is 7-40 hex digits naming a commit of the
# repository (--git DIR, default the root; not checked when there is no .git, as in a
# tarball), no newer than the date beside it; a command holds `backticked` commands whose
# program exists: scripts/ and pipelines/ files, build*/bench/X (tests/bench/X.cc),
# nmt-X (tools/nmt-X.cc), make -f Makefile.pipeline TARGET (a target it or pipelines/*.mk
# defines); a machine starts with one of the kinds defined in data/results/README.md.
# Prints one line per problem, FILE:LINE: what; exits 1 when there is any, else 0.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd) git_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root=$(cd "$2" && pwd); shift 2 ;;
    --git) git_dir=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "check-docs.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ -n "$git_dir" ] || git_dir=$root
have_git=no
git -C "$git_dir" rev-parse --git-dir > /dev/null 2>&1 && [ -e "$git_dir/.git" ] && have_git=yes
if [ $# -eq 0 ]; then
  set -- "$root/README.md" "$root/CONTRIBUTING.md" "$root/pipelines/README.md" "$root/data/README.md" "$root"/data/results/*.md "$root"/man/man*/*
fi
here=$(dirname "$0")
problems=0
say() { echo "$1: $2"; problems=$((problems + 1)); }

# Machine kinds defined by the results document.
kinds=$(awk -f "$here/check-docs-tables.awk" -v results=1 -v kinds_only=1 \
  "$root/data/results/README.md" 2> /dev/null | cut -f3)

check_date() {  # LOCATION VALUE
  if ! [[ $2 =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] || ! date -d "$2" +%F > /dev/null 2>&1 \
     || [ "$(date -d "$2" +%F)" != "$2" ]; then
    say "$1" "date '$2' is not YYYY-MM-DD"
  fi
}
check_commit() {  # LOCATION HASH [DATE]
  if ! [[ $2 =~ ^[0-9a-f]{7,40}$ ]]; then say "$1" "commit '$2' is not a hash"; return; fi
  [ $have_git = yes ] || return
  if ! git -C "$git_dir" cat-file -e "$2^{commit}" 2> /dev/null; then
    say "$1" "commit $2 is not in the repository"; return
  fi
  local made; made=$(git -C "$git_dir" log -1 --format=%cs "$2")
  if [ -n "${3:-}" ] && [[ $3 < $made ]]; then say "$1" "date $3 is before commit $2 ($made)"; fi
}
check_program() {  # LOCATION COMMAND
  local words=() w prog target
  read -r -a words <<< "$2"
  for w in "${words[@]}"; do   # skip VAR=value, time and its path
    [[ $w =~ ^[A-Za-z_][A-Za-z0-9_]*= || $w == time || $w == /usr/bin/time ]] || break
  done
  prog=${w#./}
  case "$prog" in
    scripts/*|pipelines/*) [ -f "$root/$prog" ] || say "$1" "command '$2': no file $prog" ;;
    build*/bench/*) [ -f "$root/tests/bench/${prog##*/}.cc" ] || say "$1" "command '$2': no benchmark ${prog##*/}" ;;
    build*/bin/nmt-*|nmt-*) [ -f "$root/tools/${prog##*/}.cc" ] || say "$1" "command '$2': no tool ${prog##*/}" ;;
    make)
      [[ $2 == *"-f Makefile.pipeline"* ]] || { say "$1" "command '$2': make without -f Makefile.pipeline"; return; }
      target=$(sed -E 's/.*-f Makefile\.pipeline//' <<< "$2" | tr ' ' '\n' | grep -vE '^(-.*|[A-Za-z_0-9]+=.*|)$' | head -1)
      [ -n "$target" ] || return   # the default target
      grep -qE "^$target:|^\.PHONY:.* $target( |$)" "$root/Makefile.pipeline" "$root"/pipelines/*.mk 2> /dev/null \
        || say "$1" "command '$2': Makefile.pipeline has no target $target" ;;
    *) say "$1" "command '$2': unknown program $prog" ;;
  esac
}
check_command() {  # LOCATION FIELD
  local spans; spans=$(grep -oE '`[^`]+`' <<< "$2" | tr -d '`')
  [ -n "$spans" ] || { say "$1" "command field '$2' holds no \`command\`"; return; }
  while IFS= read -r c; do   # a span starting with a dash adds options to the one before
    [[ $c == -* ]] || check_program "$1" "$c"
  done <<< "$spans"
}
check_machine() {  # LOCATION VALUE
  local k
  while IFS= read -r k; do [ -n "$k" ] && [[ $2 == "$k"* ]] && return; done <<< "$kinds"
  say "$1" "machine '$2' is not a kind defined under '## Machines' in data/results/README.md"
}

words='issue #?[0-9]|session|earlier work|this round|the peer|pytorch peer'
clock='[0-9]{1,2}:[0-9]{2}(:[0-9]{2})? ?(UTC|GMT)'
for f in "$@"; do
  [ -f "$f" ] || { say "$f" "no such file"; continue; }
  while IFS= read -r hit; do
    say "$f:${hit%%:*}" "development-log wording: ${hit#*:}"
  done < <(grep -inE "$words" "$f")
  while IFS= read -r hit; do
    n=${hit%%:*} line=${hit#*:}
    before=$(grep -oE "^.*$clock" <<< "$line" | head -1 | sed -E "s/$clock\$//")
    [[ $before =~ [0-9]{4}-[0-9]{2}-[0-9]{2} ]] || say "$f:$n" "clock time without a date: $line"
  done < <(grep -nE "$clock" "$f")
  if [ "$f" = "$root/README.md" ] && [ "$(wc -l < "$f")" -gt 300 ]; then
    say "$f" "$(wc -l < "$f") lines: the front page has at most 300 (move reference text to the man pages or pipelines/README.md, figures to data/results/)"
  fi
  results=0; [[ $f == */results/README.md ]] && results=1
  while IFS=$'\t' read -r n kind value; do
    case "$kind" in
      error) say "$f:$n" "$value" ;;
      date) check_date "$f:$n" "$value" ;;
      commit) check_commit "$f:$n" ${value} ;;
      command) check_command "$f:$n" "$value" ;;
      machine) check_machine "$f:$n" "$value" ;;
    esac
  done < <(awk -f "$here/check-docs-tables.awk" -v results=$results "$f")
  if [[ $f == */HISTORY.md ]]; then
    while IFS=$'\t' read -r n kind value; do
      case "$kind" in
        error) say "$f:$n" "$value" ;;
        date) check_date "$f:$n" "$value" ;;
        commit) check_commit "$f:$n" ${value} ;;
      esac
    done < <(awk -f "$here/check-docs-history.awk" "$f")
  fi
done
if [ $problems -gt 0 ]; then echo "check-docs.sh: $problems problem(s)" >&2; exit 1; fi
echo "check-docs.sh: $# file(s) checked, no problem"
