#!/usr/bin/env bash
# Read scenarios of the benchmark suite: GET of the default tab bar and GET of a user's tab bar (merged per request)
# from a release tabconfig, against references serving the same bytes at the same paths: a minimal libmicrohttpd
# C program (Benchmarks/ceiling/, the ceiling of this stack), nginx serving them as static files
# (Benchmarks/nginx/) and a minimal Hummingbird 2 app (Benchmarks/hummingbird-reference/). Each server runs alone
# and gets the same wrk command; prints a table of requests/s, p50/p99 and tabconfig ÷ reference, and lines
#   TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
# for the ratio targets and for zero non-2xx responses and socket errors in every run. Exits 1 if any is FAIL.
#
#   Benchmarks/reads.sh          (usually run by Benchmarks/run.sh, which builds tabconfig once for every scenario)
#
# Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_DURATION
# (seconds per measured run, default 10), BENCH_ROUNDS (measured runs per server and scenario, default 5; the
# median one is reported, because 2-core loopback runs of the same server differ by up to a factor of 1.6),
# TABCONFIG_THREADS (the service's and the ceiling's thread pool),
# BENCH_MHD_MODE (poll|epoll|select|per-connection) and BENCH_MHD_TURBO=1 to run the ceiling otherwise than the
# service (by default it uses the mode, MHD_USE_TURBO and pool size read from the service's sources).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
repo=$(pwd)
duration=${BENCH_DURATION:-10}
rounds=${BENCH_ROUNDS:-5}
warmup=2
connections=64

# Tools: wrk, nginx, gcc, curl and python3 (free ports) from apt when missing; libmicrohttpd-dev and pkg-config
# through scripts/install-deps.sh.
missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
install_missing reads "${missing[@]}"
nginx=$(command -v nginx || echo /usr/sbin/nginx)

release_binary reads

# Everything of this run lives in one directory on disk (not tmpfs: the store fsyncs), removed at exit.
mkdir -p .build-bench
work=$(mktemp -d "$repo/.build-bench/reads.XXXXXX")
echo "reads: data on $(df --output=source,fstype "$work" | tail -n 1 | tr -s ' ') ($work)"
server_pid=
stop_current() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
  fi
}
cleanup() {
  stop_current
  rm -rf "$work"
}
trap cleanup EXIT

# The references, built before anything is measured.
echo "reads: gcc -O2 Benchmarks/ceiling/ceiling.c"
gcc -O2 -Wall -o "$work/ceiling" Benchmarks/ceiling/ceiling.c $(pkg-config --cflags --libs libmicrohttpd)
echo "reads: swift build -c release --package-path Benchmarks/hummingbird-reference (minutes the first time)"
build swift build -c release --package-path Benchmarks/hummingbird-reference --product HummingbirdReference
hummingbird="$(swift build -c release --package-path Benchmarks/hummingbird-reference --show-bin-path)"
hummingbird+=/HummingbirdReference

# The ceiling polls like the service: mode, turbo flag and pool size read from its sources unless overridden.
daemon_source=Sources/MicroHTTP/Daemon.swift
if [ -z "${BENCH_MHD_MODE:-}" ]; then
  BENCH_MHD_MODE=poll
  if grep -q 'MHD_USE_THREAD_PER_CONNECTION' "$daemon_source"; then
    BENCH_MHD_MODE=per-connection
  elif grep -q 'MHD_USE_EPOLL' "$daemon_source" && ! grep -q 'MHD_USE_POLL\b' "$daemon_source"; then
    BENCH_MHD_MODE=epoll
  elif ! grep -q 'MHD_USE_POLL\b' "$daemon_source"; then
    BENCH_MHD_MODE=select
  fi
fi
if [ -z "${BENCH_MHD_TURBO:-}" ]; then
  BENCH_MHD_TURBO=0
  grep -q 'MHD_USE_TURBO' "$daemon_source" && BENCH_MHD_TURBO=1
fi
# The service's default pool is one worker thread per core (ApplicationConfiguration.threads).
threads=${TABCONFIG_THREADS:-$(nproc)}
ceiling_flags=(--mode "$BENCH_MHD_MODE" --threads "$threads")
[ "$BENCH_MHD_TURBO" = 1 ] && ceiling_flags+=(--turbo)

# wait_ready URL LOG…: waits until URL answers 200, at most 20 s; else prints the server's logs and fails.
wait_ready() {
  for _ in $(seq 1 400); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$1" 2>/dev/null)" = 200 ] && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.05
  done
  cat "${@:2}" >&2 || true
  echo "reads: no 200 from $1" >&2
  return 1
}

