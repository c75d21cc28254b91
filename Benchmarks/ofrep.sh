#!/usr/bin/env bash
# OFREP bulk evaluation against the tab-bar GET it is read off: from a release tabconfig serving
# Benchmarks/targeted-config.json (three conditions, a rollout, an experiment), wrk measures
#   user-tabs  GET /v1/clients/bench-targeted/users/bench-user/tabs?<context>
#   bulk       POST /ofrep/v1/evaluate/flags {"context": {"client", "targetingKey": "bench-user", <the same context>}}
# (Benchmarks/ofrep-bulk.lua), bulk-many-users (that evaluation for 10,000 users in turn, more than the bulk answers a
# version keeps, so that most are built for the request: what a first evaluation costs), and the same two requests
# answered by the floor (Benchmarks/http-floor: MicroHTTP with no handler, serving tabconfig's two answers with their
# header fields; floor-user-tabs and floor-bulk: what a POST with a JSON body and the longer answer cost MicroHTTP
# before any handler runs), in interleaved rounds (each round runs all five in turn), and prints a table of the median
# requests/s, p50/p99 and the server's CPU per request, the floor's bulk ÷ user-tabs, bulk-many-users ÷ user-tabs,
# and lines
#   TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
# for bulk/user-tabs (Benchmarks/Thresholds/ofrep.txt) and for zero non-2xx responses and socket errors. Exits 1 if
# any is FAIL. What it prints is also written to Benchmarks/results/ofrep/<UTC date>-<commit>.md, its figures and
# targets to the .json beside it.
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
echo "ofrep: swift build -c release --package-path Benchmarks/http-floor (MicroHTTP on its own)"
build swift build -c release --package-path Benchmarks/http-floor --product HTTPFloor
http_floor="$(swift build -c release --package-path Benchmarks/http-floor --show-bin-path)/HTTPFloor"
one_server_workdir ofrep
floor_pid=
trap '[ -z "$floor_pid" ] || kill "$floor_pid" 2>/dev/null; one_server_cleanup' EXIT
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
get_path=/v1/clients/bench-targeted/users/bench-user/tabs
get_url="$base$get_path?$query"

# Both answer the same tab bar: the bulk's `tabs` value is the GET's body, byte for byte.
curl -sf -o "$work/get.json" "$get_url"
curl -sf -o "$work/bulk.json" -X POST -H 'Content-Type: application/json' -d "$OFREP_BODY" \
  "$base/ofrep/v1/evaluate/flags"
grep -qF "$(cat "$work/get.json")" "$work/bulk.json" ||
  { echo "ofrep: the bulk answer does not hold the GET's tab bar" >&2; exit 1; }
echo "ofrep: tab bar $(wc -c <"$work/get.json") bytes, bulk answer $(wc -c <"$work/bulk.json") bytes" \
  "($(grep -o '"key":' "$work/bulk.json" | wc -l) flags)"

# The floor: both answers, with the header fields of tabconfig's (fields_of).
fields_of "$get_url" "$work/get.fields"
fields_of "$base/ofrep/v1/evaluate/flags" "$work/bulk.fields" -X POST -H 'Content-Type: application/json' \
  -d "$OFREP_BODY"
floor_port=$(free_port)
"$http_floor" "$floor_port" "$threads" "$get_path=$work/get.json,$work/get.fields" \
  "/ofrep/v1/evaluate/flags=$work/bulk.json,$work/bulk.fields" >"$work/floor.log" 2>&1 &
floor_pid=$!
floor_base="http://127.0.0.1:$floor_port"
for _ in $(seq 1 200); do
  curl -sf -o /dev/null "$floor_base$get_path?$query" && break
  sleep 0.05
done
curl -sf -o "$work/floor-get.json" "$floor_base$get_path?$query" && cmp -s "$work/floor-get.json" "$work/get.json" &&
  curl -sf -o "$work/floor-bulk.json" -X POST -H 'Content-Type: application/json' -d "$OFREP_BODY" \
    "$floor_base/ofrep/v1/evaluate/flags" && cmp -s "$work/floor-bulk.json" "$work/bulk.json" ||
  { cat "$work/floor.log" >&2; echo "ofrep: the floor does not answer both requests with tabconfig's bytes" >&2; exit 1; }
