#!/usr/bin/env bash
# OFREP bulk evaluation against the tab-bar GET it is read off: from a release tabconfig serving
# Benchmarks/targeted-config.json (three conditions, a rollout, an experiment), wrk measures
#   user-tabs  GET /v1/clients/bench-targeted/users/bench-user/tabs?<context>
#   bulk       POST /ofrep/v1/evaluate/flags {"context": {"client", "targetingKey": "bench-user", <the same context>}}
# (Benchmarks/ofrep-bulk.lua), in interleaved rounds (each round runs both in turn), and prints a table of the
# median requests/s, p50/p99 and the server's CPU per request, and lines
#   TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
# for bulk/user-tabs (Benchmarks/Thresholds/ofrep.txt) and for zero non-2xx responses and socket errors. Exits 1 if
# any is FAIL. What it prints is also written to Benchmarks/results/ofrep/<UTC date>-<commit>.md.
#
#   Benchmarks/ofrep.sh
#
# Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_DURATION (seconds
# per measured run, default 10), BENCH_ROUNDS (measured runs per scenario, default 5; the median one is reported),
# BENCH_SERVER_THREADS (TABCONFIG_THREADS; default nproc - 1, at least 1).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
duration=${BENCH_DURATION:-10}
rounds=${BENCH_ROUNDS:-5}
warmup=2
connections=64

missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v curl >/dev/null 2>&1 || missing+=(curl)
install_missing ofrep "${missing[@]}"
release_binary ofrep
one_server_workdir ofrep
results_start

threads=${BENCH_SERVER_THREADS:-$(($(nproc) > 1 ? $(nproc) - 1 : 1))}
source scripts/server.sh
start_server "$TABCONFIG_BINARY" "$work" TABCONFIG_ADMIN_TOKEN=bench TABCONFIG_THREADS="$threads" \
  TABCONFIG_ACCESS_LOG=false
base="http://127.0.0.1:$port"
curl -sf -o /dev/null -X PUT -H 'Authorization: Bearer bench' -H 'Content-Type: application/json' \
  --data-binary @Benchmarks/targeted-config.json "$base/v1/clients/bench-targeted/config"
curl -sf -o /dev/null -X PUT -H 'Content-Type: application/json' \
  -d '{"order": ["profile","favorites","search","home"], "hidden": ["settings"]}' \
  "$base/v1/clients/bench-targeted/users/bench-user/tab-order"

# The context of Benchmarks/reads.sh's targeting scenarios, as query parameters and as an OFREP context.
query='locale=en&platform=ios&appVersion=5.2.0&osVersion=17.4&country=FR&deviceId=bench-device-3'
export OFREP_BODY='{"context":{"client":"bench-targeted","targetingKey":"bench-user","locale":"en","platform":"ios","appVersion":"5.2.0","osVersion":"17.4","country":"FR","deviceId":"bench-device-3"}}'
get_url="$base/v1/clients/bench-targeted/users/bench-user/tabs?$query"

# Both answer the same tab bar: the bulk's `tabs` value is the GET's body, byte for byte.
curl -sf -o "$work/get.json" "$get_url"
curl -sf -o "$work/bulk.json" -X POST -H 'Content-Type: application/json' -d "$OFREP_BODY" \
  "$base/ofrep/v1/evaluate/flags"
grep -qF "$(cat "$work/get.json")" "$work/bulk.json" ||
  { echo "ofrep: the bulk answer does not hold the GET's tab bar" >&2; exit 1; }
echo "ofrep: tab bar $(wc -c <"$work/get.json") bytes, bulk answer $(wc -c <"$work/bulk.json") bytes" \
  "($(grep -o '"key":' "$work/bulk.json" | wc -l) flags)"
print_machine
echo "$threads worker thread(s); ${warmup}s warm-up, then $rounds rounds of wrk -t1 -c$connections" \
  "-d${duration}s --latency, user-tabs then bulk (the median run is reported)"

# run SCENARIO SECONDS: one wrk run of the scenario; prints wrk's output and the server's CPU per request.
run() {
  local before after output
  before=$(cpu_ticks "$server_pid")
  if [ "$1" = bulk ]; then
    output=$(wrk -t1 -c"$connections" -d"$2s" --latency -s Benchmarks/ofrep-bulk.lua "$base" 2>&1) || true
  else
    output=$(wrk -t1 -c"$connections" -d"$2s" --latency "$get_url" 2>&1) || true
  fi
  after=$(cpu_ticks "$server_pid")
  printf '%s\nCPU %s\n' "$output" "$(cpu_per_request "$before" "$after" "$(wrk_requests <<<"$output")")"
}

rps_of() {
  sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' | head -n 1
}

declare -A runs
for scenario in user-tabs bulk; do run "$scenario" "$warmup" >/dev/null; done
for round in $(seq 1 "$rounds"); do
  for scenario in user-tabs bulk; do
    run "$scenario" "$duration" >"$work/run.$scenario.$round"
    runs[$scenario]+="$(rps_of <"$work/run.$scenario.$round") $round"$'\n'
  done
done

declare -A rps
printf '%-10s %12s %9s %9s %14s  %s\n' scenario 'requests/s' 'p50 ms' 'p99 ms' 'CPU us/req' 'every round'
for scenario in user-tabs bulk; do
  median=$(printf '%s' "${runs[$scenario]}" | sort -n | sed -n "$(((rounds + 1) / 2))p")
  output=$(cat "$work/run.$scenario.${median#* }")
  rps[$scenario]=${median% *}
  errors=0
  for round in $(seq 1 "$rounds"); do
    errors=$((errors + $(wrk_errors <"$work/run.$scenario.$round")))
  done
  read -r user system <<<"$(sed -n 's/^CPU //p' <<<"$output")"
  printf '%-10s %12s %9s %9s %14s  %s\n' "$scenario" "${rps[$scenario]}" "$(wrk_percentile 50 <<<"$output")" \
    "$(wrk_percentile 99 <<<"$output")" "$user+$system" "$(printf '%s' "${runs[$scenario]}" | cut -d' ' -f1 | tr '\n' ' ')"
  target "errors/$scenario" "$errors" == 0
done
target bulk/user-tabs "$(awk -v b="${rps[bulk]}" -v g="${rps[user-tabs]}" 'BEGIN { printf "%.2f", b / g }')"
printf '%s\n' "${targets[@]}"
results_save
exit "$failed"
