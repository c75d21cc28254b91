#!/usr/bin/env bash
# Event-stream scenario of the benchmark suite: a release tabconfig with many open server-sent-event streams
# (GET /v1/clients/ios-phone/tabs/events), each on its own connection. Measures, in one run on one server:
#   fan-out   the time from sending an admin PUT of a new config until every subscriber has read the new version's
#             event, with BENCH_SUBSCRIBERS streams open (default 200), against the same with one stream open (the
#             reference: what a publish costs without the fan-out); BENCH_PUBLISHES publishes each (default 5),
#             the median reported
#   idle CPU  the server's CPU time (utime + stime of /proc/PID/stat) over BENCH_IDLE_SECONDS (default 3) with the
#             streams open and idle, against the same span with no connection open (the reference)
# Prints a table and
#   TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
# for the fan-out (the service's promise: every subscriber within 1 s of a publish) and the CPU the idle streams
# add (suspended streams hold no thread and must not busy-loop), from Benchmarks/Thresholds/streams.txt. Exits 1 if
# any is FAIL or a subscriber missed an event. What it prints is also written to
# Benchmarks/results/streams/<UTC date>-<commit>.md (Benchmarks/lib.sh, results_start).
#
#   Benchmarks/streams.sh       (usually run by Benchmarks/run.sh, which builds tabconfig once for every scenario)
#
# Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_SUBSCRIBERS,
# BENCH_PUBLISHES, BENCH_IDLE_SECONDS.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
subscribers=${BENCH_SUBSCRIBERS:-200}
publishes=${BENCH_PUBLISHES:-5}
idle_seconds=${BENCH_IDLE_SECONDS:-3}

missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
install_missing streams "${missing[@]}"
release_binary streams

one_server_workdir streams
results_start
print_machine

# Heartbeats every hour, so that the idle span measures the streams alone, not the heartbeat timer's writes.
source scripts/server.sh
start_server "$TABCONFIG_BINARY" "$work" TABCONFIG_ADMIN_TOKEN=bench TABCONFIG_EVENT_HEARTBEAT=3600
echo "streams: tabconfig on port $port, $subscribers subscribers, $publishes publishes each, idle ${idle_seconds}s"

# Prints the table and one line: RESULT <fan-out ms> <reference ms> <idle CPU ms/s> <reference ms/s> <missed events>
python3 - "$port" "$server_pid" "$subscribers" "$publishes" "$idle_seconds" <<'PYTHON' | tee "$work/result"
import http.client, json, os, selectors, socket, statistics, sys, time

port, pid, subscribers, publishes = (int(value) for value in sys.argv[1:5])
idle_seconds = float(sys.argv[5])
ticks = os.sysconf("SC_CLK_TCK")

def cpu_seconds():
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks

def idle_cpu_ms_per_second():
    before, start = cpu_seconds(), time.monotonic()
    time.sleep(idle_seconds)
    return (cpu_seconds() - before) * 1000 / (time.monotonic() - start)

class Subscriber:
    """One event stream on its own connection; collects the ids of the events it has read."""

    def __init__(self):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.socket.sendall(b"GET /v1/clients/ios-phone/tabs/events HTTP/1.1\r\nHost: bench\r\n\r\n")
        self.buffer = b""
        self.ids = []
        self.head_read = False

    def read(self):
        data = self.socket.recv(65536)
        if not data:
            raise RuntimeError("a subscriber's stream was closed")
        self.buffer += data
        if not self.head_read:
            head, separator, rest = self.buffer.partition(b"\r\n\r\n")
            if not separator:
                return
            if not head.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(f"subscribe: {head[:80]!r}")
            self.head_read, self.buffer = True, rest
        # Chunked framing around the events: the event lines are found in the raw bytes, which is enough here.
        *lines, self.buffer = self.buffer.split(b"\n")
        self.ids += [int(line[4:]) for line in lines if line.startswith(b"id: ")]

