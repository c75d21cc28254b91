#!/usr/bin/env python3
"""Slow clients against the tabconfig server: does a normal client still get served while N connections trickle
their request heads, and does the server close the trickling connections?

    Benchmarks/slowloris.py --binary PATH [--connection-timeout S] [--connections 500] [--interval 10]
                            [--duration 30] [--baseline 5]
    Benchmarks/slowloris.py --port PORT [--host 127.0.0.1] ...          # a server that is already running

First a normal client GETs the default tab bar in a loop for --baseline seconds (a new connection per request
unless --keep-alive). Then N connections open and each sends one byte of a never-ending request head every
--interval seconds, while the same normal client runs for --duration seconds. Prints the normal client's p50/p99
latency in both phases and how many slow connections the server closed (its connection timeout) during the run.
Python 3 standard library only.
"""

import argparse
import errno
import http.client
import math
import os
import random
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

LISTENING = re.compile(r"listening on http://127\.0\.0\.1:(\d+)")
HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slowloris: "


def start_server(binary, data_dir, connection_timeout):
    """Starts `tabconfig serve --port 0` and returns (process, port)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABCONFIG_")}
    env["TABCONFIG_ADMIN_TOKEN"] = "slowloris"
    arguments = [binary, "serve", "--port", "0", "--data-dir", data_dir]
    if connection_timeout is not None:
        arguments += ["--connection-timeout", str(connection_timeout)]
    process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=env)
    found = threading.Event()
    port = []

    def read():
        for raw in process.stderr:
            match = LISTENING.search(raw.decode("utf-8", "replace"))
            if match and not port:
                port.append(int(match.group(1)))
                found.set()
        found.set()

    threading.Thread(target=read, daemon=True).start()
    found.wait(30)
    if not port:
        process.kill()
        sys.exit("the server did not start")
    return process, port[0]


class NormalClient:
    """GETs `path` in a loop on its own thread and records each request's latency in seconds."""

    def __init__(self, host, port, path, keep_alive, pause):
        self.host, self.port, self.path = host, port, path
        self.keep_alive, self.pause = keep_alive, pause
        self.latencies, self.errors = [], []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def run_for(self, seconds):
        self.latencies, self.errors = [], []
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        time.sleep(seconds)
        self._stop.set()
        self._thread.join()
        return list(self.latencies), list(self.errors)

    def _run(self):
        connection = None
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                if connection is None:
                    connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
                connection.request("GET", self.path)
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    self.errors.append(f"status {response.status}")
                else:
                    self.latencies.append(time.monotonic() - started)
            except (OSError, http.client.HTTPException) as error:
                self.errors.append(f"{type(error).__name__}: {error}")
                connection.close()
                connection = None
            if not self.keep_alive and connection is not None:
                connection.close()
                connection = None
            if self.pause:
                time.sleep(self.pause)
        if connection is not None:
            connection.close()


class SlowConnections:
    """N connections that each send one more byte of an endless request head every `interval` seconds."""

    def __init__(self, host, port, count, interval, rng):
        self.interval = interval
        self.sockets = {}
        self.next_send = {}
        self.sent = {}
        self.opened_at = {}
        self.closed_after = []
        self.open_failures = []
        self._stop = threading.Event()
        now = time.monotonic()
        for _ in range(count):
            try:
                sock = socket.create_connection((host, port), timeout=5)
                sock.sendall(HEAD[:1])
            except OSError as error:
                self.open_failures.append(f"{type(error).__name__}: {error}")
                continue
            sock.setblocking(False)
            fd = sock.fileno()
            self.sockets[fd] = sock
            self.sent[fd] = 1
            self.opened_at[fd] = time.monotonic()
            self.next_send[fd] = now + rng.uniform(0, interval)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    @property
    def still_open(self):
        return len(self.sockets)

    def _closed(self, fd):
        sock = self.sockets.pop(fd)
        self.closed_after.append(time.monotonic() - self.opened_at[fd])
        sock.close()

    def _run(self):
        poller = select.poll()
        for fd in self.sockets:
            poller.register(fd, select.POLLIN)
        while not self._stop.is_set() and self.sockets:
            for fd, _ in poller.poll(100):
                if fd not in self.sockets:
                    continue
                try:
                    data = self.sockets[fd].recv(4096)
                except OSError as error:
                    if error.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                        continue
                    data = b""
                if not data:
                    poller.unregister(fd)
                    self._closed(fd)
            now = time.monotonic()
            for fd in [fd for fd, due in self.next_send.items() if fd in self.sockets and due <= now]:
                index = self.sent[fd]
                byte = HEAD[index:index + 1] or b"a"
                try:
                    self.sockets[fd].send(byte)
                except OSError:
                    poller.unregister(fd)
                    self._closed(fd)
                    continue
                self.sent[fd] = index + 1
                self.next_send[fd] += self.interval

    def close(self):
        self._stop.set()
        self._thread.join()
        for sock in self.sockets.values():
            sock.close()