print_machine
echo "$threads worker thread(s); ${warmup}s warm-up, then $rounds rounds of wrk -t1 -c$connections" \
  "-d${duration}s --latency, user-tabs then bulk (the median run is reported)"

# run SCENARIO SECONDS: one wrk run of the scenario; prints wrk's output and the server's CPU per request.
run() {
  local before after output pid=$server_pid url=$base
  case $1 in floor-*) pid=$floor_pid url=$floor_base ;; esac
  before=$(cpu_ticks "$pid")
  if [[ $1 == *bulk* ]]; then
    output=$(BENCH_USERS=$([[ $1 == *many-users ]] && echo 10000 || echo 0) \
      wrk -t1 -c"$connections" -d"$2s" --latency -s Benchmarks/ofrep-bulk.lua "$url" 2>&1) || true
  else
    output=$(wrk -t1 -c"$connections" -d"$2s" --latency "$url$get_path?$query" 2>&1) || true
  fi
  after=$(cpu_ticks "$pid")
  printf '%s\nCPU %s\n' "$output" "$(cpu_per_request "$before" "$after" "$(wrk_requests <<<"$output")")"
}

rps_of() {
  sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' | head -n 1
}

scenarios=(user-tabs bulk bulk-many-users floor-user-tabs floor-bulk)
declare -A runs
for scenario in "${scenarios[@]}"; do run "$scenario" "$warmup" >/dev/null; done
for round in $(seq 1 "$rounds"); do
  for scenario in "${scenarios[@]}"; do
    run "$scenario" "$duration" >"$work/run.$scenario.$round"
    runs[$scenario]+="$(rps_of <"$work/run.$scenario.$round") $round"$'\n'
  done
done

declare -A rps cpu
printf '%-16s %12s %9s %9s %14s  %s\n' scenario 'requests/s' 'p50 ms' 'p99 ms' 'CPU us/req' 'every round'
for scenario in "${scenarios[@]}"; do
  median=$(printf '%s' "${runs[$scenario]}" | sort -n | sed -n "$(((rounds + 1) / 2))p")
  output=$(cat "$work/run.$scenario.${median#* }")
  rps[$scenario]=${median% *}
  errors=0
  for round in $(seq 1 "$rounds"); do
    errors=$((errors + $(wrk_errors <"$work/run.$scenario.$round")))
  done
  read -r user system <<<"$(sed -n 's/^CPU //p' <<<"$output")"
  cpu[$scenario]=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.1f", u + s }')
  printf '%-16s %12s %9s %9s %14s  %s\n' "$scenario" "${rps[$scenario]}" "$(wrk_percentile 50 <<<"$output")" \
    "$(wrk_percentile 99 <<<"$output")" "$user+$system" "$(printf '%s' "${runs[$scenario]}" | cut -d' ' -f1 | tr '\n' ' ')"
  target "errors/$scenario" "$errors" == 0
done
echo
awk -v b="${rps[floor-bulk]}" -v g="${rps[floor-user-tabs]}" -v cb="${cpu[floor-bulk]}" -v cg="${cpu[floor-user-tabs]}" \
  -v tb="${cpu[bulk]}" -v tg="${cpu[user-tabs]}" 'BEGIN {
    printf "floor (MicroHTTP, no handler): bulk ÷ user-tabs %.2f; CPU per request %.1f us against %.1f us\n",
      b / g, cb, cg
    printf "handlers (tabconfig over the floor): bulk %.1f us, user-tabs %.1f us\n", tb - cb, tg - cg }'
awk -v m="${rps[bulk-many-users]}" -v g="${rps[user-tabs]}" \
  'BEGIN { printf "bulk-many-users (answers built per request) ÷ user-tabs %.2f\n", m / g }'
for scenario in "${scenarios[@]}"; do
  figure "${scenario//-/_}_rps" "${rps[$scenario]}" requests/s
  figure "${scenario//-/_}_cpu_us" "${cpu[$scenario]}" us/request
done
echo
target bulk/user-tabs "$(awk -v b="${rps[bulk]}" -v g="${rps[user-tabs]}" 'BEGIN { printf "%.2f", b / g }')"
printf '%s\n' "${targets[@]}"
results_save
exit "$failed"
