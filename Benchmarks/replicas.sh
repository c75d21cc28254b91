#!/usr/bin/env bash
# Replica scenarios of the benchmark suite, on one PostgreSQL 15 cluster of the project's own (scripts/postgres.sh:
# fsync and synchronous_commit on, as in production):
#   put-replicas  PUT tab-order at 64 connections (Benchmarks/put-tab-order.lua) through haproxy (round robin) to two
#                 release tabconfig replicas on one database, against pgbench's equivalent upsert
#                 (Benchmarks/pgbench-upsert.sql) at 64 clients on the same cluster: what the service adds to the
#                 database's own write.
#   put-floor     the same requests through the same haproxy and replicas to a path no route takes (answered 404
#                 once the body is read): what a PUT costs before any handler or the store runs. The script then
#                 prints the CPU a save may take at the target's ratio to pgbench beside what this floor and
#                 PostgreSQL already take.
#   get-user-pg   GET of a user's tab bar at 64 connections from tabconfig on the PostgreSQL store (a warm cache:
#                 served from memory) against tabconfig on the file store holding the same tab order; BENCH_ROUNDS
#                 rounds alternating the two (default 3), the median run reported.
#   migrate       BenchmarkSeeder writes BENCH_MIGRATE_COUNT customizations (default 1,000,000) into a file store;
#                 `tabconfig migrate-store` copies it into an empty database, timed, then again (writing nothing).
# Prints a table, FIGURE lines (name value unit: what scripts/scaling.py reads) and
#   TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
# for the two ratio targets (Benchmarks/Thresholds/replicas.txt) and for zero non-2xx responses and socket errors in
# every run. Exits 1 if any is FAIL, or if a written tab order does not read back from both replicas. What it prints
# is also written to Benchmarks/results/replicas/<UTC date>-<commit>.md (Benchmarks/lib.sh, results_start).
#
#   Benchmarks/replicas.sh      (usually run by Benchmarks/run.sh, which builds tabconfig once for every scenario)
#
# Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_DURATION (seconds
# per measured run, default 10), BENCH_ROUNDS, BENCH_MIGRATE_COUNT. PostgreSQL runs as the `postgres` user when this
# runs as root (scripts/postgres.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
source scripts/server.sh
duration=${BENCH_DURATION:-10}
rounds=${BENCH_ROUNDS:-3}
migrate_count=${BENCH_MIGRATE_COUNT:-1000000}
warmup=2
connections=64
pgbin=/usr/lib/postgresql/15/bin

missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
[ -x "$pgbin/postgres" ] && [ -x "$pgbin/pgbench" ] || missing+=(postgresql-15)
install_missing replicas "${missing[@]}"
release_binary replicas
echo "replicas: swift build -c release --scratch-path .build-bench --product BenchmarkSeeder"
build swift build -c release --scratch-path .build-bench --product BenchmarkSeeder
seeder="$(swift build -c release --scratch-path .build-bench --show-bin-path)/BenchmarkSeeder"
haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)

# Everything of this run lives in one directory on disk (the stores fsync), removed at exit with the cluster.
mkdir -p .build-bench
work=$(mktemp -d "$(pwd)/.build-bench/replicas.XXXXXX")
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  bash scripts/postgres.sh stop "$work/postgres" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
cluster=$(bash scripts/postgres.sh start "$work/postgres" --stop-with $$)
psql() { "$pgbin/psql" "$cluster" -v ON_ERROR_STOP=1 -Atq "$@"; }
# database NAME: creates it and prints its URL.
database() {
  psql -c "CREATE DATABASE $1"
  echo "${cluster%/postgres}/$1?sslmode=disable"
}
results_start
print_machine
echo "replicas: data on $(df --output=source,fstype "$work" | tail -n 1 | tr -s ' ') ($work)"
echo "postgresql: $(psql -c "select version() || '; fsync=' || current_setting('fsync') || ', synchronous_commit=' || current_setting('synchronous_commit')")"

declare -A rps p50 p99 runs cpu_total cpu_part

# cpu_groups: NAME=PID… words naming the processes whose CPU per request wrk_run prints (each PID with the processes
# below it); wrk is always one of them (the children this shell waited for during the run). Empty: none printed.
cpu_groups=()