default_path=/v1/clients/ios-phone/tabs
user_path=/v1/clients/ios-phone/users/bench-user/tabs
query='?locale=en'
www="$work/www"
mkdir -p "$(dirname "$www$default_path")" "$(dirname "$www$user_path")"

# tabconfig first: it answers the bodies every reference then serves.
source scripts/server.sh
mkdir -p "$work/tabconfig"
start_server "$TABCONFIG_BINARY" "$work/tabconfig" TABCONFIG_ADMIN_TOKEN=bench TABCONFIG_THREADS="$threads"
base="http://127.0.0.1:$port"
curl -sf -o "$www$default_path" "$base$default_path$query"
status=$(curl -s -o "$work/put.json" -w '%{http_code}' -X PUT -H 'Content-Type: application/json' \
  -d '{"order": ["profile","favorites","search","home"], "hidden": ["settings"]}' \
  "$base/v1/clients/ios-phone/users/bench-user/tab-order")
[ "$status" = 200 ] || { echo "reads: PUT tab-order answered $status: $(cat "$work/put.json")" >&2; exit 1; }
curl -sf -o "$www$user_path" "$base$user_path$query"
default_bytes=$(wc -c <"$www$default_path")
user_bytes=$(wc -c <"$www$user_path")

wrk_command="wrk -t1 -c$connections -d${duration}s --latency URL"
echo "nproc: $(nproc); CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1);" \
  "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bodies: default tab bar $default_bytes bytes ($default_path$query)," \
  "user tab bar $user_bytes bytes ($user_path$query)"
echo "each server alone, ${warmup}s warm-up then $rounds times: $wrk_command (the median run is reported)"
echo "ceiling: libmicrohttpd 0.9.75 ${ceiling_flags[*]}; tabconfig: TABCONFIG_THREADS=$threads"

declare -A rps p50 p99 runs

# percentile P < wrk output: the P% latency of wrk's latency distribution, in milliseconds.
percentile() {
  to_ms "$(awk -v p="$1%" '/Latency Distribution/ { f = 1 } f && $1 == p { print $2; exit }')"
}

# errors < wrk output: non-2xx responses plus socket errors (connect, read, write, timeout); wrk prints their lines
# only when there are some.
errors() {
  awk '/Non-2xx or 3xx responses:/ { n += $NF }
    /Socket errors:/ { gsub(/,/, ""); n += $4 + $6 + $8 + $10 }
    END { print n + 0 }'
}

# measure SCENARIO SERVER URL: warm-up, then `rounds` measured wrk runs; records req/s, p50 and p99 of the run with
# the median req/s, and checks the errors of every run.
measure() {
  local scenario=$1 server=$2 url=$3 output round all=() errors_total=0 median
  wrk -t1 -c"$connections" -d"${warmup}s" "$url" >/dev/null 2>&1 || true
  for ((round = 0; round < rounds; round++)); do
    output=$(wrk -t1 -c"$connections" -d"${duration}s" --latency "$url" 2>&1) || true
    if ! grep -q '^Requests/sec:' <<<"$output"; then
      printf '%s\n' "$output" >&2
    fi
    grep -E 'Non-2xx|Socket errors' <<<"$output" | sed "s#^ *#$scenario $server: #" >&2 || true
    errors_total=$((errors_total + $(errors <<<"$output")))
    printf '%s\n' "$output" >"$work/run.$round"
    all+=("$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<<"$output" | grep . || echo 0) $round")
  done
  median=$(printf '%s\n' "${all[@]}" | sort -n | sed -n "$(((rounds + 1) / 2))p")
  output=$(cat "$work/run.${median#* }")
  rps[$scenario/$server]=${median% *}
  p50[$scenario/$server]=$(percentile 50 <<<"$output")
  p99[$scenario/$server]=$(percentile 99 <<<"$output")
  runs[$scenario/$server]=$(printf '%s\n' "${all[@]}" | awk '{ printf "%s%.0f", (NR > 1 ? " " : ""), $1 }')
  target "errors/$scenario/$server" "$errors_total" "==" 0
}

