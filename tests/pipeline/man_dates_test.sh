#!/usr/bin/env bash
# The man pages' date and version come from the build (cmake/ManPages.cmake,
# cmake/ManPagesWrite.cmake), never from text typed in the page:
#   - every page of the checkout leaves them empty (.TH NAME N "" "rnnsearch" ...), so the
#     checkout shows no placeholder; the build tree's copy (build/man) of each is the page
#     with the date of the source tree's last commit (or RNNSEARCH_MANUAL_DATE of
#     CMakeLists.txt where there is no git history) and the tools' version filled in, and
#     nothing else changed;
#   - the writer on a scratch tree: a commit made on 2031-01-02 dates the pages 2031-01-02;
#     a tree with no git history takes the fallback date; a page left unchanged is not
#     rewritten (its time stamp kept); a page whose .TH line types a date or a version
#     stops it, naming the page and line 1.
# Seconds. Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR, NMT_CMAKE.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
cmake=${NMT_CMAKE:-$(command -v cmake)}
writer=$src/cmake/ManPagesWrite.cmake
version=$("$bin/nmt-decode" --version | awk 'NR == 1 { print $NF }')
fallback=$(sed -n -E 's/^set\(RNNSEARCH_MANUAL_DATE ([0-9-]+)\)$/\1/p' "$src/CMakeLists.txt")
[[ $fallback =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] || fail "CMakeLists.txt has no set(RNNSEARCH_MANUAL_DATE YYYY-MM-DD)"
if [ -e "$src/.git" ]; then day=$(git -C "$src" log -1 --format=%cs HEAD); else day=$fallback; fi

echo "== the build tree's pages ($build/man): dated $day, version $version"
pages=$(cd "$src/man" && ls man[1-9]/*.[1-9])
[ -n "$pages" ] || fail "no pages under man/"
for page in $pages; do
  head -1 "$src/man/$page" | grep -qE '^\.TH [A-Z0-9.-]+ [1-9] "" "rnnsearch" "rnnsearch manual"$' ||
    fail "man/$page:1: $(head -1 "$src/man/$page") (want .TH NAME N \"\" \"rnnsearch\" \"rnnsearch manual\")"
  grep -qE '@[A-Z_]+@' "$src/man/$page" && fail "man/$page shows a placeholder: $(grep -m1 -E '@[A-Z_]+@' "$src/man/$page")"
  built=$build/man/$page
  [ -f "$built" ] || fail "$built is missing (cmake --build $build --target man_pages writes it)"
  want=$(head -1 "$src/man/$page" | sed "s/ \"\" \"rnnsearch\" / \"$day\" \"rnnsearch $version\" /")
  [ "$(head -1 "$built")" = "$want" ] || fail "$built:1: $(head -1 "$built"), want $want"
  cmp -s <(tail -n +2 "$src/man/$page") <(tail -n +2 "$built") || fail "$built differs from man/$page beyond its .TH line"
done

echo "== the writer on a scratch tree"
write() {  # SOURCE BINARY
  "$cmake" -DSOURCE_DIR="$1" -DBINARY_DIR="$2" -DVERSION=7.6.5 -DFALLBACK_DATE=2030-05-06 \
    -DGIT="$(command -v git || true)" -P "$writer"
}
tree=$work/tree
mkdir -p "$tree/man/man1" "$tree/man/man7"
cp "$src/man/man1/nmt-bleu.1" "$tree/man/man1/"
cp "$src/man/man7/rnnsearch.7" "$tree/man/man7/"
write "$tree" "$work/tarball" || fail "the writer failed on a tree without git history"
head -1 "$work/tarball/man/man1/nmt-bleu.1" | grep -qx '.TH NMT-BLEU 1 "2030-05-06" "rnnsearch 7.6.5" "rnnsearch manual"' ||
  fail "without git history: $(head -1 "$work/tarball/man/man1/nmt-bleu.1")"
if command -v git > /dev/null; then
  git -C "$tree" init -q
  git -C "$tree" add man
  GIT_COMMITTER_DATE=2031-01-02T12:00:00Z GIT_AUTHOR_DATE=2031-01-02T12:00:00Z \
    git -C "$tree" -c user.name=test -c user.email=test@localhost commit -q -m pages
  write "$tree" "$work/built" || fail "the writer failed on a git tree"
  head -1 "$work/built/man/man7/rnnsearch.7" | grep -qx '.TH RNNSEARCH 7 "2031-01-02" "rnnsearch 7.6.5" "rnnsearch manual"' ||
    fail "a commit of 2031-01-02: $(head -1 "$work/built/man/man7/rnnsearch.7")"
  touch -d 2020-01-01 "$work/built/man/man7/rnnsearch.7"
  write "$tree" "$work/built"
  [ "$(stat -c %Y "$work/built/man/man7/rnnsearch.7")" = "$(date -d 2020-01-01 +%s)" ] ||
    fail "an unchanged page was rewritten"
fi
sed -i '1s/""/"2026-11-24"/' "$tree/man/man1/nmt-bleu.1"
if write "$tree" "$work/bad" > "$work/bad.log" 2>&1; then fail "the writer took a page whose .TH line types a date"; fi
grep -q 'man/man1/nmt-bleu.1:1: ' "$work/bad.log" || fail "the refusal does not name the page and line: $(cat "$work/bad.log")"
echo "man_dates: $(echo $pages | wc -w) pages"