def read_until(streams, version, deadline):
    """Reads until every stream has seen `version` (None: any event); returns how many have not."""
    def done(stream):
        return bool(stream.ids) if version is None else version in stream.ids
    selector = selectors.DefaultSelector()
    waiting = {stream.socket: stream for stream in streams if not done(stream)}
    for sock in waiting:
        selector.register(sock, selectors.EVENT_READ)
    while waiting and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=max(0, deadline - time.monotonic())):
            stream = waiting[key.fileobj]
            stream.read()
            if done(stream):
                selector.unregister(key.fileobj)
                del waiting[key.fileobj]
    selector.close()
    return len(waiting)

def tab(identifier):
    return {"id": identifier, "title": {"default": identifier.capitalize()}, "icon": {"image": f"{identifier}.png"},
            "destination": {"type": "viewController", "name": f"{identifier.capitalize()}ViewController"}}

def publish(round_number):
    ids = ["home", "search", "library", "favorites", "profile", "settings"]
    ids = ids[round_number % len(ids):] + ids[:round_number % len(ids)]
    document = {"tabs": [tab(identifier) for identifier in ids], "maxVisibleTabs": 5, "userCustomizable": True,
                "defaultLocale": "en"}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("PUT", "/v1/clients/ios-phone/config", body=json.dumps(document),
                       headers={"Authorization": "Bearer bench", "Content-Type": "application/json"})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    if response.status != 201:
        raise RuntimeError(f"publish: {response.status} {body[:200]!r}")
    return json.loads(body)["version"]

def fan_out_ms(streams, rounds, first_round):
    """Median time from sending a publish until every stream has read its event; and the events missed."""
    times, missed = [], 0
    for round_number in range(first_round, first_round + rounds):
        start = time.monotonic()
        version = publish(round_number)
        missed += read_until(streams, version, start + 10)
        times.append((time.monotonic() - start) * 1000)
    return statistics.median(times), times, missed

idle_reference = idle_cpu_ms_per_second()

reference_stream = Subscriber()
missed = read_until([reference_stream], None, time.monotonic() + 10)
reference_ms, reference_runs, reference_missed = fan_out_ms([reference_stream], publishes, 0)
missed += reference_missed

streams = [Subscriber() for _ in range(subscribers)]
missed += read_until(streams, None, time.monotonic() + 30)
fanout_ms, fanout_runs, fanout_missed = fan_out_ms(streams + [reference_stream], publishes, publishes)
missed += fanout_missed

idle_streams = idle_cpu_ms_per_second()

def runs(values):
    return " ".join(f"{value:.1f}" for value in values)

ratio = f"{fanout_ms / reference_ms:.2f}" if reference_ms > 0 else "-"
print(f"{'measure':<44}{'median-ms':>10}  {'÷ reference':>11}  every run")
print(f"{'fan-out to 1 subscriber (reference)':<44}{reference_ms:>10.1f}  {'-':>11}  {runs(reference_runs)}")
print(f"{f'fan-out to {subscribers + 1} subscribers':<44}{fanout_ms:>10.1f}  {ratio:>11}  {runs(fanout_runs)}")
print()
print(f"{'measure':<44}{'cpu-ms/s':>10}")
print(f"{'server idle, no connection (reference)':<44}{idle_reference:>10.1f}")
print(f"{f'server idle, {subscribers + 1} streams open':<44}{idle_streams:>10.1f}")
print(f"RESULT {fanout_ms:.1f} {reference_ms:.1f} {idle_streams:.1f} {idle_reference:.1f} {missed}")
PYTHON

read -r _ fanout reference idle idle_reference missed < <(grep '^RESULT ' "$work/result")
stop_server || { echo "streams: the server did not exit cleanly" >&2; failed=1; }
idle_added=$(awk -v a="$idle" -v b="$idle_reference" 'BEGIN { d = a - b; printf "%.1f", d < 0 ? 0 : d }')
figure stream_fanout_ms "$fanout" "ms/$((subscribers + 1)) streams"
figure stream_idle_cpu_ms_per_s "$idle_added" "ms/s/$((subscribers + 1)) streams"
target streams/fanout-ms "$fanout"
target streams/idle-cpu-added-ms-per-s "$idle_added"
target errors/streams/missed-events "$missed" "==" 0
echo
printf '%s\n' "${targets[@]}"
results_save
exit "$failed"
