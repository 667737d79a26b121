#!/usr/bin/env bash
# The Debian package (cmake/Packaging.cmake), packed by cpack from this build tree as built:
#   - a tree configured with RNNSEARCH_NATIVE=ON is refused in one message that names
#     -DRNNSEARCH_NATIVE=OFF, and no package is written;
#   - the control fields: rnnsearch, the project's version, amd64, and Depends naming the
#     Debian package of every shared library a packaged tool needs (directly, or through
#     one package it depends on, as libopenblas0 stands for its variants), awk and procps;
#   - the files: every tool of tools/nmt-*.cc, every man page of man/, every recipe
#     marked "# Installed as rnnsearch-NAME" with its command, common.sh and the version
#     file beside it, every example of data/systemd/ in usr/share/doc/rnnsearch/examples,
#     nothing else;
#   - extracted into a scratch root (dpkg -x), every tool and recipe answers --version
#     with the package's version, a recipe -h, every recipe has its man page,
#     nmt-serve reads the example configuration (--dump-config), and the overview page
#     renders.
# A native tree is refused as it should be; its package is then checked with the refusal
# overridden (cpack -D CPACK_RNNSEARCH_NATIVE=OFF), since its tools run on this CPU.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR, NMT_CMAKE.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
cpack=$(dirname "${NMT_CMAKE:-$(command -v cmake)}")/cpack
[ -x "$cpack" ] || cpack=$(command -v cpack)
pack() { "$cpack" --config "$build/CPackConfig.cmake" -G DEB -B "$@"; }

echo "== a native tree is refused"
native=(-D CPACK_RNNSEARCH_NATIVE=ON)  # a portable tree is made to look native
if grep -q '^RNNSEARCH_NATIVE:BOOL=ON' "$build/CMakeCache.txt"; then native=(); fi
if pack "$work/refused" "${native[@]}" > "$work/refused.log" 2>&1; then fail "cpack packed a native build"; fi
# CMake wraps the message's lines.
tr -s ' \n' '  ' < "$work/refused.log" |
  grep -q 'configured with RNNSEARCH_NATIVE=ON .*reconfigure with -DRNNSEARCH_NATIVE=OFF' ||
  fail "the refusal does not say what to do: $(cat "$work/refused.log")"
[ -z "$(find "$work/refused" -name '*.deb' 2> /dev/null)" ] || fail "a refused cpack still wrote a package"
override=()
[ ${#native[@]} -gt 0 ] || override=(-D CPACK_RNNSEARCH_NATIVE=OFF)

echo "== cpack -G DEB"
pack "$work/pkg" "${override[@]}" > "$work/pack.log" 2>&1 || fail "cpack failed: $(cat "$work/pack.log")"
debs=("$work"/pkg/*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "not one package in $work/pkg: $(ls "$work/pkg")"
deb=${debs[0]}
version=$("$bin/nmt-decode" --version | awk 'NR == 1 { print $NF }')  # line 2 names the kernels
[ "$(basename "$deb")" = "rnnsearch_${version}_amd64.deb" ] || fail "package file $(basename "$deb")"
dpkg-deb -f "$deb" > "$work/control"
field() { awk -v name="$1" '$1 == name ":" { sub(/^[^:]*: */, ""); print; exit }' "$work/control"; }
[ "$(field Package)" = rnnsearch ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), the tools say $version"
[ "$(field Architecture)" = amd64 ] || fail "Architecture: $(field Architecture)"
for name in Maintainer Description Section; do [ -n "$(field $name)" ] || fail "no $name field"; done
depends=$(field Depends)
echo "Depends: $depends"
grep -q 'awk' <<< "$depends" || fail "Depends does not name awk, which the recipes run"
grep -q 'procps' <<< "$depends" || fail "Depends does not name procps, whose ps the recipes run"

echo "== dpkg-deb -c"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./||' | sort > "$work/files"
expected() {
  local tool page recipe example
  for tool in "$src"/tools/nmt-*.cc; do tool=${tool##*/}; echo "usr/bin/${tool%.cc}"; done
  for page in "$src"/man/man*/*.[1-9]; do echo "usr/share/man/${page#"$src"/man/}"; done
  echo usr/share/rnnsearch/common.sh usr/share/rnnsearch/version | tr ' ' '\n'
  # Recipes.cmake installs pipelines/FILE.sh marked "# Installed as rnnsearch-NAME".
  grep -o -m1 '^# Installed as rnnsearch-[a-z0-9-]*' "$src"/pipelines/*.sh | while IFS=: read -r recipe marker; do
    echo "usr/share/rnnsearch/${recipe##*/}"
    echo "usr/bin/${marker#\# Installed as }"
  done
  # cmake/Examples.cmake: nmt-serve's example unit and configuration.
  for example in "$src"/data/systemd/*; do echo "usr/share/doc/rnnsearch/examples/${example##*/}"; done
}
expected | sort > "$work/expected"
missing=$(comm -23 "$work/expected" "$work/files")
extra=$(comm -13 "$work/expected" "$work/files")
[ -z "$missing" ] || fail "not in the package: $missing"
[ -z "$extra" ] || fail "in the package but neither a tool, a man page, a recipe nor an example: $extra"
echo "$(wc -l < "$work/files") files, $(stat -c %s "$deb") bytes"

