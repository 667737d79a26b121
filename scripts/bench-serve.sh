#!/usr/bin/env bash
# nmt-serve's speed and latency against nmt-decode's file mode, in one run, on Multi30k
# test_2016_flickr (1,000 sentences BPE'd by scripts/prepare-multi30k.sh), one sentence per
# request to POST /v1/translate ({"text": LINE, "input": "pieces"}), sent by
# build/bench/serve_load (tests/bench/serve_load.cc) over keep-alive connections to 127.0.0.1.
# Every 200 reply's pieces are compared with nmt-decode's translation of the same line.
# It measures, for each of two ways of sharing this machine's cores:
#   pinned      nmt-serve --threads 1 on core 1 (taskset -c 1), the client on core 0
#               (taskset -c 0); the file-mode baseline nmt-decode --threads 1 on core 1;
#   both cores  nmt-serve --threads 2 on cores 0 and 1 (taskset -c 0,1), the client
#               unpinned, beside it; the baseline nmt-decode --threads 2;
# 1. nmt-decode in file mode (--mini-batch 32, --max-length 0 as nmt-serve's default; beam 5
#    and greedy): sentences/s of the translation, model loading excluded (the time of a run
#    on an empty input taken off), medians of 3 runs before and 3 after the server's runs of
#    the same configuration and beam;
# 2. nmt-serve with the same model, beam and precision and its default --batch-wait-ms at 1,
#    8, 32 and 64 clients (closed loop: each client sends its next sentence when its reply
#    has come): sentences/s, their ratio to file mode, latency and the mean batch (GET
#    /metrics); and --batch-wait-ms 0, 2, 5 and 10 at 1 and 32 clients (beam 5), --rounds
#    rounds (default 3) of --wait-seconds runs (default 8) taken in turn, medians: the best
#    default is the fastest at 32 clients;
# 3. latency at half and at twice the capacity measured in 2 (beam 5, the fastest client
#    count at the default --batch-wait-ms), open loop: requests at a fixed rate for
#    --open-seconds (default 30), each on a free connection of a pool of --queue-size + 512
#    connections (nmt-serve's default --queue-size, from --dump-config; the server runs with
#    --max-connections --queue-size + 1024), so that the server's queue, not the pool or the
#    connection limit, is what refuses the excess);
# 4. on both cores: a sanity row with hey (one fixed body, which is all hey sends) beside
#    serve_load sending that same line, and the server's resident memory (VmRSS of
#    /proc/PID/status) after 1,000, 10,000, half of and all --memory-requests requests
#    (greedy, 32 clients), which should stay within 10% (and grow by no more than 2% over the
#    last half, from 10,000 requests on: more would be a leak; less is the heap reaching
#    its high-water mark).
#   scripts/bench-serve.sh [--model MODEL] [--train-minutes M] [--precision P] [--seconds S]
#                          [--requests N] [--open-seconds S] [--memory-requests N] [--rounds R]
#                          [--wait-seconds S]
# Without --model it first trains a model for M minutes (default 3) on 2 threads: speed
# hardly depends on quality, but an untrained model's translations run long. --seconds and
# --requests bound each closed-loop run (default 15 s and 3,000 requests). Every run is
# bounded; the server is stopped on exit, error or interrupt. Logs: build/bench-data/serve/.
# Prints Markdown tables, then any problem seen (an error, a wrong translation, a server that
# died or did not stop); exits 1 when there was one. With the defaults it takes about 25
# minutes on 2 cores (3 of them training).
set -euo pipefail
cd "$(dirname "$0")/.."
command_line="scripts/bench-serve.sh${*:+ $*}"
minutes=3 model="" precision=fp32 seconds=15 requests=3000 open_seconds=30 memory_requests=100000 rounds=3 wait_seconds=8
while [ $# -gt 0 ]; do
  case "$1" in
    --model) model=$2; shift 2 ;;
    --train-minutes) minutes=$2; shift 2 ;;
    --precision) precision=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --requests) requests=$2; shift 2 ;;
    --open-seconds) open_seconds=$2; shift 2 ;;
    --memory-requests) memory_requests=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --wait-seconds) wait_seconds=$2; shift 2 ;;
    *) echo "bench-serve.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ "$(nproc)" -ge 2 ] || { echo "bench-serve.sh: needs 2 cores (it pins the server and the client apart)" >&2; exit 2; }
