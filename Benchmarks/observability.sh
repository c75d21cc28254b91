#!/usr/bin/env bash
# What metrics and the access log cost on the two tab-bar reads: the same release build run twice side by side,
# "off" (TABCONFIG_METRICS=false TABCONFIG_ACCESS_LOG=false) and "on" (the defaults: /metrics recorded, one access-log
# line per request, written to the server's log file), each measured in turn with the same wrk command; the cost is
# 1 − on ÷ off of the median requests/s, in percent. With BENCH_SPLIT=1 two more servers run beside them, "metrics"
# (the access log off) and "log" (metrics off), to tell the two costs apart. No target: it measures a setting. What
# it prints is also written to Benchmarks/results/observability/<UTC date>-<commit>.md (Benchmarks/lib.sh).
#
# Environment: TABCONFIG_BINARY (default: a release build into .build-bench/), BENCH_DURATION (seconds per run,
# default 5), BENCH_ROUNDS (runs per server and path, default 5), BENCH_CONNECTIONS (default 32), BENCH_SPLIT.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
source scripts/server.sh
command -v wrk >/dev/null 2>&1 || install_missing observability wrk
release_binary observability
duration=${BENCH_DURATION:-5}
rounds=${BENCH_ROUNDS:-5}
connections=${BENCH_CONNECTIONS:-32}
threads=$(($(nproc) > 1 ? $(nproc) - 1 : 1))

mkdir -p .build-bench
work=$(mktemp -d "$(pwd)/.build-bench/observability.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

variants=(off on)
[ "${BENCH_SPLIT:-0}" = 1 ] && variants+=(metrics log)
declare -A settings=(
  [off]="TABCONFIG_METRICS=false TABCONFIG_ACCESS_LOG=false" [on]=""
  [metrics]="TABCONFIG_ACCESS_LOG=false" [log]="TABCONFIG_METRICS=false"
)
declare -A bases
for variant in "${variants[@]}"; do
  mkdir -p "$work/$variant"
  # shellcheck disable=SC2086 # the settings are separate words on purpose
  start_server "$TABCONFIG_BINARY" "$work/$variant" TABCONFIG_ADMIN_TOKEN=bench TABCONFIG_THREADS="$threads" \
    ${settings[$variant]}
  pids+=("$server_pid")
  bases[$variant]="http://127.0.0.1:$port"
  curl -sf -o /dev/null -X PUT -H 'Content-Type: application/json' \
    -d '{"order": ["profile","favorites","search","home"], "hidden": ["settings"]}' \
    "${bases[$variant]}/v1/clients/ios-phone/users/bench-user/tab-order"
done

paths=(/v1/clients/ios-phone/tabs?locale=en /v1/clients/ios-phone/users/bench-user/tabs?locale=en)
results_start
print_machine
echo "$threads worker thread(s) per server; $rounds rounds of wrk -t1 -c$connections -d${duration}s per path, the" \
  "servers (${variants[*]}) in turn; median requests/s"
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | sed -n "$(((rounds + 1) / 2))p"; }
for path in "${paths[@]}"; do
  for variant in "${variants[@]}"; do wrk -t1 -c"$connections" -d1s "${bases[$variant]}$path" >/dev/null 2>&1 || true; done
  declare -A runs=([off]="" [on]="" [metrics]="" [log]="")
  for ((round = 0; round < rounds; round++)); do
    for variant in "${variants[@]}"; do
      output=$(wrk -t1 -c"$connections" -d"${duration}s" "${bases[$variant]}$path" 2>&1) || true
      [ "$(wrk_errors <<<"$output")" = 0 ] || { printf '%s\n' "$output" >&2; exit 1; }
      runs[$variant]+="$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<<"$output") "
    done
  done
  off=$(median "${runs[off]}")
  on=$(median "${runs[on]}")
  awk -v path="$path" -v off="$off" -v on="$on" -v all_off="${runs[off]}" -v all_on="${runs[on]}" 'BEGIN {
    printf "%s: off %.0f, on %.0f requests/s: metrics and access log cost %.1f %% (runs off: %s; on: %s)\n",
      path, off, on, (1 - on / off) * 100, all_off, all_on }'
  for variant in metrics log; do
    [ -n "${runs[$variant]}" ] || continue
    awk -v variant="$variant" -v off="$off" -v one="$(median "${runs[$variant]}")" -v all="${runs[$variant]}" 'BEGIN {
      printf "  %s alone: %.0f requests/s, cost %.1f %% (runs: %s)\n", variant, one, (1 - one / off) * 100, all }'
  done
done
lines=$(grep -c '\[MicroHTTP\] request' "$work/on/server.log" || true)
echo "access-log lines written by the \"on\" server: $lines"
results_save