root=$work/root
dpkg -x "$deb" "$root"

echo "== Depends covers every library the tools load"
names() { tr ',|' '\n\n' | sed 's/(.*//; s/[[:space:]]//g; s/:.*//' | grep -v '^$' | sort -u; }
names <<< "$depends" > "$work/declared"
# The packages the declared ones depend on ("awk" is virtual: dpkg-query knows no entry).
dpkg-query -W -f='${Depends}\n' $(cat "$work/declared") 2> /dev/null | names > "$work/through" || true
# The packaged tools' own libraries (NEEDED), each where the loader finds it (ldd).
readelf -d "$root"/usr/bin/nmt-* | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u > "$work/sonames"
ldd "$root"/usr/bin/nmt-* | awk '$2 == "=>" { print $1, $3 }' | sort -u > "$work/found"
awk 'NR == FNR { path[$1] = $2; next } { print $1, ($1 in path) ? path[$1] : "missing" }' \
  "$work/found" "$work/sonames" > "$work/needed"
[ -s "$work/needed" ] || fail "readelf and ldd found no shared library in the packaged tools"
# The Debian package that holds each library, asked of dpkg once: dpkg records some paths
# under /lib, some under /usr/lib, and a library chosen by update-alternatives (OpenBLAS)
# under the path the links lead to.
while read -r library path; do
  [ -f "$path" ] || fail "$library, which a packaged tool needs, is not found on this system"
  for candidate in "$path" "$(readlink -f "$path")" "/usr${path#/usr}" "${path#/usr}"; do
    echo "$library $candidate"
  done
done < "$work/needed" > "$work/candidates"
dpkg -S $(cut -d' ' -f2 "$work/candidates" | sort -u) 2> /dev/null > "$work/owners" || true
while read -r library; do
  package=$(awk -v lib="$library" 'NR == FNR { sub(/:.*/, "", $1); owner[$2] = $1; next }
    $1 == lib && ($2 in owner) { print owner[$2]; exit }' "$work/owners" "$work/candidates")
  [ -n "$package" ] || fail "no Debian package holds $library ($(grep "^$library " "$work/needed"))"
  grep -qx "$package" "$work/declared" "$work/through" ||
    fail "$library ($package) is needed by a packaged tool but Depends does not bring it: $depends"
  echo "$library: $package"
done < <(cut -d' ' -f1 "$work/needed")

echo "== the tools, a recipe and a man page from the extracted package"
for tool in "$root"/usr/bin/nmt-*; do
  name=$(basename "$tool")
  "$tool" --version > "$work/version" 2>&1 || fail "$name --version from the package: $(cat "$work/version")"
  [[ $(head -1 "$work/version") == "$name (rnnsearch) $version"* ]] ||
    fail "$name --version: $(cat "$work/version")"
done
env -u NMT_BIN PATH=/usr/bin:/bin "$root/usr/bin/rnnsearch-translate" -h > "$work/help" ||
  fail "rnnsearch-translate -h from the package failed"
grep -q '^usage: rnnsearch-translate ' "$work/help" || fail "rnnsearch-translate -h: $(cat "$work/help")"
for recipe in "$root"/usr/bin/rnnsearch-*; do
  name=$(basename "$recipe")
  [ "$(env -u NMT_BIN PATH=/usr/bin:/bin "$recipe" --version)" = "$name (rnnsearch) $version" ] ||
    fail "$name --version from the package: $("$recipe" --version 2>&1)"
  [ -f "$root/usr/share/man/man1/$name.1" ] || fail "$name has no man page in the package"
done
examples=$root/usr/share/doc/rnnsearch/examples
for example in "$src"/data/systemd/*; do
  cmp -s "$example" "$examples/${example##*/}" || fail "the package's ${example##*/} differs from data/systemd/"
done
"$root/usr/bin/nmt-serve" --config "$examples/nmt-serve.conf" --dump-config > "$work/serve.conf" 2>&1 ||
  fail "nmt-serve --config with the packaged example nmt-serve.conf: $(cat "$work/serve.conf")"
page=$root/usr/share/man/man7/rnnsearch.7
if command -v man > /dev/null; then
  MANWIDTH=80 man -l "$page" > "$work/man" 2> "$work/man.err" || true
else
  command -v groff > /dev/null || fail "neither man nor groff to render $page (install groff-base)"
  groff -man -Tutf8 -P-cbou "$page" 2> "$work/man.err" > "$work/man" || true
fi
grep -q '^NAME' "$work/man" && grep -q 'nmt-decode' "$work/man" ||
  fail "rnnsearch(7) did not render: $(cat "$work/man.err")"
echo "deb_package: ok"
