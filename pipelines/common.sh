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

# --version: "NAME (rnnsearch) VERSION" on stdout, status 0, as the tools begin theirs. The
# version is the installed project's (PREFIX/share/rnnsearch/version, written by the build
# beside this file), or in a checkout that of project() in CMakeLists.txt.
show_version() {
  local here version=""
  here=$(dirname "${BASH_SOURCE[0]}")
  if [ -f "$here/version" ]; then
    version=$(head -n 1 "$here/version")
  elif [ -f "$here/../CMakeLists.txt" ]; then
    version=$(sed -n -E 's/^project\(rnnsearch VERSION ([0-9][0-9.]*)[ )].*/\1/p' "$here/../CMakeLists.txt")
  fi
  [ -n "$version" ] || { echo "$NAME: no version: neither $here/version nor $here/../CMakeLists.txt names one" >&2; exit 1; }
  echo "$NAME (rnnsearch) $version"
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
# and has "h" and "-:": answers -h, --help and --version, and rejects any other option.
# Call with the option letter and OPTARG.
common_option() {
  case $1 in
    h) show_usage ;;
    -) [ "$2" = help ] && show_usage; [ "$2" = version ] && show_version; die_usage "unknown option --$2" ;;
    :) die_usage "option -$2 needs a value" ;;
    *) die_usage "unknown option -$2" ;;
  esac
}

need_file() {
  [ -r "$2" ] || { echo "$NAME: $1 $2 cannot be read" >&2; exit 1; }
}

