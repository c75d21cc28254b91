#!/usr/bin/env bash
# Memory and startup scenario of the benchmark suite: a release tabconfig over a data directory holding 1,000,000
# customizations of client ios-phone (users u0 … u999999, 4-7 tab ids and 0-1 hidden each), written by
# BenchmarkSeeder through the store's own API. Measured twice on the same data: first with every customization in
# the journal (the seeder never compacts), then after compacting them into the snapshot. Each time it measures the
# time from exec to the first /readyz 200 (polled every 10 ms), VmRSS and VmHWM once ready, reads three seeded users
# back (their stored order and hidden tabs, and their merged tab bar), and VmRSS again after that. The data
# directory's files were just written, so they are in the page cache: this is a warm start. Prints a table and
#   TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
# for RSS and ready time (the worse of the two layouts; Benchmarks/Thresholds/memory.txt). Exits 1 if any is FAIL or
# a read-back is wrong. What it prints is also written to Benchmarks/results/memory/<UTC date>-<commit>.md.
#
#   Benchmarks/memory.sh        (usually run by Benchmarks/run.sh, which builds tabconfig once for every scenario)
#
# Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_CUSTOMIZATIONS
# (how many to seed, default 1000000). BenchmarkSeeder is built into .build-bench/ as well.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
count=${BENCH_CUSTOMIZATIONS:-1000000}

# Tools from apt when missing: python3 runs the start, the polling and the reads with a monotonic clock.
missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
install_missing memory "${missing[@]}"

release_binary memory
echo "memory: swift build -c release --scratch-path .build-bench --product BenchmarkSeeder"
swift build -c release --scratch-path .build-bench --product BenchmarkSeeder >/dev/null
seeder="$(swift build -c release --scratch-path .build-bench --show-bin-path)/BenchmarkSeeder"

# The data directory is on disk (not tmpfs), under the repository's .build-bench/, removed at exit.
one_server_workdir memory
results_start
echo "memory: data on $(df --output=source,fstype "$work" | tail -n 1 | tr -s ' ') ($work)"
print_machine

# A first start on the empty directory publishes the sample config (ios-phone), as in production before users come.
source scripts/server.sh
start_server "$TABCONFIG_BINARY" "$work" TABCONFIG_ADMIN_TOKEN=bench
stop_server
mv "$work/server.log" "$work/first-start.log"

echo "memory: $seeder $work/store --count $count --keep-journal"
"$seeder" "$work/store" --count "$count" --keep-journal | tee "$work/seeder.log" | grep -v '^  [0-9]* written'
samples=$(sed -n 's/^sample //p' "$work/seeder.log")
[ -n "$samples" ] || { echo "memory: the seeder printed no sample users" >&2; exit 1; }

