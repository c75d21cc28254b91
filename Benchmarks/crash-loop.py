#!/usr/bin/env python3
"""Crash-consistency loop for the tabconfig server: no acknowledged write of a user's customization (a tab order,
a tab opened, a tab closed) may be lost to a SIGKILL.

    Benchmarks/crash-loop.py --binary PATH --cycles N [--writers 8] [--users 16] [--seed S] [--data-dir DIR]

Every cycle starts `tabconfig serve --port 0 --data-dir DIR` (the same DIR every cycle), checks every user's stored
customization against what the server acknowledged, runs concurrent writers on the same users, and SIGKILLs the
server 10-300 ms after it is up. Writers PUT random orders of the sample config's tabs (55 %), open tabs from its
templates under names never used before (25 %) and close tabs known to be open (20 %, each by one writer), all
without If-Match, so that their writes race on the same users' revisions. The checks: the stored revision is at
least the highest one acknowledged, and holds that write's order when it was a tab order; the stored order is one a
writer sent; a tab whose opening was acknowledged is open unless a close of it was sent; a tab whose close was
acknowledged, or whose opening was refused or never sent, is not. After the last cycle the server is started once
more, checked, and stopped with SIGTERM (it must exit 0).

Prints cycles run, writes acknowledged (tab orders, opens, closes) and writes lost; exits 1 if a write was lost, the
stored state was not one the writers sent, or the server failed to start or to stop cleanly. Python 3 standard
library only.
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
    """Per user: the highest acknowledged revision, the highest acknowledged tab order with its revision, every order
    ever sent; per opened tab name: how far its opening and closing got."""

    def __init__(self, users):
        self.lock = threading.Lock()
        self.acked_revision = {user: 0 for user in users}
        self.acked_order = {user: (0, None) for user in users}
        self.sent = {user: set() for user in users}
        # (user, name) -> "open sent", "opened", "refused", "close sent", "closed"
        self.tabs = {}
        self.names = 0
        self.open_pool = []
        self.acknowledged = {"order": 0, "open": 0, "close": 0}
        self.refused = {}
        self.unanswered = 0
        self.unexpected = []

    def will_send(self, user, order):
        with self.lock:
            self.sent[user].add(tuple(order))

    def ack(self, user, revision, order):
        with self.lock:
            self.acknowledged["order"] += 1
            self.acked_revision[user] = max(self.acked_revision[user], revision)
            if revision > self.acked_order[user][0]:
                self.acked_order[user] = (revision, tuple(order))

    def new_name(self):
        with self.lock:
            self.names += 1
            return f"n{self.names}"

    def tab(self, user, name, state, revision=None):
        with self.lock:
            self.tabs[(user, name)] = state
            if state in ("opened", "closed") and revision:
                self.acknowledged["open" if state == "opened" else "close"] += 1
                self.acked_revision[user] = max(self.acked_revision[user], revision)

    def refused_write(self, method):
        with self.lock:
            self.refused[method] = self.refused.get(method, 0) + 1

    def put_open(self, user, name):
        """A tab known to be open, which a writer may close."""
        with self.lock:
            self.open_pool.append((user, name))

    def take_open(self, rng):
        """A tab known to be open, taken so that no other writer closes it too; None when there is none."""
        with self.lock:
            return self.open_pool.pop(rng.randrange(len(self.open_pool))) if self.open_pool else None

    def no_answer(self):
        with self.lock:
            self.unanswered += 1

    def unexpected_response(self, description):
        with self.lock:
            self.unexpected.append(description)


def user_path(user, resource):
    return f"/v1/clients/{CLIENT}/users/{user}/{resource}"


def revision_of(etag):
    """The revision an ETag `"r<revision>:<user>"` names."""
    return int(etag.strip('"').split(":", 1)[0][1:])


def writer(port, users, ledger, rng, stop):
    """Writes on one keep-alive connection until the server goes away or `stop` is set."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    try:
        while not stop.is_set():
            draw = rng.random()
            closing = ledger.take_open(rng) if draw < 0.20 else None
            if closing:
                user, name = closing
                method, path, body = "DELETE", user_path(user, f"dynamic-tabs/{name}"), None
                ledger.tab(user, name, "close sent")
            elif draw < 0.45:
                user, name = rng.choice(users), ledger.new_name()
                template = rng.choice(["document", "web"])
                parameters = {"docId": name} if template == "document" else {"url": f"https://example.com/{name}"}
                method, path = "POST", user_path(user, "dynamic-tabs")
                body = json.dumps({"template": template, "name": name, "parameters": parameters})
                ledger.tab(user, name, "open sent")
            else:
                user, name = rng.choice(users), None
                order = rng.sample(TAB_IDS, rng.randint(1, len(TAB_IDS)))
                ledger.will_send(user, order)
                method, path = "PUT", user_path(user, "tab-order")
                body = json.dumps({"order": order, "hidden": []})
            try:
                headers = {"Content-Type": "application/json"} if body else {}
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                payload = response.read()
            except (OSError, http.client.HTTPException):
                ledger.no_answer()
                return
            if response.status == 409:
                # The template's maxOpen, or writes of the same user kept coming first (8 attempts): not written.
                if method == "POST":
                    ledger.tab(user, name, "refused")
                elif method == "DELETE":
                    ledger.tab(user, name, "opened", 0)
                    ledger.put_open(user, name)
                ledger.refused_write(method)
            elif method == "POST" and response.status == 201:
                ledger.tab(user, name, "opened", int(json.loads(payload)["revision"]))
                ledger.put_open(user, name)
            elif method == "DELETE" and response.status == 204:
                ledger.tab(user, name, "closed", revision_of(response.getheader("ETag")))
            elif method == "PUT" and response.status == 200:
                document = json.loads(payload)
                if document.get("order") != order:
                    ledger.unexpected_response(f"PUT {user}: sent {order}, answered {document.get('order')}")
                ledger.ack(user, int(document["revision"]), order)
            else:
                ledger.unexpected_response(f"{method} {path}: {response.status} {payload[:200]!r}")
    finally:
        connection.close()


