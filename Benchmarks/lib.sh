# Shared by the benchmark scripts (sourced, not run): root/sudo, installs and builds, free ports, wrk latencies,
# CPU time per request, FIGURE and TARGET lines (thresholds from Benchmarks/Thresholds/), results files
# (Benchmarks/results/: what a script printed, and its figures and targets as JSON).

# as_root COMMAND…: runs it as root, through sudo when not root already.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# install_missing LABEL PACKAGE…: apt-installs the packages (none: nothing), then what the project itself needs
# (scripts/install-deps.sh: libmicrohttpd-dev, pkg-config, the Python test tools).
install_missing() {
  local label=$1
  shift
  if [ $# -gt 0 ]; then
    echo "$label: apt-get install $*"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
  fi
  bash scripts/install-deps.sh
}

# build COMMAND…: runs a build quietly; prints its output only if it fails, then exits.
build() {
  local output
  if ! output=$("$@" 2>&1); then
    printf '%s\n' "$output" >&2
    exit 1
  fi
}

# release_binary LABEL: sets TABCONFIG_BINARY to a release tabconfig, built into .build-bench/ when it is unset.
release_binary() {
  if [ -z "${TABCONFIG_BINARY:-}" ]; then
    echo "$1: swift build -c release --scratch-path .build-bench --product tabconfig"
    build swift build -c release --scratch-path .build-bench --product tabconfig
    TABCONFIG_BINARY="$(swift build -c release --scratch-path .build-bench --show-bin-path)/tabconfig"
  fi
}

# one_server_workdir NAME: sets work to a new directory .build-bench/NAME.XXXXXX (on disk, not tmpfs: the stores
# fsync) and, at exit, stops the server that scripts/server.sh started ($server_pid), if any, and removes work.
one_server_workdir() {
  mkdir -p .build-bench
  work=$(mktemp -d "$(pwd)/.build-bench/$1.XXXXXX")
  server_pid=
  trap one_server_cleanup EXIT
}

one_server_cleanup() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}

# cpu_ticks PID…: the CPU the processes have used, in clock ticks, as "USER SYSTEM": their threads' and that of
# the children they have waited for (PostgreSQL's ended backends count in the postmaster's). A process gone is 0.
cpu_ticks() {
  local pid stat user=0 system=0
  for pid in "$@"; do
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
    # The fields after the command name (which may hold spaces): utime, stime, cutime and cstime are the 12th to
    # 15th of them (fields 14 to 17 of proc(5)).
    read -r -a stat <<<"${stat##*) }"
    user=$((user + stat[11] + stat[13]))
    system=$((system + stat[12] + stat[14]))
  done
  echo "$user $system"
}

# process_tree PID: PID and every process below it.
process_tree() {
  local child
  echo "$1"
  for child in $(pgrep -P "$1" || true); do
    process_tree "$child"
  done
}

# cpu_per_request BEFORE AFTER REQUESTS: the microseconds of CPU per request between two cpu_ticks readings, as
# "USER SYSTEM" with one decimal ("n/a n/a" without requests).
cpu_per_request() {
  awk -v before="$1" -v after="$2" -v n="$3" -v hz="$(getconf CLK_TCK)" 'BEGIN {
    split(before, b, " "); split(after, a, " ")
    if (n > 0) printf "%.1f %.1f", (a[1] - b[1]) * 1e6 / hz / n, (a[2] - b[2]) * 1e6 / hz / n; else print "n/a n/a"
  }'
}

# wrk_requests: the number of requests in wrk's output (on stdin).
wrk_requests() {
  sed -n 's/^ *\([0-9][0-9]*\) requests in .*/\1/p' | head -n 1
}

# put_unexpected: the count of answers Benchmarks/put-tab-order.lua did not expect, from wrk's output (on stdin);
# nothing when the script printed none.
put_unexpected() {
  sed -n 's/^put-tab-order.lua: responses other than [0-9]*: \([0-9]*\)$/\1/p'
}

