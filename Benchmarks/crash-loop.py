#!/usr/bin/env python3
"""Crash-consistency loop for the tabconfig server: no acknowledged tab-order write may be lost to a SIGKILL.

    Benchmarks/crash-loop.py --binary PATH --cycles N [--writers 8] [--users 16] [--seed S] [--data-dir DIR]

Every cycle starts `tabconfig serve --port 0 --data-dir DIR` (the same DIR every cycle), checks that every user's
stored tab order holds at least the last write the server acknowledged (same revision means same order), runs
concurrent writers that PUT random orders of the sample config's tabs, and SIGKILLs the server 10-300 ms after it
is up. After the last cycle the server is started once more, checked, and stopped with SIGTERM (it must exit 0).

Prints cycles run, writes acknowledged and writes lost; exits 1 if a write was lost, the stored state was not one
the writers sent, or the server failed to start or to stop cleanly. Python 3 standard library only.
"""

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

CLIENT = "ios-phone"
TAB_IDS = ["home", "search", "library", "favorites", "profile", "settings", "downloads"]
LISTENING = re.compile(r"listening on http://127\.0\.0\.1:(\d+)")
START_TIMEOUT = 30.0
REQUEST_TIMEOUT = 10.0


class Server:
    """One `tabconfig serve` child; its standard error is collected by a thread."""

    def __init__(self, binary, data_dir, token):
        env = {k: v for k, v in os.environ.items() if not k.startswith("TABCONFIG_")}
        env["TABCONFIG_ADMIN_TOKEN"] = token
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--data-dir", data_dir],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        self.lines = []
        self.port = None
        self._ready = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for raw in self.process.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.lines.append(line)
            match = LISTENING.search(line)
            if match and self.port is None:
                self.port = int(match.group(1))
                self._ready.set()
        self._ready.set()

    def wait_until_listening(self):
        """True once the server logged its port; False if it exited or took longer than START_TIMEOUT."""
        self._ready.wait(START_TIMEOUT)
        return self.port is not None and self.process.poll() is None

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self._reader.join(5)

    def terminate(self):
        """SIGTERM; returns the exit status, or None if the process did not exit within 15 s (then it is killed)."""
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()
            return None
        self._reader.join(5)
        return status

    def log(self, last=30):
        return "\n".join(self.lines[-last:])


class Ledger:
    """Per user: the highest acknowledged revision with its order, and every order ever sent."""

    def __init__(self, users):
        self.lock = threading.Lock()
        self.acked = {user: (0, None) for user in users}
        self.sent = {user: set() for user in users}
        self.acknowledged = 0
        self.unanswered = 0
        self.unexpected = []

    def will_send(self, user, order):
        with self.lock:
            self.sent[user].add(tuple(order))

    def ack(self, user, revision, order):
        with self.lock:
            self.acknowledged += 1
            if revision > self.acked[user][0]:
                self.acked[user] = (revision, tuple(order))

    def no_answer(self):
        with self.lock:
            self.unanswered += 1

    def unexpected_response(self, description):
        with self.lock:
            self.unexpected.append(description)


def tab_order_path(user):
    return f"/v1/clients/{CLIENT}/users/{user}/tab-order"