./scripts/install-deps.sh --bench
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target nmt-serve nmt-decode serve_load nmt-train nmt-tokenize nmt-bpe >/dev/null
data=build/bench-data/multi30k-de-en
./scripts/prepare-multi30k.sh "$data"
work=build/bench-data/serve
mkdir -p "$work"
# Copies of the programs measured: every run uses the same build even if build/ changes meanwhile.
bin=$work/bin
mkdir -p "$bin"
cp build/bin/nmt-serve build/bin/nmt-decode build/bench/serve_load "$bin/"
# The open loop's pool exceeds what the server's queue holds (its default --queue-size plus
# the batches running), and the server's --max-connections the pool: the queue is what refuses.
queue_size=$("$bin/nmt-serve" --dump-config | sed -n 's/^queue-size = //p')
default_wait=$("$bin/nmt-serve" --dump-config | sed -n 's/^batch-wait-ms = //p')
pool=$((queue_size + 512)) max_connections=$((queue_size + 1024))
if [ -z "$model" ]; then
  model=$work/model.bin
  build/bin/nmt-train -t "$data/train.bpe.de" "$data/train.bpe.en" -m "$model" --overwrite --max-minutes "$minutes" \
    --threads 2 --quiet
fi
src=$data/test_2016_flickr.bpe.de
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
lines=$(wc -l < "$src")
runs=$work/runs.log problems=$work/problems.txt
: > "$runs"
: > "$problems"
problem() { echo "$1" >> "$problems"; echo "bench-serve.sh: $1" >&2; }  # also from subshells

# The server: one at a time, stopped by stop_server, by the trap on exit, error or interrupt.
server_pid="" port=""
stop_server() {  # SIGTERM, then SIGKILL after 20 s; a server that had to be killed or exited non-zero is a problem
  [ -n "$server_pid" ] || return 0
  local pid=$server_pid status=0
  server_pid=""
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    problem "nmt-serve ($server_what) did not exit within 20 s of SIGTERM; killed (log: $work/server.log)"
    return 0
  fi
  wait "$pid" || status=$?
  [ "$status" -eq 0 ] || problem "nmt-serve ($server_what) exited with status $status after SIGTERM (log: $work/server.log)"
}
trap stop_server EXIT
trap 'exit 130' INT TERM
start_server() {  # CPUS THREADS BEAM WAIT_MS|default: sets server_pid and port
  local wait_option=(--batch-wait-ms "$4")
  [ "$4" != default ] || wait_option=()
  server_what="taskset -c $1 nmt-serve --threads $2 -b $3${wait_option[*]:+ ${wait_option[*]}}"
  : > "$work/server.log"  # before the server starts: no port of the one before is read
  taskset -c "$1" "$bin/nmt-serve" -m "$model" -c "$data/codes" -s de -t en --port 0 --threads "$2" -b "$3" \
    "${wait_option[@]}" --precision "$precision" --max-connections "$max_connections" --drain-seconds 5 -q 2> "$work/server.log" &
  server_pid=$!
  port=""
  for _ in $(seq 600); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/server.log")
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    cat "$work/server.log" >&2
    echo "bench-serve.sh: nmt-serve did not start ($server_what)" >&2
    exit 1
  fi
  # Warm-up: each worker's first batches set up its search; not measured.
  load "warm-up" --connections 8 --requests 200 > /dev/null
}