# ---- Files removed when the recipe exits, whatever ends it: remove_on_exit PATH... (the
# recipe's work folders), and the temporary files of outputs not yet renamed into place.
exit_removals=()
staged_temps=() staged_targets=() staged_paths=()
remove_on_exit() { exit_removals+=("$@"); }
remove_exit_files() {
  if [ ${#exit_removals[@]} -gt 0 ]; then rm -rf -- "${exit_removals[@]}"; fi
  if [ ${#staged_temps[@]} -gt 0 ]; then rm -f -- "${staged_temps[@]}"; fi
}
trap remove_exit_files EXIT

# ---- Children. A signal (HUP, INT, TERM) ends every process the recipe started, tools,
# pipelines and recipes it calls, waits for them, and exits 128 + the signal's number.
# Bash runs a trap only once the foreground command has ended: a long stage runs as
# `run_job COMMAND...` (a tool, or a function holding a pipeline) so the trap runs at once.

# run_job COMMAND [ARGS...]: COMMAND with the recipe's standard input, waited for; its status.
run_job() {
  "$@" <&0 &
  wait $!
}

# The processes descending from this shell now, one PID a line; not the subshell that
# lists them ($BASHPID in it) nor its ps and awk.
descendants() {
  local self=$BASHPID  # here, not in the pipeline's subshells
  ps -e -o pid= -o ppid= | awk -v root=$$ -v self="$self" '
    { parent[$1] = $2 }
    END {
      for (p in parent) {
        q = p
        while (q in parent && q != root && q != self && q > 1) q = parent[q]
        if (q == root && p != root) print p
      }
    }'
}

# Stops every descendant first (a stopped process starts no other), so none is missed when
# its parent dies and it moves to init; then TERM and CONT to all, and waits for them: the
# children with wait, the others until they are gone (KILL after 60 s: a tool saving).
end_descendants() {
  local pids=() fresh pid known i
  while :; do
    fresh=()
    for pid in $(descendants); do
      known=no
      for i in "${pids[@]}"; do [ "$i" = "$pid" ] && known=yes && break; done
      [ $known = yes ] || fresh+=("$pid")
    done
    [ ${#fresh[@]} -gt 0 ] || break
    kill -STOP "${fresh[@]}" 2> /dev/null || true
    pids+=("${fresh[@]}")
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  kill -TERM "${pids[@]}" 2> /dev/null || true
  kill -CONT "${pids[@]}" 2> /dev/null || true
  wait 2> /dev/null || true
  for ((i = 0; i < 600; i++)); do
    kill -0 "${pids[@]}" 2> /dev/null || return 0
    sleep 0.1
  done
  kill -KILL "${pids[@]}" 2> /dev/null || true
}

on_signal() {  # NUMBER
  trap '' HUP INT TERM  # a second signal (Ctrl-C again) does not start the clean-up again
  end_descendants
  exit $((128 + $1))
}
trap 'on_signal 1' HUP
trap 'on_signal 2' INT
trap 'on_signal 15' TERM

# ---- Outputs, by the tools' rule (util::AtomicFileWriter): a regular file, or a name not
# yet taken, is written beside its final name and renamed into place, so a failure leaves
# the old file or none; a device, a FIFO or a descriptor (-, /dev/stdout, /dev/fd/N) is
# written directly, never replaced; symbolic links are followed to the file they name.
# check_outputs refuses two outputs that are one file and a folder that is not there before
# anything is written; a write that fails (a full disk) is one line and status 1.

# file_error PATH MESSAGE: "NAME: PATH: MESSAGE" on stderr, status 1 (bad input, a full disk).
file_error() {
  echo "$NAME: $1: $2" >&2
  exit 1
}

is_descriptor_name() {
  [[ $1 == - || $1 == /dev/stdout || $1 == /dev/stderr || $1 =~ ^/dev/fd/[0-9]+$ || $1 =~ ^/proc/self/fd/[0-9]+$ ]]
}

# The file output PATH ends at: symbolic links followed (the last need not exist yet).
output_target() {
  if is_descriptor_name "$1"; then printf '%s\n' "$1"; else readlink -m -- "$1"; fi
}

# True when output PATH is renamed into place (a regular file or nothing there yet).
replaced_output() {
  local target
  is_descriptor_name "$1" && return 1
  target=$(output_target "$1")
  [ ! -e "$target" ] || [ -f "$target" ]
}

# check_outputs OPTION=PATH...: every output (an empty PATH: none) can be written, and no
# two are the same file; else the message and status 1 (a folder) or 2 (usage).
check_outputs() {
  local spec name path target folder j
  local names=() paths=() targets=()
  for spec in "$@"; do
    name=${spec%%=*} path=${spec#*=}
    [ -n "$path" ] || continue
    target=$(output_target "$path")
    [ ! -d "$target" ] || file_error "$path" "is a directory"
    if replaced_output "$path"; then
      folder=$(dirname -- "$target")
      [ -d "$folder" ] || file_error "$path" "cannot create a temporary file beside it: No such file or directory"
      [ -w "$folder" ] || file_error "$path" "cannot create a temporary file beside it: Permission denied"
    fi
    for ((j = 0; j < ${#targets[@]}; j++)); do
      if [ "${targets[j]}" = "$target" ] || { [ -e "$target" ] && [ "${targets[j]}" -ef "$target" ]; }; then
        [ "$path" != - ] || die_usage "${names[j]} and $name are both standard output (-)"
        die_usage "${names[j]} and $name are the same file: ${paths[j]}"
      fi
    done
    names+=("$name") paths+=("$path") targets+=("$target")
  done
}

# The descriptor a descriptor name (is_descriptor_name) stands for.
descriptor_of() {
  case $1 in
    - | /dev/stdout) echo 1 ;;
    /dev/stderr) echo 2 ;;
    *) echo "${1##*/}" ;;
  esac
}

# copy_input SHOWN DEST: standard input to DEST, a path or a descriptor name; a failed write
# is "NAME: SHOWN: write failed: REASON", status 1. cat's messages are read by a command
# substitution, whose own standard output is not the recipe's: a descriptor is reached
# through a copy of it, as 3.
copy_input() {
  local error
  if is_descriptor_name "$2"; then
    { error=$(cat 2>&1 >&3); } 3>&"$(descriptor_of "$2")"
  else
    error=$(cat 2>&1 > "$2")
  fi || file_error "$1" "write failed: ${error##*: }"
}

# stage_output PATH < DATA: a device, FIFO or descriptor gets DATA now; a file gets it in a
# temporary file beside it, renamed into place by commit_outputs (so several outputs, a
# pair, are renamed together once all are written).
stage_output() {
  local path=$1 shown=$1 target temp mask
  [ "$path" != - ] || shown="<stdout>"
  if ! replaced_output "$path"; then copy_input "$shown" "$(output_target "$path")"; return; fi
  target=$(output_target "$path")
  # The tools' temporary name (.NAME.tmp.PID.XXXXXX): the next tool or recipe writing
  # NAME removes one that a process killed outright left.
  temp=$(mktemp -p "$(dirname -- "$target")" ".$(basename -- "$target").tmp.$$.XXXXXX" 2>&1) ||
    file_error "$path" "cannot create a temporary file beside it: ${temp##*: }"
  staged_temps+=("$temp") staged_targets+=("$target") staged_paths+=("$path")
  if [ -f "$target" ]; then  # the replacement keeps the old file's permissions and owner
    chmod --reference="$target" -- "$temp"
    chown --reference="$target" -- "$temp" 2> /dev/null || true
  else
    mask=$(umask)
    chmod "$(printf '%o' $((0666 & ~mask)))" -- "$temp"
  fi
  copy_input "$path" "$temp"
}

commit_outputs() {
  local i error
  for ((i = 0; i < ${#staged_temps[@]}; i++)); do
    error=$(mv -f -- "${staged_temps[i]}" "${staged_targets[i]}" 2>&1) ||
      file_error "${staged_paths[i]}" "cannot rename the temporary file into place: ${error##*: }"
  done
  staged_temps=() staged_targets=() staged_paths=()
}

# write_output PATH < DATA: stage_output and commit_outputs for one output.
write_output() {
  stage_output "$1"
  commit_outputs
}