# start_and_measure: starts tabconfig on $work/store, prints its findings and one line
#   RESULT <ready seconds> <VmRSS MB at ready> <VmHWM MB at ready> <VmRSS MB after the reads> <reads ok: 1|0>
start_and_measure() {
  python3 - "$TABCONFIG_BINARY" "$work/store" "$work/server.log" "$samples" <<'PYTHON'
import http.client, json, os, re, signal, subprocess, sys, time

binary, store, log_path, samples = sys.argv[1:5]
environment = dict(os.environ, TABCONFIG_ADMIN_TOKEN="bench")

def status_mb(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]

def get(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()

with open(log_path, "wb") as log:
    start = time.monotonic()
    server = subprocess.Popen([binary, "serve", "--port", "0", "--data-dir", store], stderr=log, env=environment)
port = None
ready = None
while time.monotonic() - start < 60 and server.poll() is None:
    if port is None:
        with open(log_path, errors="replace") as log:
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", log.read())
        port = int(found.group(1)) if found else None
    if port is not None:
        try:
            if get(port, "/readyz")[0] == 200:
                ready = time.monotonic() - start
                break
        except OSError:
            pass
    time.sleep(0.01)
if ready is None:
    server.kill()
    sys.stdout.write(open(log_path, errors="replace").read())
    print("memory: tabconfig was not ready within 60 s")
    print("RESULT - - - - 0")
    sys.exit(0)

rss, hwm = status_mb(server.pid)
print(f"ready {ready:.3f} s after exec (port {port}); VmRSS {rss:.1f} MB, VmHWM {hwm:.1f} MB")
reads_ok = 1
for sample in samples.splitlines():
    user, order, hidden = sample.split()
    expected_order = order.split(",")
    expected_hidden = [] if hidden == "-" else hidden.split(",")
    status, body = get(port, f"/v1/clients/ios-phone/users/{user}/tab-order")
    stored = json.loads(body) if status == 200 else {}
    tabs_status, tabs_body = get(port, f"/v1/clients/ios-phone/users/{user}/tabs?locale=en")
    tab_ids = [tab["id"] for tab in json.loads(tabs_body).get("tabs", [])] if tabs_status == 200 else []
    # The merged tab bar places locked and unordered tabs at their default slots and the user's in the user's order.
    merged_order = [tab for tab in tab_ids if tab in expected_order]
    good = (status == 200 and stored.get("order") == expected_order and stored.get("hidden") == expected_hidden
            and tabs_status == 200 and merged_order == expected_order and not set(expected_hidden) & set(tab_ids))
    reads_ok &= good
    print(f"  {user}: tab-order {status} order={','.join(stored.get('order', []))} "
          f"hidden={','.join(stored.get('hidden', [])) or '-'} revision={stored.get('revision')}; "
          f"tabs {tabs_status} {','.join(tab_ids)} "
          + ("(as seeded)" if good else f"(EXPECTED order={order} hidden={hidden})"))
rss_after, _ = status_mb(server.pid)
print(f"after the reads: VmRSS {rss_after:.1f} MB")
server.send_signal(signal.SIGTERM)
try:
    code = server.wait(timeout=30)
except subprocess.TimeoutExpired:
    server.kill()
    code = "killed after 30 s"
print(f"stopped with SIGTERM: exit {code}")
reads_ok &= code == 0
print(f"RESULT {ready:.3f} {rss:.1f} {hwm:.1f} {rss_after:.1f} {reads_ok}")
PYTHON
}

# size_mb FILE: its size in MB with one decimal (0.0 when it does not exist).
size_mb() {
  { stat -c %s "$1" 2>/dev/null || echo 0; } | awk '{ printf "%.1f", $1 / 1048576 }'
}

declare -A ready rss hwm rss_after disk
# measure NAME: runs start_and_measure and records its RESULT under NAME, with the data's size on disk.
measure() {
  local name=$1 output result ok
  disk[$name]="journal $(size_mb "$work/store/customizations.journal") MB, snapshot $(size_mb "$work/store/customizations.snapshot") MB, dir $(du -sb "$work/store" | awk '{ printf "%.1f", $1 / 1048576 }') MB"
  echo
  echo "== $name: ${disk[$name]}"
  output=$(start_and_measure)
  grep -v '^RESULT ' <<<"$output"
  result=$(sed -n 's/^RESULT //p' <<<"$output")
  read -r "ready[$name]" "rss[$name]" "hwm[$name]" "rss_after[$name]" ok <<<"$result"
  if [ "$ok" != 1 ]; then
    echo "memory: $name: a read-back or the shutdown failed" >&2
    failed=1
  fi
}

measure journal
echo
echo "memory: $seeder $work/store --count 0 --compact"
"$seeder" "$work/store" --count 0 --compact | grep -E '^(opened|compacted|customizations)'
measure snapshot

echo
printf '%-10s %-48s %9s %12s %12s %14s\n' layout "on disk" ready-s rss-mb hwm-mb rss-after-mb
for name in journal snapshot; do
  printf '%-10s %-48s %9s %12s %12s %14s\n' "$name" "${disk[$name]}" "${ready[$name]}" "${rss[$name]}" \
    "${hwm[$name]}" "${rss_after[$name]}"
done
echo

# The worse layout of the two for each target; RSS is the larger of the readings at ready and after the reads.
# worst FORMAT VALUE...: the largest value, printed with FORMAT; "-" if one is not a number.
worst() {
  local format=$1
  shift
  awk -v format="$format" '{ for (i = 1; i <= NF; i++) if ($i !~ /^[0-9.]+$/) bad = 1; else if ($i + 0 > m) m = $i + 0 }
    END { if (bad) print "-"; else printf format "\n", m }' <<<"$*"
}
target memory/rss-mb "$(worst %.1f "${rss[journal]} ${rss_after[journal]} ${rss[snapshot]} ${rss_after[snapshot]}")"
target memory/ready-seconds "$(worst %.3f "${ready[journal]} ${ready[snapshot]}")"
printf '%s\n' "${targets[@]}"
results_save
exit "$failed"
