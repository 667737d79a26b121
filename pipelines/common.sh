# Sourced by the recipes: where the tools are, the recipe's name, usage and usage errors.
# Installed, a recipe is PREFIX/share/rnnsearch/NAME.sh beside this file, called through
# the link PREFIX/bin/rnnsearch-NAME; a recipe finds this file by resolving that link.

# The name the recipe was called by ("rnnsearch-translate", "translate.sh"), for messages.
NAME=$(basename "$0")

# Tools come from $NMT_BIN when set, else from PATH, else from the directory the recipe
# was called from (PREFIX/bin when installed), else from the checkout's build/bin.
nmt_tool() {
  if [ -n "${NMT_BIN:-}" ]; then echo "$NMT_BIN/$1"
  elif command -v "$1" > /dev/null; then command -v "$1"
  elif [ -x "$(dirname "$0")/$1" ]; then echo "$(dirname "$0")/$1"
  else echo "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/bin/$1"; fi
}

# -h and --help: the usage ($USAGE: the synopsis, then the options) and where the tools
# come from, on stdout, status 0.
show_usage() {
  echo "usage: $USAGE"
  echo "Tools: \$NMT_BIN, else PATH, else the directory of this command, else the checkout's build/bin."
  exit 0
}

# A usage error: the message, the synopsis (the first line of $USAGE), status 2.
die_usage() {
  echo "$NAME: $1" >&2
  echo "usage: ${USAGE%%$'\n'*}" >&2
  if [[ $USAGE == *$'\n'* ]]; then echo "($NAME -h lists the options)" >&2; fi
  exit 2
}

# The rest of a getopts loop whose option string starts with ":" (errors reported here)
# and has "h" and "-:": answers -h and --help, and rejects any other option. Call with
# the option letter and OPTARG.
common_option() {
  case $1 in
    h) show_usage ;;
    -) [ "$2" = help ] && show_usage; die_usage "unknown option --$2" ;;
    :) die_usage "option -$2 needs a value" ;;
    *) die_usage "unknown option -$2" ;;
  esac
}

need_file() {
  [ -r "$2" ] || { echo "$NAME: $1 $2 cannot be read" >&2; exit 1; }
}
