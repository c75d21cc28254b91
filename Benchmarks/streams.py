#!/usr/bin/env python3
"""Event-stream scenario of the benchmark suite: a release tabconfig with many open server-sent-event streams
(GET /v1/clients/ios-phone/tabs/events), each on its own connection. Measures, in one run on one server:
  fan-out   the time from sending an admin PUT of a new config until every subscriber has read the new version's
            event, with BENCH_SUBSCRIBERS streams open (default 200), against the same with one stream open (the
            reference: what a publish costs without the fan-out); BENCH_PUBLISHES publishes each (default 5),
            the median reported
  idle CPU  the server's CPU time (utime + stime of /proc/PID/stat) over BENCH_IDLE_SECONDS (default 3) with the
            streams open and idle, against the same span with no connection open (the reference)
Prints a table and
  TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
for the fan-out (the service's promise: every subscriber within 1 s of a publish) and the CPU the idle streams
add (suspended streams hold no thread and must not busy-loop), from Benchmarks/Thresholds/streams.txt. Exits 1 if
any is FAIL or a subscriber missed an event. What it prints is also written to
Benchmarks/results/streams/<UTC date>-<commit>.md (Benchmarks/harness.py, results_start).

    Benchmarks/streams.py       (usually run by Benchmarks/run.py, which builds tabconfig once for every scenario)

Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_SUBSCRIBERS,
BENCH_PUBLISHES, BENCH_IDLE_SECONDS.
"""

import json
import os
import selectors
import socket
import statistics
import sys
import time

from harness import (Server, cpu_ticks, env_int, figure, finish, install_missing, mark_failed, print_machine,
                     release_binary, results_start, send_json, target, workdir)

SUBSCRIBERS = env_int("BENCH_SUBSCRIBERS", 200)
PUBLISHES = env_int("BENCH_PUBLISHES", 5)
IDLE_SECONDS = float(os.environ.get("BENCH_IDLE_SECONDS") or 3)


def idle_cpu_ms_per_second(pid):
    """The server's CPU (utime + stime) over IDLE_SECONDS, in milliseconds per second."""
    def cpu_seconds():
        user, system = cpu_ticks([pid])
        return user + system
    before, start = cpu_seconds(), time.monotonic()
    time.sleep(IDLE_SECONDS)
    return (cpu_seconds() - before) / os.sysconf("SC_CLK_TCK") * 1000 / (time.monotonic() - start)


class Subscriber:
    """One event stream on its own connection; collects the ids of the events it has read."""

    def __init__(self, port):
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
    """Reads until every stream has seen VERSION (None: any event); returns how many have not."""
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


def publish(base, round_number):
    """Publishes a config whose tabs are rotated by ROUND_NUMBER; its version."""
    ids = ["home", "search", "library", "favorites", "profile", "settings"]
    ids = ids[round_number % len(ids):] + ids[:round_number % len(ids)]
    document = {"tabs": [tab(identifier) for identifier in ids], "maxVisibleTabs": 5, "userCustomizable": True,
                "defaultLocale": "en"}
    answer = send_json(f"{base}/v1/clients/ios-phone/config", document, token="bench")
    if answer.status != 201:
        raise RuntimeError(f"publish: {answer.status} {answer.body[:200]!r}")
    return json.loads(answer.body)["version"]


def fan_out_ms(base, streams, rounds, first_round):
    """Median time from sending a publish until every stream has read its event; every time; and the events
    missed."""
    times, missed = [], 0
    for round_number in range(first_round, first_round + rounds):
        start = time.monotonic()
        version = publish(base, round_number)
        missed += read_until(streams, version, start + 10)
        times.append((time.monotonic() - start) * 1000)
    return statistics.median(times), times, missed


def measure(server):
    """Prints the table; returns the fan-out and its reference (ms), the idle CPU with the streams open and its
    reference (ms/s), and the events missed."""
    idle_reference = idle_cpu_ms_per_second(server.pid)

    reference_stream = Subscriber(server.port)
    missed = read_until([reference_stream], None, time.monotonic() + 10)
    reference_ms, reference_runs, reference_missed = fan_out_ms(server.base, [reference_stream], PUBLISHES, 0)
    missed += reference_missed

    streams = [Subscriber(server.port) for _ in range(SUBSCRIBERS)]
    missed += read_until(streams, None, time.monotonic() + 30)
    fanout_ms, fanout_runs, fanout_missed = fan_out_ms(server.base, streams + [reference_stream], PUBLISHES,
                                                       PUBLISHES)
    missed += fanout_missed

    idle_streams = idle_cpu_ms_per_second(server.pid)

    def runs(values):
        return " ".join(f"{value:.1f}" for value in values)

    ratio = f"{fanout_ms / reference_ms:.2f}" if reference_ms > 0 else "-"
    print(f"{'measure':<44}{'median-ms':>10}  {'÷ reference':>11}  every run")
    print(f"{'fan-out to 1 subscriber (reference)':<44}{reference_ms:>10.1f}  {'-':>11}  {runs(reference_runs)}")
    print(f"{f'fan-out to {SUBSCRIBERS + 1} subscribers':<44}{fanout_ms:>10.1f}  {ratio:>11}  {runs(fanout_runs)}")
    print()
    print(f"{'measure':<44}{'cpu-ms/s':>10}")
    print(f"{'server idle, no connection (reference)':<44}{idle_reference:>10.1f}")
    print(f"{f'server idle, {SUBSCRIBERS + 1} streams open':<44}{idle_streams:>10.1f}")
    for stream in streams + [reference_stream]:
        stream.socket.close()
    return fanout_ms, reference_ms, idle_streams, idle_reference, missed


def main():
    install_missing("streams", [])
    binary = release_binary("streams")
    work = workdir("streams")
    results_start()
    print_machine()
    # Heartbeats every hour, so that the idle span measures the streams alone, not the heartbeat timer's writes.
    server = Server(binary, work, TABCONFIG_ADMIN_TOKEN="bench", TABCONFIG_EVENT_HEARTBEAT="3600")
    print(f"streams: tabconfig on port {server.port}, {SUBSCRIBERS} subscribers, {PUBLISHES} publishes each, "
          f"idle {IDLE_SECONDS:g}s")
    fanout, _, idle, idle_reference, missed = measure(server)
    if server.stop() != 0:
        print("streams: the server did not exit cleanly", file=sys.stderr)
        mark_failed()
    idle_added = f"{max(0.0, float(f'{idle:.1f}') - float(f'{idle_reference:.1f}')):.1f}"
    figure("stream_fanout_ms", f"{fanout:.1f}", f"ms/{SUBSCRIBERS + 1} streams")
    figure("stream_idle_cpu_ms_per_s", idle_added, f"ms/s/{SUBSCRIBERS + 1} streams")
    target("streams/fanout-ms", f"{fanout:.1f}")
    target("streams/idle-cpu-added-ms-per-s", idle_added)
    target("errors/streams/missed-events", missed, "==", 0)
    print()
    finish()


if __name__ == "__main__":
    main()