def get_json(connection, path):
    connection.request("GET", path)
    response = connection.getresponse()
    payload = response.read()
    if response.status != 200:
        raise RuntimeError(f"GET {path}: {response.status} {payload[:200]!r}")
    return json.loads(payload)


def verify(port, users, ledger):
    """Compares every user's stored customization with the ledger; returns (lost, problems) descriptions."""
    lost, problems = [], []
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    try:
        for user in users:
            try:
                order_document = get_json(connection, user_path(user, "tab-order"))
                tabs_document = get_json(connection, user_path(user, "dynamic-tabs"))
            except RuntimeError as error:
                problems.append(str(error))
                continue
            stored_revision, stored_order = int(order_document["revision"]), tuple(order_document["order"])
            stored_tabs = {tab["name"] for tab in tabs_document["dynamicTabs"]}
            if int(tabs_document["revision"]) != stored_revision:
                problems.append(f"{user}: tab order at revision {stored_revision}, open tabs at "
                                f"{tabs_document['revision']}")
            with ledger.lock:
                acked_revision = ledger.acked_revision[user]
                order_revision, acked_order = ledger.acked_order[user]
                sent = set(ledger.sent[user])
                tabs = {name: state for (owner, name), state in ledger.tabs.items() if owner == user}
            if stored_revision < acked_revision:
                lost.append(f"{user}: stored revision {stored_revision} < acknowledged {acked_revision}")
            elif stored_revision == order_revision and acked_order is not None and stored_order != acked_order:
                lost.append(f"{user}: revision {stored_revision} holds {list(stored_order)}, "
                            f"acknowledged {list(acked_order)}")
            elif stored_order and stored_order not in sent:
                problems.append(f"{user}: stored order {list(stored_order)} was never sent")
            for name, state in tabs.items():
                if state == "opened" and name not in stored_tabs:
                    lost.append(f"{user}: tab {name}, whose opening was acknowledged, is not open")
                elif state in ("closed", "refused") and name in stored_tabs:
                    what = "close was acknowledged" if state == "closed" else "opening was refused"
                    problems.append(f"{user}: tab {name} is open, but its {what}")
            for name in stored_tabs - set(tabs):
                problems.append(f"{user}: tab {name} is open but was never opened")
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
                print(f"  {cycles} cycles, {sum(ledger.acknowledged.values())} writes acknowledged", flush=True)
    finally:
        if temporary and not (lost or problems or failures):
            shutil.rmtree(data_dir, ignore_errors=True)

    elapsed = time.monotonic() - started
    print(f"cycles run: {cycles}")
    counts = ledger.acknowledged
    print(f"writes acknowledged: {sum(counts.values())} ({counts['order']} tab orders, {counts['open']} tabs "
          f"opened, {counts['close']} closed)")
    refused = ", ".join(f"{count} {method}" for method, count in sorted(ledger.refused.items())) or "none"
    print(f"writes answered 409 (maxOpen reached, or overtaken 8 times), nothing written: {refused}")
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
