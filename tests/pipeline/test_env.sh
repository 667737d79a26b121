# Sourced by the pipeline tests that read shared data. Sets src (the source tree), bin (the
# tools), build, fail MESSAGE (prints FAIL and exits 1), require_shared FILE (a missing
# shared file fails under CI=true and skips the test otherwise) and work, a temporary
# folder removed on exit. Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR, NMT_SHARED.
src=${NMT_SOURCE_DIR:?}
bin=${NMT_BIN_DIR:?}
build=$(dirname "$bin")
fail() { echo "FAIL: $*" >&2; exit 1; }
require_shared() {
  [ -f "$1" ] && return 0
  [ "${CI:-}" = true ] && fail "$1 is missing (shared data is required under CI=true)"
  echo "SKIP: $1 is missing"; exit 0
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
