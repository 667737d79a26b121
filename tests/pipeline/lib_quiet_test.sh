#!/usr/bin/env bash
# scripts/lib-quiet.sh passes on the project and on a library that writes "printf" and
# "exit" only in comments and literals, and fails, naming file:line and the call, on every
# kind of print or exit it looks for, on a new kind of use in an allowed file, and on an
# allow-list entry that matches nothing.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/scripts/lib-quiet.sh" "$root"

fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/lib/util" "$fake/lib/train" "$fake/lib/text"
# The allow-list's uses, so that the clean fake passes whole.
printf 'void AtomicFileWriter::open() {\n  file_ = stdout;\n}\n' > "$fake/lib/util/atomic_file.cc"
printf '#pragma once\nclass ProcessGroup {\n  void abort(int exit_code) const;\n};\n' > "$fake/lib/train/process_group.h"
printf 'void ProcessGroup::abort(int code) const { mpi_->world.abort(code); }\n' > "$fake/lib/train/process_group.cc"
cat > "$fake/lib/text/quiet.cc" <<'CODE'
// printf("a comment"); std::exit(1);
/* a block comment: std::cerr << "x";
   fprintf(stderr, "still the comment"); abort(); */
#include "text/quiet.h"
int exit_code = 0;
const char* help = "print with printf(\"%d\") or std::cout, exit(2) or abort()";
const char quote = '"', backslash = '\\';
const char* raw = R"x(std::cout << "raw" ; exit(1);)x";
long million = 1'000'000;
void report(const Messages& messages, std::FILE* file) {
  messages.warn("stderr is not ours"); print_table(file); std::fprintf(file, "%d\n", exit_code);
  std::fputs(help, file);
}
CODE
if ! "$root/scripts/lib-quiet.sh" "$fake" > "$fake/out" 2> "$fake/err"; then
  echo "FAIL: comments, literals, member calls and writes to a FILE* were taken for prints or exits:" >&2
  cat "$fake/err" >&2; exit 1
fi
grep -q '^lib-quiet: ok (4 files in lib/; allowed: ' "$fake/out" || { echo "FAIL: no ok line:" >&2; cat "$fake/out" >&2; exit 1; }

cat >> "$fake/lib/text/quiet.cc" <<'CODE'
/* a comment
   over two lines */ void loud(char** argv) { std::fprintf(stderr, "x\n");
  std::exit(2);
  execv("/proc/self/exe", argv); std::cout << "out"; puts("p");
  ::write(2, "e", 1);
  _exit(1);
}
CODE
printf '  std::cerr << "a new kind of use in an allowed file";\n' >> "$fake/lib/util/atomic_file.cc"
if "$root/scripts/lib-quiet.sh" "$fake" > "$fake/out" 2> "$fake/err"; then
  echo "FAIL: prints and exits in lib/ passed" >&2; exit 1
fi
for expected in 'lib/text/quiet.cc:15: stderr:' 'lib/text/quiet.cc:16: exit:' 'lib/text/quiet.cc:17: execv:' \
                'lib/text/quiet.cc:17: cout:' 'lib/text/quiet.cc:17: puts:' 'lib/text/quiet.cc:18: write:' \
                'lib/text/quiet.cc:19: _exit:' 'lib/util/atomic_file.cc:4: cerr:'; do
  grep -qF "lib-quiet: $expected" "$fake/err" || { echo "FAIL: '$expected' not named:" >&2; cat "$fake/err" >&2; exit 1; }
done
if grep -E 'quiet\.cc:([1-9]|1[0-4]):' "$fake/err"; then echo "FAIL: a comment or literal named (above)" >&2; exit 1; fi
[ "$(grep -c '^lib-quiet: lib/[^ ]*:[0-9]*: ' "$fake/err")" -eq 8 ] || { echo "FAIL: not 8 uses named:" >&2; cat "$fake/err" >&2; exit 1; }

printf 'void AtomicFileWriter::open() {}\n' > "$fake/lib/util/atomic_file.cc"
sed -i '/^\/\* a comment$/,$d' "$fake/lib/text/quiet.cc"
if "$root/scripts/lib-quiet.sh" "$fake" > "$fake/out" 2> "$fake/err"; then
  echo "FAIL: an allow-list entry that matches nothing passed" >&2; exit 1
fi
grep -qF "allow-list entry 'lib/util/atomic_file.cc stdout' matches nothing" "$fake/err" \
  || { echo "FAIL: the stale entry not named:" >&2; cat "$fake/err" >&2; exit 1; }
echo "lib_quiet: ok"