# cpu_readings: one cpu_ticks reading per group of cpu_groups, then this shell's ("USER SYSTEM" lines).
cpu_readings() {
  local group
  for group in "${cpu_groups[@]}"; do
    # shellcheck disable=SC2046 # the trees' pids are words.
    cpu_ticks $(for pid in ${group#*=}; do process_tree "$pid"; done)
  done
  cpu_ticks $$
}

# wrk_run NAME URL [wrk arguments…]: a warm-up, then the measured run; records rps/p50/p99 and the error target.
# With PUT_EXPECTED_STATUS set (put-tab-order.lua's answer that is no error), the errors are wrk's socket errors
# and the script's count of other answers.
wrk_run() {
  local name=$1 url=$2 output before after
  shift 2
  wrk -t1 -c"$connections" -d"${warmup}s" "$@" "$url" >/dev/null 2>&1
  mapfile -t before < <(cpu_readings)
  output=$(wrk -t1 -c"$connections" -d"${duration}s" --latency "$@" "$url" 2>&1)
  mapfile -t after < <(cpu_readings)
  if [ ${#cpu_groups[@]} -gt 0 ]; then
    local requests index line=() group part
    requests=$(wrk_requests <<<"$output")
    for index in "${!cpu_groups[@]}"; do
      line+=("${cpu_groups[$index]%%=*} $(cpu_per_request "${before[$index]}" "${after[$index]}" "$requests" | tr ' ' '+')")
    done
    line+=("wrk $(cpu_per_request "${before[-1]}" "${after[-1]}" "$requests" | tr ' ' '+')")
    # Each group's user + system, then theirs all together as "all".
    while read -r group part; do
      cpu_part[$name/$group]=$part
    done < <(printf '%s\n' "${line[@]}" |
      awk '{ split($2, t, "+"); printf "%s %.1f\n", $1, t[1] + t[2]; sum += t[1] + t[2] } END { printf "all %.1f\n", sum }')
    cpu_total[$name]=${cpu_part[$name/all]}
    echo "$name: CPU per request (user + system microseconds): $(IFS=,; echo "${line[*]}" | sed 's/,/, /g');" \
      "all ${cpu_total[$name]}"
  fi
  rps[$name]=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<<"$output")
  p50[$name]=$(wrk_percentile 50 <<<"$output")
  p99[$name]=$(wrk_percentile 99 <<<"$output")
  if [ -z "${rps[$name]}" ]; then
    printf '%s\n' "$output" >&2
    rps[$name]=0
  fi
  echo "$name: $(sed -n 's/^ *\([0-9]* requests in [^,]*\),.*/\1/p' <<<"$output")"
  if [ -n "${PUT_EXPECTED_STATUS:-}" ]; then
    local unexpected
    unexpected=$(put_unexpected <<<"$output")
    grep -E 'Socket errors|first response other than' <<<"$output" >&2 || true
    target "errors/$name" "$(( ${unexpected:-1} + $(grep -v 'Non-2xx' <<<"$output" | wrk_errors) ))" "==" 0
    return
  fi
  grep -E 'Non-2xx|Socket errors|first response other than' <<<"$output" >&2 || true
  target "errors/$name" "$(wrk_errors <<<"$output")" "==" 0
}

# serve NAME [ENV=VALUE…]: starts tabconfig on $work/NAME (scripts/server.sh) and keeps its pid; sets port.
serve() {
  local name=$1
  shift
  mkdir -p "$work/$name"
  start_server "$TABCONFIG_BINARY" "$work/$name" TABCONFIG_ADMIN_TOKEN=bench TABCONFIG_ACCESS_LOG=false "$@"
  pids+=("$server_pid")
}

# --- put-replicas: pgbench's upsert, then two replicas behind haproxy, on the same cluster ------------------------
echo
echo "=== put-replicas: pgbench -n -c $connections -j 2 -M prepared -f Benchmarks/pgbench-upsert.sql, then" \
  "wrk -t1 -c$connections -s Benchmarks/put-tab-order.lua through haproxy to two replicas"
postmaster=$(head -n 1 "$work/postgres/data/postmaster.pid")
pgbench_upsert pgbench "$(database pgbench)" "$work" "$postmaster"

store_url=$(database replicas)
serve r1 TABCONFIG_STORE_URL="$store_url"
ports=("$port")
serve r2 TABCONFIG_STORE_URL="$store_url" TABCONFIG_SEED_SAMPLE=false
ports+=("$port")
front=$(free_port)
cat >"$work/haproxy.cfg" <<EOF
global
    nbthread 1
defaults
    mode http
    timeout connect 3s
    timeout client 30s
    timeout server 30s
frontend front
    bind 127.0.0.1:$front
    default_backend replicas
backend replicas
    balance roundrobin
    server r1 127.0.0.1:${ports[0]}
    server r2 127.0.0.1:${ports[1]}
EOF
"$haproxy" -db -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do curl -sf -o /dev/null "http://127.0.0.1:$front/readyz" && break; sleep 0.05; done
cpu_groups=("replicas=${pids[0]} ${pids[1]}" "haproxy=${pids[2]}" "postgres=$postmaster")
wrk_run put-replicas "http://127.0.0.1:$front" -s Benchmarks/put-tab-order.lua
# put-floor: the same requests to a path no route takes, answered 404 after the body is read: what wrk, haproxy and
# a replica spend on a PUT before any handler or the store runs.
PUT_RESOURCE=no-such-resource PUT_EXPECTED_STATUS=404 \
  wrk_run put-floor "http://127.0.0.1:$front" -s Benchmarks/put-tab-order.lua
cpu_groups=()
# The bodies the wrk script sends: user u<N> always gets number N % 4.
expected_orders=(
  '["home","search","favorites","library","downloads","profile","settings"]'
  '["home","profile","favorites","search"]'
  '["home","library","search","downloads","profile"]'
  '["home","favorites","profile","search","library","settings"]'
)
for user in 1 2 3; do
  for replica_port in "${ports[@]}"; do
    order=$(curl -s "http://127.0.0.1:$replica_port/v1/clients/ios-phone/users/u$user/tab-order" \
      | sed -n 's/.*"order":\(\[[^]]*\]\).*/\1/p')
    if [ "$order" != "${expected_orders[$((user % 4))]}" ]; then
      echo "replicas: u$user on port $replica_port shows '$order', written ${expected_orders[$((user % 4))]}" >&2
      failed=1
    fi
  done
done
written=$("$pgbin/psql" "$store_url" -Atc \
  "SELECT count(*) || ' rows, revisions summing to ' || sum(revision) FROM tabconfig_customizations")
echo "put-replicas: the database holds $written; u1…u3 read back from both replicas"
customization_bytes=$("$pgbin/psql" "$store_url" -Atc \
  "SELECT round(pg_total_relation_size('tabconfig_customizations')::numeric / greatest(count(*), 1)) FROM tabconfig_customizations")
for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
pids=()

# --- get-user-pg: one tabconfig on each store, the same tab order, alternating rounds ------------------------------
echo
echo "=== get-user-pg: wrk -t1 -c$connections GET /v1/clients/ios-phone/users/bench/tabs?locale=en, PostgreSQL store and file store"
user_path="/v1/clients/ios-phone/users/bench/tabs?locale=en"
declare -A bases
serve pg-store TABCONFIG_STORE_URL="$(database reads)"
bases[pg-store]="http://127.0.0.1:$port"
serve file-store
bases[file-store]="http://127.0.0.1:$port"
for server in pg-store file-store; do
  curl -sf -o /dev/null -X PUT -H 'Content-Type: application/json' \
    -d '{"order":["profile","favorites","search","home"],"hidden":["settings"]}' \
    "${bases[$server]}/v1/clients/ios-phone/users/bench/tab-order"
done
if [ "$(curl -s "${bases[pg-store]}$user_path")" != "$(curl -s "${bases[file-store]}$user_path")" ]; then
  echo "replicas: the two stores answer the user's tab bar differently" >&2
  failed=1
fi
for ((round = 1; round <= rounds; round++)); do
  for server in pg-store file-store; do
    wrk_run "$server-$round" "${bases[$server]}$user_path"
  done
done
# median_of NAME: the run NAME-1 … NAME-rounds with the median req/s becomes NAME's row.
median_of() {
  local name=$1 pick
  pick=$(for ((round = 1; round <= rounds; round++)); do echo "${rps[$name-$round]} $round"; done | sort -n |
    sed -n "$(((rounds + 1) / 2))p" | cut -d' ' -f2)
  rps[$name]=${rps[$name-$pick]}
  p50[$name]=${p50[$name-$pick]}
  p99[$name]=${p99[$name-$pick]}
  runs[$name]=$(for ((round = 1; round <= rounds; round++)); do printf '%s ' "${rps[$name-$round]}"; done)
}
median_of pg-store
median_of file-store
for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
pids=()

# --- migrate: a seeded file store into an empty database, twice ---------------------------------------------------
echo
echo "=== migrate: $migrate_count customizations"
serve seeded
kill -TERM "$server_pid"
wait "$server_pid" || true
pids=()
"$seeder" "$work/seeded/store" --count "$migrate_count" | grep -v '^  [0-9]* written' | grep -v '^sample' || true
migrate_url=$(database migrated)
migrate() {
  local started output
  started=$EPOCHREALTIME
  output=$("$TABCONFIG_BINARY" migrate-store --from "$work/seeded/store" --to "$migrate_url" 2>/dev/null) || {
    printf '%s\n' "$output" >&2
    failed=1
  }
  awk -v s="$started" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }'
  printf ' %s\n' "$(tail -n 1 <<<"$output")"
}
read -r first_seconds first_report < <(migrate)
echo "migrate-store, first run: $first_seconds s: $first_report"
read -r second_seconds second_report < <(migrate)
echo "migrate-store, second run: $second_seconds s: $second_report"
[[ "$second_report" == *"written: 0 versions, 0 customizations"* ]] || {
  echo "replicas: the second migrate-store wrote something" >&2
  failed=1
}

# The PostgreSQL store keeps every customization in memory and reads them all at startup: its resident memory
# with the migrated ones against an empty database, and its time to ready.
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
serve empty TABCONFIG_STORE_URL="$(database empty)"
empty_kb=$(rss_kb "$server_pid")
started=$EPOCHREALTIME
serve loaded TABCONFIG_STORE_URL="$migrate_url" TABCONFIG_SEED_SAMPLE=false
ready_seconds=$(awk -v s="$started" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }')
loaded_kb=$(rss_kb "$server_pid")
cache_bytes=$(awk -v a="$loaded_kb" -v b="$empty_kb" -v n="$migrate_count" 'BEGIN { printf "%.0f", (a - b) * 1024 / n }')
echo "PostgreSQL store with $migrate_count customizations: ready in $ready_seconds s, $((loaded_kb / 1024)) MB resident" \
  "($((empty_kb / 1024)) MB with none): $cache_bytes bytes per customization in memory"
for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
pids=()

ratio() {
  awk -v a="${rps[$1]}" -v b="${rps[$2]}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'
}
echo
printf '%-14s %-48s %12s %9s %9s %10s\n' scenario server req/s p50-ms p99-ms ratio
printf '%-14s %-48s %12s %9s %9s %10s\n' put-replicas "tabconfig, 2 replicas on PostgreSQL, haproxy" \
  "${rps[put-replicas]}" "${p50[put-replicas]}" "${p99[put-replicas]}" "$(ratio put-replicas pgbench)"
printf '%-14s %-48s %12s %9s %9s %10s\n' put-replicas "PostgreSQL 15 upsert (pgbench)" \
  "${rps[pgbench]}" "${p50[pgbench]}" "${p99[pgbench]}" -
printf '%-14s %-48s %12s %9s %9s %10s  %s\n' get-user-pg "tabconfig on the PostgreSQL store" \
  "${rps[pg-store]}" "${p50[pg-store]}" "${p99[pg-store]}" "$(ratio pg-store file-store)" "${runs[pg-store]}"
printf '%-14s %-48s %12s %9s %9s %10s  %s\n' get-user-pg "tabconfig on the file store" \
  "${rps[file-store]}" "${p50[file-store]}" "${p99[file-store]}" - "${runs[file-store]}"
echo "migrate: $migrate_count customizations in $first_seconds s, again in $second_seconds s"
# Both write runs keep the two cores busy, so the target's ratio R needs a save to cost at most pgbench's CPU per
# upsert (its backends and its client) ÷ R, all processes together.
awk -v pgbench="${cpu_total[pgbench]:-0}" -v floor="${cpu_total[put-floor]:-0}" \
  -v database="${cpu_part[put-replicas/postgres]:-0}" -v save="${cpu_total[put-replicas]:-0}" \
  -v ratio="$(threshold_value put-replicas/pgbench)" 'BEGIN {
  budget = ratio > 0 ? pgbench / ratio : 0
  printf "put-replicas budget: at %s x pgbench a save may cost %.1f us of CPU in all (pgbench: %.1f per upsert);", ratio, budget, pgbench
  printf " a PUT answered 404 through haproxy (put-floor) costs %.1f and PostgreSQL takes %.1f of a save:", floor, database
  printf " %.1f before the replica does anything for the save (a save costs %.1f)\n", floor + database, save
}'
echo
figure put_replicas_rps "${rps[put-replicas]}" "requests/s"
figure pgbench_upsert_tps "${rps[pgbench]}" "transactions/s"
figure put_replicas_cpu_us "${cpu_total[put-replicas]:-0}" "us/save"
figure put_floor_cpu_us "${cpu_total[put-floor]:-0}" "us/request"
figure get_user_pg_rps "${rps[pg-store]}" "requests/s"
figure customization_bytes_pg "$customization_bytes" "bytes"
figure migrate_seconds "$first_seconds" "s/$migrate_count customizations"
figure cache_bytes_per_customization "$cache_bytes" "bytes"
figure ready_seconds "$ready_seconds" "s/$migrate_count customizations"
echo
target put-replicas/pgbench "$(ratio put-replicas pgbench)"
target get-user-pg/file-store "$(ratio pg-store file-store)"
printf '%s\n' "${targets[@]}"
results_save
exit "$failed"