def writer(port, users, ledger, rng, stop):
    """PUTs random orders on one keep-alive connection until the server goes away or `stop` is set."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    try:
        while not stop.is_set():
            user = rng.choice(users)
            order = rng.sample(TAB_IDS, rng.randint(1, len(TAB_IDS)))
            ledger.will_send(user, order)
            body = json.dumps({"order": order, "hidden": []})
            try:
                connection.request("PUT", tab_order_path(user), body=body,
                                   headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                payload = response.read()
            except (OSError, http.client.HTTPException):
                ledger.no_answer()
                return
            if response.status != 200:
                ledger.unexpected_response(f"PUT {user}: {response.status} {payload[:200]!r}")
                continue
            document = json.loads(payload)
            if document.get("order") != order:
                ledger.unexpected_response(f"PUT {user}: sent {order}, answered {document.get('order')}")
            ledger.ack(user, int(document["revision"]), order)
    finally:
        connection.close()


def verify(port, users, ledger):
    """Compares every user's stored tab order with the ledger; returns (lost, problems) descriptions."""
    lost, problems = [], []
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    try:
        for user in users:
            connection.request("GET", tab_order_path(user))
            response = connection.getresponse()
            payload = response.read()
            if response.status != 200:
                problems.append(f"GET {user}: {response.status} {payload[:200]!r}")
                continue
            document = json.loads(payload)
            stored_revision, stored_order = int(document["revision"]), tuple(document["order"])
            with ledger.lock:
                acked_revision, acked_order = ledger.acked[user]
                sent = set(ledger.sent[user])
            if stored_revision < acked_revision:
                lost.append(f"{user}: stored revision {stored_revision} < acknowledged {acked_revision}")
            elif stored_revision == acked_revision and acked_order is not None and stored_order != acked_order:
                lost.append(f"{user}: revision {stored_revision} holds {list(stored_order)}, "
                            f"acknowledged {list(acked_order)}")
            elif stored_revision > 0 and stored_order not in sent:
                problems.append(f"{user}: stored order {list(stored_order)} was never sent")
    finally:
        connection.close()
    return lost, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the tabconfig executable")
    parser.add_argument("--cycles", type=int, required=True, help="start, write, SIGKILL cycles")
    parser.add_argument("--writers", type=int, default=8, help="concurrent writer threads (default 8)")
    parser.add_argument("--users", type=int, default=16, help="distinct users written to (default 16)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock)")
    parser.add_argument("--data-dir", default=None, help="data directory (default: a new temporary one, removed)")
    args = parser.parse_args()
    if args.cycles < 1 or args.writers < 1 or args.users < 1:
        parser.error("--cycles, --writers and --users must be at least 1")

    seed = args.seed if args.seed is not None else int(time.time() * 1000) % 1_000_000_007
    rng = random.Random(seed)
    temporary = args.data_dir is None
    data_dir = tempfile.mkdtemp(prefix="tabconfig-crash-loop-") if temporary else args.data_dir
    token = "crash-loop-%016x" % rng.getrandbits(64)
    users = [f"crash-{index:02d}" for index in range(args.users)]
    ledger = Ledger(users)
    print(f"seed {seed}, data directory {data_dir}, {args.writers} writers, {len(users)} users", flush=True)

    cycles = 0
    start_times = []
    lost, problems, failures = [], [], []
    started = time.monotonic()
    try:
        while True:
            launched = time.monotonic()
            server = Server(args.binary, data_dir, token)
            if not server.wait_until_listening():
                failures.append(f"cycle {cycles + 1}: the server did not start:\n{server.log()}")
                server.kill()
                break
            start_times.append(time.monotonic() - launched)
            cycle_lost, cycle_problems = verify(server.port, users, ledger)
            lost += [f"after cycle {cycles}: {entry}" for entry in cycle_lost]
            problems += [f"after cycle {cycles}: {entry}" for entry in cycle_problems]
            if cycle_lost or cycle_problems:
                print(server.log(), file=sys.stderr)
            if cycles == args.cycles or lost:
                status = server.terminate()
                if status != 0:
                    failures.append(f"SIGTERM: exit status {status}:\n{server.log()}")
                break
            stop = threading.Event()
            threads = [
                threading.Thread(target=writer, args=(server.port, users, ledger,
                                                      random.Random(rng.getrandbits(64)), stop))
                for _ in range(args.writers)
            ]
            for thread in threads:
                thread.start()
            time.sleep(rng.uniform(0.010, 0.300))
            server.kill()
            stop.set()
            for thread in threads:
                thread.join()
            cycles += 1
            if cycles % 25 == 0:
                print(f"  {cycles} cycles, {ledger.acknowledged} writes acknowledged", flush=True)
    finally:
        if temporary and not (lost or problems or failures):
            shutil.rmtree(data_dir, ignore_errors=True)

    elapsed = time.monotonic() - started
    print(f"cycles run: {cycles}")
    print(f"writes acknowledged: {ledger.acknowledged}")
    print(f"writes lost: {len(lost)}")
    print(f"writes unanswered at the kill (may or may not be stored): {ledger.unanswered}")
    print(f"unexpected responses: {len(ledger.unexpected)}")
    print(f"other problems: {len(problems) + len(failures)}")
    print(f"elapsed: {elapsed:.1f} s ({elapsed / max(cycles, 1):.2f} s per cycle)")
    if start_times:
        print(f"server start to listening: mean {1000 * sum(start_times) / len(start_times):.0f} ms, "
              f"max {1000 * max(start_times):.0f} ms")
    for entry in lost + problems + ledger.unexpected[:20] + failures:
        print(f"  {entry}", file=sys.stderr)
    if lost or problems or failures or ledger.unexpected:
        if temporary:
            print(f"data directory kept: {data_dir}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