# One run of the client; prints its RESULT line (the whole report goes to $runs).
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<< " $2"; }
load() {  # WHAT OPTIONS...: the client ($client_taskset) against the running server, translations checked
  local what=$1 out limit=60 a prev=""
  shift
  for a in "$@"; do [ "${prev:-}" = --seconds ] && limit=${a%.*}; prev=$a; done
  local before
  before=$(batch_totals)
  # serve_load ends by itself within --seconds and its --timeout (30 s); timeout(1) is a second guard.
  out=$(timeout "$((limit + 120))" $client_taskset "$bin/serve_load" --port "$port" \
    --input "${load_input:-$src}" --expected "${load_expected:-$expected}" "$@" 2>&1) || {
    echo "$out" >&2; echo "bench-serve.sh: serve_load failed ($what)" >&2; exit 1; }
  printf '== %s: %s; serve_load %s\n%s\n' "$server_what" "$what" "$*" "$out" >> "$runs"
  local result after
  after=$(batch_totals)
  result="$(grep '^RESULT' <<< "$out") batch=$(awk -v a="$before" -v b="$after" 'BEGIN { split(a, x, " "); split(b, y, " ");
    printf "%.1f", (y[2] > x[2] ? (y[1] - x[1]) / (y[2] - x[2]) : 0) }')"
  echo "mean batch: $(field batch "$result") sentences" >> "$runs"
  for f in mismatches errors other unanswered; do
    [ "$(field "$f" "$result")" = 0 ] || problem "$server_what, $what: $f=$(field "$f" "$result") (see $runs)"
  done
  kill -0 "$server_pid" 2>/dev/null || { tail -20 "$work/server.log" >&2; echo "bench-serve.sh: nmt-serve died ($server_what, $what)" >&2; exit 1; }
  echo "$result"
}
# The server's batches so far, from GET /metrics (bash's /dev/tcp, HTTP/1.0): "SENTENCES BATCHES".
batch_totals() {
  local reply=""
  if exec 3<> "/dev/tcp/127.0.0.1/$port"; then
    printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
    reply=$(timeout 10 cat <&3 || true)
    exec 3<&-
  fi
  awk '/^nmt_serve_batch_sentences_sum/ { s = $2 } /^nmt_serve_batch_sentences_count/ { c = $2 } END { print s + 0, c + 0 }' \
    <<< "$reply"
}
rss_kb() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$server_pid/status"; }
# An awk one-liner over named numbers: calc 'a / b' a=1 b=2
calc() {
  local expr=$1 vars=() v
  shift
  for v in "$@"; do vars+=(-v "$v"); done
  awk "${vars[@]}" "BEGIN { printf \"%.1f\", $expr }"
}

# nmt-decode in file mode: sentences/s without model loading (median of 3 runs of each);
# the translations are the expected replies.
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
decode_seconds() {  # CPUS THREADS BEAM INPUT OUT: the wall time of one nmt-decode run
  local t0 t1
  t0=$(date +%s.%N)
  taskset -c "$1" "$bin/nmt-decode" -m "$model" -b "$3" --threads "$2" --mini-batch 32 --max-length 0 \
    --precision "$precision" -q -i "$4" -o "$5"
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }'
}
# Three runs of each, before and after the server's runs of the same configuration and beam
# (the machine's load drifts); the translations are the replies expected.
declare -A file_full file_empty
decode_runs() {  # CONFIG BEAM
  local c=$1 beam=$2 out=$work/decode.$1.b$2
  for _ in 1 2 3; do
    file_empty[$c,$beam]+="$(decode_seconds "${cpus[$c]}" "${threads[$c]}" "$beam" /dev/null "$out.empty") "
    file_full[$c,$beam]+="$(decode_seconds "${cpus[$c]}" "${threads[$c]}" "$beam" "$src" "$out.new") "
    if [ -f "$out" ]; then
      cmp -s "$out" "$out.new" || problem "nmt-decode -b $beam --threads ${threads[$c]} translated differently in two runs"
    fi
    mv "$out.new" "$out"
  done
  rm -f "$out.empty"
  echo "nmt-decode -b $beam --threads ${threads[$c]} on cores ${cpus[$c]}: ${file_full[$c,$beam]}s," \
    "on an empty input ${file_empty[$c,$beam]}s" >> "$runs"
}
decode_rate() {  # CONFIG BEAM: sentences/s, medians of the runs, model loading taken off
  calc 'n / (f - e)' n="$lines" f="$(median <<< "${file_full[$1,$2]}")" e="$(median <<< "${file_empty[$1,$2]}")"
}