# machine: one line with the core count, the CPU model, the memory and the load average.
machine() {
  echo "nproc: $(nproc); CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1);" \
    "memory: $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo);" \
    "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# print_machine: prints that line.
print_machine() {
  machine
}

# fields_of URL FILE [CURL OPTION…]: writes to FILE the header fields the answer to URL (a GET, unless the options
# say otherwise) has that the floor (Benchmarks/http-floor) sends as they are: Content-Type, Cache-Control, ETag,
# Vary (libmicrohttpd and MicroHTTP add Date, Content-Length, X-Request-Id).
fields_of() {
  curl -sf -D - -o /dev/null "${@:3}" "$1" | tr -d '\r' | grep -iE '^(content-type|cache-control|etag|vary):' >"$2"
}

# free_port: a TCP port free on 127.0.0.1 right now.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# to_ms LATENCY: a wrk latency (123.45us, 1.23ms, 2.00s) in milliseconds.
to_ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0
    if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /m$/) n *= 60000; else if (v ~ /s$/) n *= 1000
    printf "%.2f", n }'
}

# wrk_percentile P < wrk output: the P% latency of wrk's latency distribution, in milliseconds.
wrk_percentile() {
  to_ms "$(awk -v p="$1%" '/Latency Distribution/ { f = 1 } f && $1 == p { print $2; exit }')"
}

# wrk_errors < wrk output: non-2xx responses plus socket errors (connect, read, write, timeout); wrk prints their
# lines only when there are some.
wrk_errors() {
  awk '/Non-2xx or 3xx responses:/ { n += $NF }
    /Socket errors:/ { gsub(/,/, ""); n += $4 + $6 + $8 + $10 }
    END { print n + 0 }'
}

failed=0
targets=()

# figure NAME VALUE [UNIT]: prints "FIGURE NAME VALUE UNIT", a measured figure (what Benchmarks/scaling.py reads, and
# the results' JSON file keeps).
figure() {
  echo "FIGURE $1 $2${3:+ $3}"
}

# The script's thresholds: Benchmarks/Thresholds/<script name>.txt, one target a line, "NAME OP VALUE" (OP: >=, <=
# or ==; # starts a comment).
thresholds_file=Benchmarks/Thresholds/$(basename "$0" .sh).txt

# threshold NAME: "OP VALUE" of the target NAME in the thresholds file; nothing when it has none.
threshold() {
  awk -v name="$1" '$1 == name { print $2, $3; exit }' "$thresholds_file" 2>/dev/null || true
}

# threshold_value NAME: VALUE alone.
threshold_value() {
  threshold "$1" | cut -d' ' -f2
}

