# Sourced by the recipes: where the tools are, and usage errors.
# Tools come from $NMT_BIN when set, else from PATH, else from the checkout's build/bin.
nmt_tool() {
  if [ -n "${NMT_BIN:-}" ]; then echo "$NMT_BIN/$1"
  elif command -v "$1" > /dev/null; then command -v "$1"
  else echo "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/bin/$1"; fi
}

die_usage() {
  echo "$(basename "$0"): $1" >&2
  echo "usage: $USAGE" >&2
  exit 2
}

need_file() {
  [ -r "$2" ] || { echo "$(basename "$0"): $1 $2 cannot be read" >&2; exit 1; }
}
