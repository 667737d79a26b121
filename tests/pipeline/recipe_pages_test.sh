#!/usr/bin/env bash
# Every installed recipe (pipelines/*.sh marked "# Installed as rnnsearch-NAME") has its man
# page and answers --version as the tools do:
#   - man/man1/rnnsearch-NAME.1 has NAME ("rnnsearch-NAME \- ..."), SYNOPSIS, DESCRIPTION,
#     OPTIONS, EXIT STATUS, EXAMPLES and SEE ALSO, an OPTIONS entry (a .TP tag) for every
#     option the recipe's --help lists and none for an option it does not, renders without
#     groff warnings, and rnnsearch(7) names it;
#   - in the checkout, --version prints "NAME.sh (rnnsearch) VERSION", VERSION being
#     project() of CMakeLists.txt, which the built tools print too; installed (a copy laid
#     out as cmake --install lays it out), "rnnsearch-NAME (rnnsearch) V" with V from the
#     version file beside common.sh, and with neither a one-line error and status 1.
# Seconds. Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
version=$(sed -n -E 's/^project\(rnnsearch VERSION ([0-9.]+) .*/\1/p' "$src/CMakeLists.txt")
[ -n "$version" ] || fail "CMakeLists.txt: no project(rnnsearch VERSION ...)"
tools_version=$("$bin/nmt-decode" --version | awk 'NR == 1 { print $NF }')
[ "$tools_version" = "$version" ] || fail "the tools say $tools_version, CMakeLists.txt $version"

# The options a usage text lists: the first column of its lines "  -x ..." and "  --xx ...".
help_options() {
  grep -E '^  (-[A-Za-z]|--[a-z])' | sed -E 's/^  //; s/   .*//; s/ [A-Z][A-Z_.]*( |$)/ /g' |
    grep -oE '(^|[ ,])--?[A-Za-z][a-z-]*' | tr -d ' ,' | sort -u
}
# The options an OPTIONS section's .TP tags name.
page_options() {
  awk '/^\.SH/ { in_options = ($0 ~ /OPTIONS/) } in_options && tag { print; tag = 0 } in_options && /^\.TP/ { tag = 1 }' "$1" |
    sed -E 's/\\-/-/g; s/\\f[BIRP]//g; s/^\.[A-Z]+ //' | grep -oE '(^|[ "])--?[A-Za-z][a-z-]*' | tr -d ' "' | sort -u
}
sections() { sed -n -E 's/^\.SH "?([^"]*)"?$/\1/p' "$1"; }

recipes=$(grep -l -m1 '^# Installed as rnnsearch-' "$src"/pipelines/*.sh)
[ -n "$recipes" ] || fail "no pipelines/*.sh is marked '# Installed as rnnsearch-NAME'"
for recipe in $recipes; do
  file=${recipe##*/}
  name=$(sed -n -E 's/^# Installed as (rnnsearch-[a-z0-9-]+).*/\1/p' "$recipe" | head -1)
  echo "== $name ($file)"
  page=$src/man/man1/$name.1
  [ -f "$page" ] || fail "$name has no man page: write man/man1/$name.1"
  for wanted in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
    sections "$page" | grep -qx "$wanted" || fail "man/man1/$name.1 has no section .SH $wanted"
  done
  grep -A1 -x '.SH NAME' "$page" | tail -1 | grep -q "^$name \\\\- " ||
    fail "man/man1/$name.1: the NAME section should read \"$name \\- what it does\""
  "$recipe" --help | help_options > "$work/help"
  page_options "$page" > "$work/page"
  grep -q -- --version "$work/help" || fail "$file --help does not list --version"
  missing=$(comm -23 "$work/help" "$work/page") extra=$(comm -13 "$work/help" "$work/page")
  [ -z "$missing" ] || fail "man/man1/$name.1 has no OPTIONS entry for $(echo $missing), which $file --help lists"
  [ -z "$extra" ] || fail "man/man1/$name.1 documents $(echo $extra), which $file --help does not list"
  warnings=$(groff -man -ww -z -K utf8 "$page" 2>&1) || true
  [ -z "$warnings" ] || fail "groff -man -ww on man/man1/$name.1: $warnings"
  grep -qF ".BR ${name//-/\\-} (1)" "$src/man/man7/rnnsearch.7" || fail "rnnsearch(7) does not name $name(1)"

  out=$("$recipe" --version) || fail "$file --version exits with status $?"
  [ "$out" = "$file (rnnsearch) $version" ] || fail "$file --version: '$out', want '$file (rnnsearch) $version'"
  # As installed: PREFIX/share/rnnsearch/{FILE,common.sh,version}, PREFIX/bin/NAME a link.
  prefix=$work/prefix
  rm -rf "$prefix"; mkdir -p "$prefix/share/rnnsearch" "$prefix/bin"
  cp "$recipe" "$src/pipelines/common.sh" "$prefix/share/rnnsearch/"
  echo 9.8.7 > "$prefix/share/rnnsearch/version"
  ln -s ../share/rnnsearch/"$file" "$prefix/bin/$name"
  out=$("$prefix/bin/$name" --version) || fail "installed $name --version exits with status $?"
  [ "$out" = "$name (rnnsearch) 9.8.7" ] || fail "installed $name --version: '$out', want the version file's 9.8.7"
  rm "$prefix/share/rnnsearch/version"
  if "$prefix/bin/$name" --version > "$work/out" 2> "$work/err"; then fail "$name --version with no version anywhere: $(cat "$work/out")"; fi
  [ "$(wc -l < "$work/err")" -eq 1 ] && grep -q "^$name: no version" "$work/err" ||
    fail "$name --version with no version: want one line naming it, got: $(cat "$work/err")"
done
echo "recipe_pages: $(echo $recipes | wc -w) recipes, each with its page and --version"