# target NAME MEASURED [OP VALUE]: records the TARGET line (printed after the table); a non-number fails. Without OP
# and VALUE they are read from the thresholds file (a target missing there fails).
target() {
  local op=${3:-} value=${4:-} verdict
  if [ $# -lt 4 ]; then
    read -r op value <<<"$(threshold "$1")"
    if [ -z "$value" ]; then
      targets+=("TARGET $1: $2 (no threshold in $thresholds_file) FAIL")
      failed=1
      return
    fi
  fi
  verdict=$(awk -v m="$2" -v op="$op" -v v="$value" 'BEGIN {
    if (m !~ /^[0-9.]+$/) ok = 0; else ok = (op == ">=") ? (m >= v) : (op == "<=") ? (m <= v) : (m == v)
    print ok ? "PASS" : "FAIL" }')
  targets+=("TARGET $1: $2 (required $op $value) $verdict")
  [ "$verdict" = PASS ] || failed=1
}

# commit_id: HEAD's short hash, with "-dirty" when the work tree differs from it (results files aside).
commit_id() {
  local id
  id=$(git rev-parse --short HEAD 2>/dev/null) || { echo unknown; return; }
  [ -z "$(git status --porcelain -- . ':!Benchmarks/results' 2>/dev/null)" ] || id+=-dirty
  echo "$id"
}

# results_start: from here on, what the script prints (stdout) is also kept, under a header naming the UTC date, the
# commit, the machine, the command with its BENCH_* settings, the tabconfig binary and the thresholds file;
# results_save then writes it to Benchmarks/results/<script name>/<UTC date>-<commit>.md (…-2.md, …-3.md when that
# exists), and beside it the same name ending in .json: those facts, every FIGURE line as {"value", "unit"} under
# "figures" and every TARGET line as {"name", "measured", "op", "required", "pass"} under "targets", and "passed"
# (every target passed). BENCH_RESULTS=0: nothing is kept.
results_start() {
  [ "${BENCH_RESULTS:-1}" != 0 ] || return 0
  results_name=$(basename "$0" .sh)
  results_date=$(date -u +%Y-%m-%d)
  results_time=$(date -u '+%Y-%m-%d %H:%M:%S')
  results_commit=$(commit_id)
  results_machine=$(machine)
  results_settings=$(env | grep -E '^BENCH_[A-Z_]*=' | sort | tr '\n' ' ' || true)
  mkdir -p .build-bench
  results_log=$(mktemp "$(pwd)/.build-bench/results.XXXXXX")
  {
    echo "# Benchmarks/$results_name.sh"
    echo
    echo "- date: $results_time UTC"
    echo "- commit: $results_commit (\`git rev-parse --short HEAD\`; -dirty: the work tree differed from it)"
    echo "- machine: $results_machine (at the start)"
    echo "- command: \`Benchmarks/$results_name.sh\`; settings: ${results_settings:-none}"
    echo "- tabconfig: ${TABCONFIG_BINARY:-none}"
    [ ! -f "$thresholds_file" ] ||
      echo "- thresholds: [Thresholds/$results_name.txt](../../Thresholds/$results_name.txt) at that commit"
    echo
    echo "What the script printed:"
    echo
    echo '```text'
  } >"$results_log"
  exec 3>&1 > >(tee -a "$results_log")
  results_tee=$!
}

# results_save: writes what results_start kept into its results file, and says where on stderr.
results_save() {
  [ -n "${results_log:-}" ] || return 0
  local base file n=1
  exec 1>&3 3>&-
  # tee ends when nothing writes to it any more. A server still running holds the pipe too, so wait at most 2 s:
  # tee writes what it reads at once.
  for _ in $(seq 1 40); do
    kill -0 "$results_tee" 2>/dev/null || break
    sleep 0.05
  done
  echo '```' >>"$results_log"
  mkdir -p "Benchmarks/results/$results_name"
  base=Benchmarks/results/$results_name/$results_date-$results_commit
  file=$base.md
  while [ -e "$file" ]; do
    n=$((n + 1))
    file=$base-$n.md
  done
  results_json "$results_log" >"${file%.md}.json"
  chmod 644 "$results_log"
  mv "$results_log" "$file"
  results_log=
  echo "results: $file, ${file%.md}.json" >&2
}

# results_json LOG: the JSON of results_save, from the FIGURE and TARGET lines of the kept output LOG.
results_json() {
  python3 - "$1" "$results_name" "$results_time" "$results_commit" "$results_machine" "${results_settings:-}" \
    "${TABCONFIG_BINARY:-}" "$thresholds_file" <<'PYTHON'
import json, os, re, sys

log, script, time, commit, machine, settings, binary, thresholds = sys.argv[1:9]
figures, targets = {}, []
for line in open(log, encoding="utf-8", errors="replace"):
    line = line.rstrip("\n")
    if match := re.match(r"^FIGURE (\S+) (\S+)(?: (.*))?$", line):
        try:
            value = float(match.group(2))
        except ValueError:
            value = None
        figures[match.group(1)] = {"value": value, "unit": match.group(3) or ""}
    elif match := re.match(r"^TARGET (\S+): (\S+) \((?:required (\S+) (\S+)|.*)\) (PASS|FAIL)$", line):
        try:
            measured = float(match.group(2))
        except ValueError:
            measured = None
        required = float(match.group(4)) if match.group(4) else None
        targets.append({"name": match.group(1), "measured": measured, "op": match.group(3), "required": required,
                        "pass": match.group(5) == "PASS"})
print(json.dumps({
    "script": f"Benchmarks/{script}.sh", "date": f"{time} UTC", "commit": commit, "machine": machine,
    "settings": settings.split(), "tabconfig": binary or None,
    "thresholds": thresholds if os.path.exists(thresholds) else None,
    "passed": all(target["pass"] for target in targets), "figures": figures, "targets": targets,
}, indent=2))
PYTHON
}

# pgbench_upsert NAME URL DIR [POSTMASTER_PID]: the PostgreSQL reference of the durable-write scenarios on the
# database at URL: its table (Benchmarks/pgbench-schema.sql), then Benchmarks/pgbench-upsert.sql at $connections
# clients (pgbench -j 2, prepared statements), a $warmup s warm-up and a $duration s run logging each transaction
# into DIR. Sets rps/p50/p99[NAME] (declared by the caller) and the errors/NAME target; prints what it ran. With the
# cluster's postmaster, also prints the CPU per transaction of the measured run, PostgreSQL's and pgbench's, and
# sets cpu_total[NAME] (declared by the caller) to their sum.
pgbench_upsert() {
  local name=$1 url=$2 dir=$3 output aborted
  local pgbin=/usr/lib/postgresql/15/bin
  "$pgbin/psql" "$url" -v ON_ERROR_STOP=1 -q -f Benchmarks/pgbench-schema.sql
  echo "postgresql: $("$pgbin/psql" "$url" -Atc "select version() || '; fsync=' || current_setting('fsync') || ', synchronous_commit=' || current_setting('synchronous_commit') || ', wal_sync_method=' || current_setting('wal_sync_method') || ', shared_buffers=' || current_setting('shared_buffers')")"
  local bench=("$pgbin/pgbench" -n -c "$connections" -j 2 -M prepared -f Benchmarks/pgbench-upsert.sql)
  "${bench[@]}" -T "$warmup" "$url" >/dev/null 2>&1
  local database_before database_after client_before client_after
  [ -n "${4:-}" ] && database_before=$(cpu_ticks $(process_tree "$4")) && client_before=$(cpu_ticks $$)
  output=$("${bench[@]}" -T "$duration" -l --log-prefix="$dir/txlog" "$url" 2>&1) || { printf '%s\n' "$output" >&2; failed=1; }
  if [ -n "${4:-}" ]; then
    client_after=$(cpu_ticks $$)
    sleep 0.5 # pgbench's backends end and are waited for: their CPU then counts in the postmaster's
    database_after=$(cpu_ticks $(process_tree "$4"))
    local transactions
    transactions=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$output")
    local database_cpu client_cpu
    database_cpu=$(cpu_per_request "$database_before" "$database_after" "$transactions")
    client_cpu=$(cpu_per_request "$client_before" "$client_after" "$transactions")
    echo "$name: CPU per transaction (user + system microseconds): PostgreSQL ${database_cpu/ /+}, pgbench" \
      "${client_cpu/ /+}"
    cpu_total[$name]=$(awk -v d="$database_cpu" -v c="$client_cpu" \
      'BEGIN { split(d, x, " "); split(c, y, " "); printf "%.1f", x[1] + x[2] + y[1] + y[2] }')
  fi
  rps[$name]=$(awk -v t="$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p' <<<"$output")" \
    'BEGIN { printf "%.2f", t }')
  # Per-transaction log lines: client_id transaction_no latency_us script_no epoch_s epoch_us.
  read -r "p50[$name]" "p99[$name]" < <(cat "$dir"/txlog.* | python3 -c '
import sys
latencies = sorted(int(line.split()[2]) for line in sys.stdin if line.strip())
pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] / 1000
print("%.2f %.2f" % (pick(0.50), pick(0.99)) if latencies else "0 0")')
  rm -f "$dir"/txlog.*
  aborted=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' <<<"$output")
  echo "$name: $(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1 transactions/p' <<<"$output") in ${duration}s, $(sed -n 's/^latency average = //p' <<<"$output") average, failed transactions: ${aborted:-?}"
  target "errors/put/$name" "${aborted:-1}" "==" 0
  echo "$name: $("$pgbin/psql" "$url" -Atc "select count(*) || ' rows, revisions summing to ' || sum(revision) from customizations")"
}
