#!/usr/bin/env bash
# Durable-write scenario of the benchmark suite: PUT tab-order at 64 concurrent connections against a release
# tabconfig with its default settings (group commit), against (a) the same binary with one fsync per write
# (TABCONFIG_GROUP_COMMIT=false) and (b) PostgreSQL 15 doing the equivalent upsert through pgbench
# (synchronous_commit=on, fsync=on) at the same concurrency. Every server runs alone, on the same disk, for the same
# time after a 2 s warm-up. Prints a table of requests/s, p50/p99 and tabconfig ÷ server, and lines
#   TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
# for the two ratio targets (Benchmarks/Thresholds/writes.txt) and for zero non-2xx responses and socket errors in
# every run. Exits 1 if any is FAIL or if what tabconfig stored does not read back. What it prints is also written to
# Benchmarks/results/writes/<UTC date>-<commit>.md (Benchmarks/lib.sh, results_start).
#
#   Benchmarks/writes.sh        (usually run by Benchmarks/run.sh, which builds tabconfig once for every scenario)
#
# Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_DURATION (seconds
# per measured run, default 10), BENCH_BASELINE_BINARY (another build, e.g. of the previous commit: then the
# group-commit run is repeated BENCH_ROUNDS times, default 3, alternating with the same run of the baseline, and the
# median run of each is reported with tabconfig ÷ baseline). Workload: Benchmarks/put-tab-order.lua (wrk), Benchmarks/pgbench-schema.sql and
# Benchmarks/pgbench-upsert.sql (pgbench, `pgbench_upsert` in Benchmarks/lib.sh). The PostgreSQL cluster is the
# project's own (scripts/postgres.sh: as root, it runs as the `postgres` user that the Debian package creates).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
repo=$(pwd)
duration=${BENCH_DURATION:-10}
warmup=2
connections=64
pgbin=/usr/lib/postgresql/15/bin


# Tools from apt when missing: wrk, curl, python3 (free ports, percentiles) and PostgreSQL 15 (server and pgbench).
missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
[ -x "$pgbin/postgres" ] && [ -x "$pgbin/pgbench" ] || missing+=(postgresql-15)
install_missing writes "${missing[@]}"

release_binary writes

# Everything of this run lives in one directory on disk (not tmpfs: the stores fsync), removed at exit. Both stores
# are in it, so they share a file system.
mkdir -p .build-bench
work=$(mktemp -d "$repo/.build-bench/writes.XXXXXX")
chmod 755 "$work"
echo "writes: data on $(df --output=source,fstype "$work" | tail -n 1 | tr -s ' ') ($work)"

server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  bash scripts/postgres.sh stop "$work/postgres" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

declare -A rps p50 p99


# The bodies the wrk script sends: user u<N> always gets number N % 4 (their orders, to check the read-back).
expected_orders=(
  '["home","search","favorites","library","downloads","profile","settings"]'
  '["home","profile","favorites","search"]'
  '["home","library","search","downloads","profile"]'
  '["home","favorites","profile","search","library","settings"]'
)

# measure_tabconfig NAME [ENV=VALUE...]: starts tabconfig on a fresh data directory, warms up, runs wrk with the
# PUT script, then checks that three written users read back and that /readyz is 200, and stops the server.
measure_tabconfig() {
  local name=$1 output non200 user body order status revisions=()
  shift
  mkdir "$work/$name"
  start_server "${binary:-$TABCONFIG_BINARY}" "$work/$name" TABCONFIG_ADMIN_TOKEN=bench TABCONFIG_ACCESS_LOG=false "$@"
  local base="http://127.0.0.1:$port"
  wrk -t1 -c"$connections" -d"${warmup}s" -s Benchmarks/put-tab-order.lua "$base" >/dev/null 2>&1
  output=$(wrk -t1 -c"$connections" -d"${duration}s" --latency -s Benchmarks/put-tab-order.lua "$base" 2>&1)
  rps[$name]=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<<"$output")
  p50[$name]=$(wrk_percentile 50 <<<"$output")
  p99[$name]=$(wrk_percentile 99 <<<"$output")
  non200=$(put_unexpected <<<"$output")
  if [ -z "${rps[$name]}" ] || [ -z "$non200" ]; then
    printf '%s\n' "$output" >&2
    rps[$name]=0
    non200=1
  fi
  echo "$name: $(sed -n 's/^ *\([0-9]* requests in [^,]*\),.*/\1/p' <<<"$output"), non-200 responses: $non200"
  grep -E 'Non-2xx|Socket errors|first response other than' <<<"$output" >&2 || true
  target "errors/put/$name" "$(( non200 + $(wrk_errors <<<"$output") ))" "==" 0

  # u0 is not among the checked users: wrk calls request() once before the run to check the script.
  for user in 1 2 3; do
    body=$(curl -s -w '\n%{http_code}' "$base/v1/clients/ios-phone/users/u$user/tab-order")
    status=$(tail -n 1 <<<"$body")
    order=$(head -n 1 <<<"$body" | sed -n 's/.*"order":\(\[[^]]*\]\).*/\1/p')
    revisions+=("u$user r$(head -n 1 <<<"$body" | sed -n 's/.*"revision":\([0-9]*\).*/\1/p')")
    if [ "$status" != 200 ] || [ "$order" != "${expected_orders[$((user % 4))]}" ]; then
      echo "writes: $name: GET u$user/tab-order answered $status $(head -n 1 <<<"$body"), expected order ${expected_orders[$((user % 4))]}" >&2
      failed=1
    fi
  done
  status=$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")
  [ "$status" = 200 ] || { echo "writes: $name: /readyz answered $status after the run" >&2; failed=1; }
  echo "$name: read back ${revisions[*]} with the written orders; /readyz $status; journal $(du -h "$work/$name/store/customizations.journal" | cut -f1)"
  if ! stop_server; then
    echo "writes: $name: tabconfig did not exit cleanly on SIGTERM" >&2
    failed=1
  fi
}

