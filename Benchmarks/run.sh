#!/usr/bin/env bash
# The benchmark suite in one command: installs what is missing (wrk, nginx, PostgreSQL, libmicrohttpd-dev), builds
# the release tabconfig once, then runs on loopback, in this order, each scenario against its references:
#   Benchmarks/reads.sh    GET default tab bar, GET a user's tab bar: vs C libmicrohttpd, nginx static, Hummingbird 2
#   Benchmarks/writes.sh   durable PUT tab-order at 64 connections: vs one fsync per write, PostgreSQL 15 upsert
#   Benchmarks/memory.sh   RSS with 1,000,000 stored customizations, time from start to /readyz 200
#   Benchmarks/streams.sh  a publish reaching 200 open event streams vs one; idle CPU with them open vs none
#   Benchmarks/replicas.sh PUT through two replicas on PostgreSQL vs pgbench; user GET on the PostgreSQL store vs the
#                          file store; migrate-store of 1,000,000 customizations
# Each prints its table and TARGET lines (thresholds in Benchmarks/Thresholds/) and writes what it printed to
# Benchmarks/results/<scenario>/<UTC date>-<commit>.md; this prints the machine, then a summary of every TARGET line
# and the results files, and exits 1 if any target failed, any run had non-2xx responses or socket errors, or a
# scenario script failed.
#
#   Benchmarks/run.sh [--duration SECONDS] [--only reads|writes|memory|streams|replicas]
#
# --duration: seconds of each measured wrk/pgbench run (default 10; BENCH_DURATION). --only: one scenario script.
# Benchmarks/README.md explains the scenarios, their references, their targets and how to read the output.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh

usage() {
  echo "usage: Benchmarks/run.sh [--duration SECONDS] [--only reads|writes|memory|streams|replicas]" >&2
  exit 2
}

duration=${BENCH_DURATION:-10}
scenarios=(reads writes memory streams replicas)
while [ $# -gt 0 ]; do
  case $1 in
    --duration)
      [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage
      duration=$2
      shift 2
      ;;
    --only)
      [ $# -ge 2 ] && [[ $2 =~ ^(reads|writes|memory|streams|replicas)$ ]] || usage
      scenarios=("$2")
      shift 2
      ;;
    *) usage ;;
  esac
done


# Tools from apt when missing: wrk and nginx for the reads, PostgreSQL 15 (server and pgbench) for the writes.
missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if [[ " ${scenarios[*]} " == *" reads "* ]]; then
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
fi
if [[ " ${scenarios[*]} " == *" writes "* || " ${scenarios[*]} " == *" replicas "* ]]; then
  [ -x /usr/lib/postgresql/15/bin/postgres ] && [ -x /usr/lib/postgresql/15/bin/pgbench ] || missing+=(postgresql-15)
fi
if [[ " ${scenarios[*]} " == *" replicas "* ]]; then
  command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "run: apt-get install ${missing[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
fi
bash scripts/install-deps.sh

echo "run: swift build -c release --scratch-path .build-bench --product tabconfig"
if ! output=$(swift build -c release --scratch-path .build-bench --product tabconfig 2>&1); then
  printf '%s\n' "$output" >&2
  exit 1
fi
TABCONFIG_BINARY=$(realpath "$(swift build -c release --scratch-path .build-bench --show-bin-path)/tabconfig")
BENCH_DURATION=$duration
export TABCONFIG_BINARY BENCH_DURATION

print_machine
echo "tabconfig: $TABCONFIG_BINARY; $(wrk --version 2>&1 | head -n 1 | cut -d' ' -f1-2); duration ${duration}s"

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
failed=0
declare -A statuses
for scenario in "${scenarios[@]}"; do
  echo
  echo "=== Benchmarks/$scenario.sh"
  if [ ! -f "Benchmarks/$scenario.sh" ]; then
    echo "run: Benchmarks/$scenario.sh is missing"
    statuses[$scenario]=missing
    failed=1
    continue
  fi
  status=0
  bash "Benchmarks/$scenario.sh" 2>&1 | tee "$logs/$scenario.log" || status=$?
  statuses[$scenario]="exit $status"
  [ "$status" -eq 0 ] || failed=1
done

echo
echo "=== summary (nproc $(nproc))"
touch "$logs/none.log"  # so that the globs below always match a file
for scenario in "${scenarios[@]}"; do
  grep -s '^TARGET ' "$logs/$scenario.log" || true
done
grep -q '^TARGET ' "$logs"/*.log || { echo "run: no TARGET line was printed"; failed=1; }
grep -q '^TARGET .*FAIL$' "$logs"/*.log && failed=1
# wrk prints these two lines only when there were errors; a scenario script may pass its output through.
if grep -hE 'Non-2xx or 3xx responses:|Socket errors:' "$logs"/*.log; then
  echo "run: some run had non-2xx responses or socket errors"
  failed=1
fi
for scenario in "${scenarios[@]}"; do
  echo "Benchmarks/$scenario.sh: ${statuses[$scenario]}"
done
grep -h '^results: ' "$logs"/*.log || true
if [ "$failed" -eq 0 ]; then
  echo "run: every target met, no errors"
else
  echo "run: FAILED (see the FAIL lines and messages above)"
fi
exit "$failed"