configs=(pinned both)
declare -A cpus threads clients_on how
cpus[pinned]=1 threads[pinned]=1 clients_on[pinned]="taskset -c 0"
cpus[both]=0,1 threads[both]=2 clients_on[both]=""
how[pinned]="pinned: nmt-serve --threads 1 on core 1 (taskset -c 1), serve_load on core 0 (taskset -c 0), nmt-decode --threads 1 on core 1"
how[both]="both cores: nmt-serve --threads 2 on cores 0-1 (taskset -c 0,1), serve_load unpinned beside it, nmt-decode --threads 2"
declare -A file_rate rate p50 p99 batch sweep capacity open
rm -f "$work"/decode.*.b[15]

for c in "${configs[@]}"; do
  client_taskset=${clients_on[$c]}
  # Beam 5 and greedy with the server's default --batch-wait-ms, at each client count.
  for beam in 5 1; do
    expected=$work/decode.$c.b$beam
    decode_runs "$c" "$beam"
    start_server "${cpus[$c]}" "${threads[$c]}" "$beam" default
    for n in 1 8 32 64; do
      result=$(load "$n clients" --connections "$n" --requests "$requests" --seconds "$seconds")
      rate[$c,$beam,$n]=$(field sentences_per_second "$result")
      p50[$c,$beam,$n]=$(field p50_ms "$result") p99[$c,$beam,$n]=$(field p99_ms "$result")
      batch[$c,$beam,$n]=$(field batch "$result")
      echo "$c, beam $beam, $n clients: ${rate[$c,$beam,$n]} sentences/s" >&2
    done
    if [ "$beam" = 5 ] && [ "$c" = both ]; then
      # hey sends one body only: the first test line, beside serve_load sending the same.
      head -1 "$src" > "$work/one.de"
      head -1 "$expected" > "$work/one.out"
      printf '{"text": "%s", "input": "pieces"}\n' "$(sed 's/\\/\\\\/g; s/"/\\"/g' "$work/one.de")" > "$work/one.json"
      hey_out=$(timeout 300 hey -n 2048 -c 32 -t 30 -m POST -T application/json -D "$work/one.json" \
        "http://127.0.0.1:$port/v1/translate")
      printf '== %s: hey -n 2048 -c 32, the first line\n%s\n' "$server_what" "$hey_out" >> "$runs"
      hey_rate=$(sed -n 's/^ *Requests\/sec:[[:space:]]*\([0-9.]*\).*/\1/p' <<< "$hey_out")
      hey_status=$(sed -n 's/^ *\[\([0-9]*\)\][[:space:]]*\([0-9]*\) responses.*/\1: \2/p' <<< "$hey_out" | paste -sd, -)
      one=$(load_input=$work/one.de load_expected=$work/one.out load "the first line, 32 clients" --connections 32 \
        --requests 2048 --seconds "$seconds")
      one_rate=$(field sentences_per_second "$one")
    fi
    stop_server
    decode_runs "$c" "$beam"
    file_rate[$c,$beam]=$(decode_rate "$c" "$beam")
    echo "file mode, $c, beam $beam: ${file_rate[$c,$beam]} sentences/s" >&2
  done
  # Capacity: the fastest client count at beam 5; then half and twice it, open loop.
  capacity[$c]=$(for n in 1 8 32 64; do echo "${rate[$c,5,$n]}"; done | sort -n | tail -1)
  expected=$work/decode.$c.b5
  start_server "${cpus[$c]}" "${threads[$c]}" 5 default
  for load_factor in 0.5 2; do
    offered=$(calc 'c * f' c="${capacity[$c]}" f="$load_factor")
    result=$(load "open loop at $load_factor x capacity" --rate "$offered" --pool "$pool" --seconds "$open_seconds" \
      --requests 100000000)
    open[$c,$load_factor]="$offered $result"
    echo "$c, open loop at $offered requests/s: $(field ok "$result") ok, $(field rejected "$result") 503" >&2
  done
  stop_server
  # --batch-wait-ms: rounds in turn (the machine's load drifts), 1 and 32 clients, beam 5; medians.
  for round in $(seq "$rounds"); do
    for wait in 0 2 5 10; do
      start_server "${cpus[$c]}" "${threads[$c]}" 5 "$wait"
      for n in 1 32; do
        result=$(load "$n clients, round $round" --connections "$n" --requests "$requests" --seconds "$wait_seconds")
        for f in sentences_per_second p50_ms p99_ms batch; do
          sweep[$c,$wait,$n,$f]+="$(field "$f" "$result") "
        done
      done
      echo "$c, --batch-wait-ms $wait, round $round: $(field sentences_per_second "$result") sentences/s at 32 clients" >&2
      stop_server
    done
  done