# measure_postgres: the upsert on a throwaway PostgreSQL 15 cluster of the project's own, stopped afterwards.
measure_postgres() {
  local cluster
  cluster=$(bash scripts/postgres.sh start "$work/postgres" --stop-with $$)
  pgbench_upsert postgresql "${cluster}?sslmode=disable" "$work"
  bash scripts/postgres.sh stop "$work/postgres" >/dev/null
}

results_start
print_machine
echo "each server alone, ${warmup}s warm-up then:"
echo "  wrk -t1 -c$connections -d${duration}s --latency -s Benchmarks/put-tab-order.lua http://127.0.0.1:PORT"
echo "  pgbench -n -c $connections -j 2 -T $duration -M prepared -f Benchmarks/pgbench-upsert.sql -l"

# The baseline needs a binary that knows TABCONFIG_GROUP_COMMIT; an older one would ignore it and group-commit.
if ! grep -q TABCONFIG_GROUP_COMMIT "$TABCONFIG_BINARY"; then
  echo "writes: $TABCONFIG_BINARY does not know TABCONFIG_GROUP_COMMIT: the one-fsync run would group-commit" >&2
  exit 1
fi

# median_of NAME ROUNDS: the run NAME-1 … NAME-ROUNDS with the median req/s becomes NAME's row.
median_of() {
  local name=$1 count=$2 pick
  pick=$(for ((round = 1; round <= count; round++)); do echo "${rps[$name-$round]} $round"; done | sort -n |
    sed -n "$(((count + 1) / 2))p" | cut -d' ' -f2)
  rps[$name]=${rps[$name-$pick]}
  p50[$name]=${p50[$name-$pick]}
  p99[$name]=${p99[$name-$pick]}
  runs[$name]=$(for ((round = 1; round <= count; round++)); do printf '%s ' "${rps[$name-$round]}"; done)
}

source scripts/server.sh
declare -A runs
servers=(group-commit one-fsync postgresql)
if [ -n "${BENCH_BASELINE_BINARY:-}" ]; then
  rounds=${BENCH_ROUNDS:-3}
  echo "baseline: $BENCH_BASELINE_BINARY, $rounds rounds alternating with tabconfig (median run reported)"
  for ((round = 1; round <= rounds; round++)); do
    measure_tabconfig "group-commit-$round"
    binary=$BENCH_BASELINE_BINARY measure_tabconfig "baseline-$round"
  done
  median_of group-commit "$rounds"
  median_of baseline "$rounds"
  servers=(group-commit baseline one-fsync postgresql)
else
  measure_tabconfig group-commit
fi
measure_tabconfig one-fsync TABCONFIG_GROUP_COMMIT=false
measure_postgres

ratio() {
  awk -v a="${rps[group-commit]}" -v b="${rps[$1]}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'
}

echo
printf '%-12s %-36s %12s %9s %9s %20s\n' scenario server req/s p50-ms p99-ms "tabconfig ÷ server"
declare -A label=(
  [group-commit]="tabconfig (group commit)"
  [baseline]="baseline tabconfig (group commit)"
  [one-fsync]="tabconfig (one fsync per write)"
  [postgresql]="PostgreSQL 15 upsert (pgbench)"
)
for server in "${servers[@]}"; do
  shown=-
  [ "$server" = group-commit ] || shown=$(ratio "$server")
  printf '%-12s %-36s %12s %9s %9s %20s  %s\n' put-order "${label[$server]}" "${rps[$server]}" "${p50[$server]}" \
    "${p99[$server]}" "$shown" "${runs[$server]:-}"
done
echo

target put/one-fsync "$(ratio one-fsync)"
target put/postgresql "$(ratio postgresql)"
printf '%s\n' "${targets[@]}"
results_save
exit "$failed"