def percentile(values, fraction):
    """Nearest-rank percentile of `values` (seconds), or None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def describe(name, latencies, errors):
    def ms(value):
        return "-" if value is None else f"{1000 * value:.1f} ms"
    print(f"{name}: {len(latencies)} requests, p50 {ms(percentile(latencies, 0.50))}, "
          f"p99 {ms(percentile(latencies, 0.99))}, max {ms(max(latencies) if latencies else None)}, "
          f"errors {len(errors)}")
    for error in sorted(set(errors))[:5]:
        print(f"  {errors.count(error)} x {error}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--binary", help="start this tabconfig executable on a free port over a temporary directory")
    target.add_argument("--port", type=int, help="use a server already listening on this port")
    parser.add_argument("--host", default="127.0.0.1", help="host of --port (default 127.0.0.1)")
    parser.add_argument("--connection-timeout", type=int, default=None,
                        help="--connection-timeout for the server started with --binary (default: its own, 30)")
    parser.add_argument("--connections", type=int, default=500, help="slow connections (default 500)")
    parser.add_argument("--interval", type=float, default=10.0, help="seconds between a slow connection's bytes")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds the slow connections are held")
    parser.add_argument("--baseline", type=float, default=5.0, help="seconds measured without slow connections")
    parser.add_argument("--path", default="/v1/clients/ios-phone/tabs", help="what the normal client GETs")
    parser.add_argument("--keep-alive", action="store_true", help="the normal client reuses one connection")
    parser.add_argument("--pause", type=float, default=0.01, help="seconds between the normal client's requests")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the slow connections' schedule")
    args = parser.parse_args()

    process, data_dir = None, None
    if args.binary:
        data_dir = tempfile.mkdtemp(prefix="tabconfig-slowloris-")
        process, port = start_server(args.binary, data_dir, args.connection_timeout)
        host = "127.0.0.1"
    else:
        host, port = args.host, args.port
    try:
        normal = NormalClient(host, port, args.path, args.keep_alive, args.pause)
        timeout = args.connection_timeout if args.connection_timeout is not None else "server default"
        print(f"server {host}:{port} (connection timeout {timeout}); {args.connections} slow connections, "
              f"one byte every {args.interval:g} s for {args.duration:g} s", flush=True)
        baseline = normal.run_for(args.baseline)
        describe("without slow connections", *baseline)
        slow = SlowConnections(host, port, args.connections, args.interval, random.Random(args.seed))
        opened = args.connections - len(slow.open_failures)
        loaded = normal.run_for(args.duration)
        describe(f"with {opened} slow connections", *loaded)
        slow.close()
        closed = sorted(slow.closed_after)
        print(f"slow connections: {opened} opened, {len(slow.open_failures)} failed to open, "
              f"{len(closed)} closed by the server within the run, {slow.still_open} still open at the end")
        if closed:
            print(f"  closed after: min {min(closed):.1f} s, median {percentile(closed, 0.5):.1f} s, "
                  f"max {max(closed):.1f} s")
        for failure in sorted(set(slow.open_failures))[:3]:
            print(f"  open failure: {slow.open_failures.count(failure)} x {failure}")
    finally:
        if process is not None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
            shutil.rmtree(data_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