done

for beam in 5 1; do
  cmp -s "$work/decode.pinned.b$beam" "$work/decode.both.b$beam" ||
    problem "nmt-decode --threads 1 and --threads 2 translate differently at beam $beam"
done

# Memory: greedy, 32 clients, both cores, the default --batch-wait-ms; VmRSS after each count of requests.
client_taskset="" expected=$work/decode.both.b1
start_server 0,1 2 1 default
memory_done=0 memory_rows=()
for total in 1000 10000 $((memory_requests / 2)) "$memory_requests"; do
  [ "$total" -gt "$memory_done" ] && [ "$total" -le "$memory_requests" ] || continue
  result=$(load "memory, to $total requests" --connections 32 --requests "$((total - memory_done))" --seconds 900)
  memory_done=$((memory_done + $(field sent "$result")))
  memory_rows+=("$memory_done $(rss_kb)")
done
stop_server

# The tables.
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "")
echo
machine="$(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1), $(nproc) cores, $(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2)"
echo "Date: $(date +%F) · Command: \`$command_line\` · Commit: $commit · Machine: $machine"
echo
for c in "${configs[@]}"; do echo "- ${how[$c]}"; done
echo "- nmt-serve with its defaults (--batch-wait-ms $default_wait, --queue-size $queue_size) and --max-connections $max_connections; the --batch-wait-ms table sets the wait"
echo "- load average (1, 5, 15 min) before the measurements: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| configuration | beam | file mode | 1 client | 8 clients | 32 clients | 64 clients | best / file mode |"
echo "|---|---|---|---|---|---|---|---|"
for c in "${configs[@]}"; do
  for beam in 5 1; do
    best=$(for n in 1 8 32 64; do echo "${rate[$c,$beam,$n]}"; done | sort -n | tail -1)
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$c" "$beam" "${file_rate[$c,$beam]}" \
      "${rate[$c,$beam,1]}" "${rate[$c,$beam,8]}" "${rate[$c,$beam,32]}" "${rate[$c,$beam,64]}" \
      "$(awk -v b="$best" -v f="${file_rate[$c,$beam]}" 'BEGIN { printf "%.2f", b / f }')"
  done
done
echo
echo "The same runs: p50 / p99 latency (ms), and the mean sentences per batch (from GET /metrics):"
echo
echo "| configuration | beam | 1 client | 8 clients | 32 clients | 64 clients |"
echo "|---|---|---|---|---|---|"
for c in "${configs[@]}"; do
  for beam in 5 1; do
    printf '| %s | %s |' "$c" "$beam"
    for n in 1 8 32 64; do
      printf ' %.1f / %.1f, batch %s |' "${p50[$c,$beam,$n]}" "${p99[$c,$beam,$n]}" "${batch[$c,$beam,$n]}"
    done
    echo
  done