# verify SERVER BASE: the server answers both paths with the same bytes as tabconfig, as application/json.
verify() {
  local server=$1 base=$2 path type
  for path in "$default_path" "$user_path"; do
    type=$(curl -sf -o "$work/check.json" -w '%{content_type}' "$base$path$query") || type="no 200"
    if ! cmp -s "$work/check.json" "$www$path" || [ "$type" != application/json ]; then
      echo "reads: $server answers $path with other bytes or type ($type, $(wc -c <"$work/check.json") bytes)" >&2
      exit 1
    fi
  done
  echo "$server: both bodies byte-identical to tabconfig's ($default_bytes and $user_bytes bytes), application/json"
}

measure_both() {
  measure get-default "$1" "$2$default_path$query"
  measure get-user "$1" "$2$user_path$query"
}

measure_both tabconfig "$base"
stop_current

port=$(free_port)
"$work/ceiling" --port "$port" "${ceiling_flags[@]}" "$default_path=$www$default_path" "$user_path=$www$user_path" \
  >"$work/ceiling.log" 2>&1 &
server_pid=$!
wait_ready "http://127.0.0.1:$port$default_path" "$work/ceiling.log"
verify ceiling "http://127.0.0.1:$port"
measure_both ceiling "http://127.0.0.1:$port"
stop_current

# The ceiling in its own fastest pool here, one thread (wrk holds the other core), without a target: how far the
# like-for-like row above is from what libmicrohttpd alone can do on this machine.
servers=(tabconfig ceiling)
if [ "$threads" != 1 ]; then
  port=$(free_port)
  "$work/ceiling" --port "$port" --mode "$BENCH_MHD_MODE" --threads 1 "$default_path=$www$default_path" \
    "$user_path=$www$user_path" >"$work/ceiling1.log" 2>&1 &
  server_pid=$!
  wait_ready "http://127.0.0.1:$port$default_path" "$work/ceiling1.log"
  measure_both ceiling1 "http://127.0.0.1:$port"
  stop_current
  servers+=(ceiling1)
fi
servers+=(nginx hummingbird)

port=$(free_port)
user_line=
[ "$(id -u)" -eq 0 ] && user_line='user root;'
sed -e "s#@DIR@#$work#g" -e "s#@PORT@#$port#g" -e "s#@USER@#$user_line#g" Benchmarks/nginx/nginx.conf.template \
  >"$work/nginx.conf"
"$nginx" -e "$work/error.log" -c "$work/nginx.conf" -g 'daemon off;' >"$work/nginx.log" 2>&1 &
server_pid=$!
wait_ready "http://127.0.0.1:$port$default_path" "$work/nginx.log" "$work/error.log"
verify nginx "http://127.0.0.1:$port"
measure_both nginx "http://127.0.0.1:$port"
stop_current

port=$(free_port)
"$hummingbird" "$port" "$default_path=$www$default_path" "$user_path=$www$user_path" >"$work/hummingbird.log" 2>&1 &
server_pid=$!
wait_ready "http://127.0.0.1:$port$default_path" "$work/hummingbird.log"
verify hummingbird "http://127.0.0.1:$port"
measure_both hummingbird "http://127.0.0.1:$port"
stop_current

ratio() {
  awk -v a="${rps[$1/tabconfig]}" -v b="${rps[$1/$2]}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'
}

echo
printf '%-12s %-26s %12s %9s %9s %20s  %s\n' scenario server req/s p50-ms p99-ms "tabconfig ÷ server" "every run"
declare -A label=(
  [tabconfig]="tabconfig"
  [ceiling]="C libmicrohttpd (ceiling)"
  [ceiling1]="C libmicrohttpd, 1 thread"
  [nginx]="nginx static"
  [hummingbird]="Hummingbird 2"
)
for scenario in get-default get-user; do
  for server in "${servers[@]}"; do
    shown=-
    [ "$server" = tabconfig ] || shown=$(ratio "$scenario" "$server")
    printf '%-12s %-26s %12s %9s %9s %20s  %s\n' "$scenario" "${label[$server]}" "${rps[$scenario/$server]}" \
      "${p50[$scenario/$server]}" "${p99[$scenario/$server]}" "$shown" "${runs[$scenario/$server]}"
  done
done
echo

target get-default/ceiling "$(ratio get-default ceiling)" ">=" 0.85
target get-default/nginx "$(ratio get-default nginx)" ">=" 1.2
target get-default/hummingbird "$(ratio get-default hummingbird)" ">=" 2
target get-user/ceiling "$(ratio get-user ceiling)" ">=" 0.6
printf '%s\n' "${targets[@]}"
exit "$failed"