done
echo
echo "--batch-wait-ms, beam 5, medians of $rounds rounds taken in turn ($wait_seconds s a run; every round's figures in brackets):"
echo
echo "| configuration | --batch-wait-ms | 32 clients: sentences/s | p50 / p99 ms | mean batch | 1 client: sentences/s | p50 ms |"
echo "|---|---|---|---|---|---|---|"
declare -A best_wait
med() { median <<< "${sweep[$1]}"; }
for c in "${configs[@]}"; do
  best_wait[$c]=$(for w in 0 2 5 10; do echo "$(med "$c,$w,32,sentences_per_second") $w"; done | sort -g | tail -1 |
    cut -d' ' -f2)
  for w in 0 2 5 10; do
    mark=""; [ "$w" = "${best_wait[$c]}" ] && mark=" (fastest)"
    printf '| %s | %s%s | %s [%s] | %.1f / %.1f | %s | %s [%s] | %.1f |\n' "$c" "$w" "$mark" \
      "$(med "$c,$w,32,sentences_per_second")" "$(echo ${sweep[$c,$w,32,sentences_per_second]} | tr ' ' '/')" \
      "$(med "$c,$w,32,p50_ms")" "$(med "$c,$w,32,p99_ms")" "$(med "$c,$w,32,batch")" \
      "$(med "$c,$w,1,sentences_per_second")" "$(echo ${sweep[$c,$w,1,sentences_per_second]} | tr ' ' '/')" \
      "$(med "$c,$w,1,p50_ms")"
  done
done
echo
echo "Open loop, beam 5, for ${open_seconds} s on a pool of $pool connections, --queue-size $queue_size (capacity: the fastest closed-loop rate above):"
echo
echo "| configuration | offered requests/s | 200 | 503 | client backlog | 200s/s | mean batch | 200: p50 / p99 ms | 503: p50 / p99 ms | mismatches |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for c in "${configs[@]}"; do
  for f in 0.5 2; do
    read -r offered result <<< "${open[$c,$f]}"
    printf '| %s | %s (%sx capacity) | %s | %s | %s | %s | %s | %.1f / %.1f | %.1f / %.1f | %s |\n' "$c" "$offered" "$f" \
      "$(field ok "$result")" "$(field rejected "$result")" "$(field backlog "$result")" \
      "$(field sentences_per_second "$result")" "$(field batch "$result")" "$(field p50_ms "$result")" \
      "$(field p99_ms "$result")" "$(field rejected_p50_ms "$result")" "$(field rejected_p99_ms "$result")" \
      "$(field mismatches "$result")"
  done
done
echo
echo "hey against serve_load, both cores, beam 5, 32 connections, the first test line in every request:"
echo "hey ${hey_rate:-?} requests/s (statuses ${hey_status:-?}), serve_load ${one_rate:-?} sentences/s"
echo
echo "nmt-serve's resident memory, both cores, greedy, 32 clients:"
echo
echo "| requests answered | VmRSS (MB) | against 1,000 |"
echo "|---|---|---|"
first_kb=""
for row in "${memory_rows[@]}"; do
  read -r n kb <<< "$row"
  [ -n "$first_kb" ] || first_kb=$kb
  printf '| %s | %s | %s |\n' "$n" "$(calc 'k / 1024' k="$kb")" "$(awk -v a="$kb" -v b="$first_kb" 'BEGIN { printf "%.3f", a / b }')"
done
last_kb=${kb:-0}
read -r half_n half_kb <<< "$(for row in "${memory_rows[@]}"; do echo "$row"; done | tail -2 | head -1)"
echo
echo "From $half_n to $memory_done requests VmRSS grew by" \
  "$(awk -v a="$last_kb" -v b="${half_kb:-1}" 'BEGIN { printf "%.2f%%", (a / b - 1) * 100 }')."
awk -v a="$last_kb" -v b="${first_kb:-1}" 'BEGIN { exit !(a / b > 1.10) }' &&
  problem "nmt-serve's VmRSS grew by more than 10% from 1,000 to $memory_done requests"
# (The heap reaches its high-water mark within some 30,000 requests: no leak check before 10,000.)
[ "${half_n:-0}" -ge 10000 ] && awk -v a="$last_kb" -v b="${half_kb:-1}" 'BEGIN { exit !(a / b > 1.02) }' &&
  problem "nmt-serve's VmRSS grew by more than 2% from $half_n to $memory_done requests: a leak?"
echo
for c in "${configs[@]}"; do
  echo "Fastest --batch-wait-ms at 32 clients, $c: ${best_wait[$c]}"
done
if [ -s "$problems" ]; then
  echo
  echo "Problems:"
  sed 's/^/- /' "$problems"
  exit 1
fi
