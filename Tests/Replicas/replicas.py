#!/usr/bin/env python3
"""Several tabconfig replicas on one PostgreSQL database behind haproxy, under writes, races and faults.

    Tests/Replicas/replicas.py --binary PATH [--replicas 3] [--writers 8] [--duration 60] [--seed S]

Starts a PostgreSQL cluster of its own (scripts/postgres.sh), `--replicas` tabconfig processes on one database
(`--store`), and haproxy in front of them (round robin, health-checked on /readyz). Then, for `--duration` seconds:

- `--writers` writers PUT tab orders through haproxy, each on users of its own, with `If-Match` of the last
  revision it knows; after each acknowledged write the user's tab order is read from another replica (directly)
  until it shows that revision: the visibility lag. A third replica, when there is one, is asked at once with
  `If-None-Match` of the acknowledged ETag: it must never answer with an older revision (it reads through).
- a racer sends two PUTs with the same `If-Match` to two replicas at once, over and over: exactly one may win.
- a publisher publishes the config on the first replica every 3 s; every other replica's event stream must deliver
  each version: the delivery time.
- at a third of the run the last replica is SIGKILLed and started again 5 s later; at two thirds PostgreSQL is
  stopped for 3 s and started again (scripts/postgres.sh pause / resume).

Then a build manifest for iOS 5.1.9 is registered (without the `shop` tab's class) through one replica, replaced
(with it) through another and removed through a third: each time the next tab-bar answer of every replica must
follow within 5 s, the propagation time (and Android 5.1.9, which has no manifest, keeps `shop`).

At the end every acknowledged write is checked in the database and on every replica. Prints the figures; exits 1
if a write was lost, a race had two winners, an event was not delivered, a replica did not become healthy,
or a replica's tab bar did not follow a build manifest.
Python 3 standard library only (and haproxy and PostgreSQL 15 from Debian, which the README's test command installs).
"""

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLIENT = "ios-phone"
TAB_IDS = ["home", "search", "library", "favorites", "profile", "settings", "downloads"]
TOKEN = "replicas-admin"
PSQL = "/usr/lib/postgresql/15/bin/psql"
TIMEOUT = 10.0
BUILD_CLIENT = "builds-replicas"
BUILD_TABS = [("home", "HomeViewController"), ("library", "LibraryViewController"), ("shop", "ShopViewController"),
              ("profile", "ProfileViewController")]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def request(port, method, path, body=None, headers=None, timeout=TIMEOUT):
    """One request on a new connection: (status, headers, body bytes); raises OSError on connection failures."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


class Replica:
    """One `tabconfig serve --store URL` child on a fixed port; its standard error is kept."""

    def __init__(self, name, binary, store_url, port, seed_sample):
        self.name, self.binary, self.store_url, self.port = name, binary, store_url, port
        self.data_dir = tempfile.mkdtemp(prefix=f"tabconfig-{name}-")
        self.seed_sample = seed_sample
        self.lines = []
        self.process = None

    def start(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("TABCONFIG_")}
        env.update(TABCONFIG_ADMIN_TOKEN=TOKEN, TABCONFIG_ACCESS_LOG="false")
        arguments = [self.binary, "serve", "--port", str(self.port), "--data-dir", self.data_dir,
                     "--store", self.store_url]
        if not self.seed_sample:
            arguments.append("--no-sample")
        self.process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, env=env)
        threading.Thread(target=self._read, args=(self.process,), daemon=True).start()

    def _read(self, process):
        for raw in process.stderr:
            self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def ready(self):
        try:
            return request(self.port, "GET", "/readyz", timeout=2)[0] == 200
        except OSError:
            return False

    def wait_ready(self, limit=30.0):
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            if self.ready():
                return True
            time.sleep(0.05)
        return False

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        return None


class Record:
    """Everything measured, shared by the threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.acked = {}          # user -> (revision, order)
        self.acknowledged = 0
        self.lags = []           # (acknowledged at, seconds until visible on another replica)
        self.not_visible = []    # acknowledgement times of writes another replica did not show within 5 s
        self.failures = []       # (monotonic time, description) of requests that failed
        self.races = 0
        self.double_winners = 0
        self.inconclusive_races = 0
        self.published = {}      # version -> monotonic time of the acknowledgement
        self.deliveries = {}     # (replica name, version) -> monotonic time the event arrived
        self.unexpected = []
        self.etag_reads = 0
        self.etag_older = []     # (acknowledged at, description) of ETag reads answered with an older revision
        self.etag_unavailable = 0  # ETag reads answered 503: the replica could not read through
        self.refusals = []       # monotonic times of 412s answered to writers (each writer owns its users)

    def fail(self, started, description):
        """A request sent at `started` (monotonic) failed: counted in the window it was sent in."""
        with self.lock:
            self.failures.append((started, description))


def tab_order(user):
    return f"/v1/clients/{CLIENT}/users/{user}/tab-order"


def current_revision(port, user):
    status, _, body = request(port, "GET", tab_order(user))
    return int(json.loads(body)["revision"]) if status == 200 else None


def writer(index, front, replicas, record, rng, stop):
    users = [f"w{index}-u{n}" for n in range(4)]
    known = {user: 0 for user in users}
    connection = None
    while not stop.is_set():
        user = rng.choice(users)
        order = rng.sample(TAB_IDS, rng.randint(1, len(TAB_IDS)))
        headers = {"Content-Type": "application/json", "If-Match": f"\"r{known[user]}:{user}\""}
        started = time.monotonic()
        try:
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", front, timeout=TIMEOUT)
            connection.request("PUT", tab_order(user), body=json.dumps({"order": order, "hidden": []}),
                               headers=headers)
            response = connection.getresponse()
            body = response.read()
            served_by = response.getheader("X-Replica")
        except (OSError, http.client.HTTPException) as error:
            record.fail(started, f"PUT {user}: {error!r}")
            connection = None
            known[user] = refetch(front, user, known[user])
            time.sleep(0.05)
            continue
        if response.status == 412:
            with record.lock:
                record.refusals.append(started)
            known[user] = refetch(front, user, known[user])
            continue
        if response.status != 200:
            record.fail(started, f"PUT {user}: {response.status}")
            known[user] = refetch(front, user, known[user])
            time.sleep(0.05)
            continue
        revision = int(json.loads(body)["revision"])
        acknowledged = time.monotonic()
        known[user] = revision
        with record.lock:
            record.acknowledged += 1
            record.acked[user] = (revision, order)
        observe_lag(user, revision, served_by, acknowledged, replicas, record, rng)
    if connection is not None:
        connection.close()


def refetch(front, user, fallback):
    try:
        revision = current_revision(front, user)
        return fallback if revision is None else revision
    except OSError:
        return fallback


def observe_lag(user, revision, served_by, acknowledged, replicas, record, rng):
    """Reads the user's tab order from a live replica other than the one that answered until it shows `revision`."""
    others = [r for r in replicas if r.name != served_by and r.process.poll() is None]
    if not others:
        return
    rng.shuffle(others)
    if len(others) > 1:
        check_etag_read(others.pop(), user, revision, acknowledged, record)
    replica = others[0]
    deadline = acknowledged + 5.0
    while time.monotonic() < deadline:
        try:
            shown = current_revision(replica.port, user)
        except OSError:
            return  # the replica went away (the SIGKILL): nothing to measure
        if shown is not None and shown >= revision:
            with record.lock:
                record.lags.append((acknowledged, time.monotonic() - acknowledged))
            return
        time.sleep(0.002)
    with record.lock:
        record.not_visible.append(acknowledged)


def check_etag_read(replica, user, revision, acknowledged, record):
    """Revalidates the user's tab order on `replica` with the ETag of the write just acknowledged: a 304 of that
    ETag, or a newer revision, never an older one."""
    tag = f"\"r{revision}:{user}\""
    try:
        status, headers, body = request(replica.port, "GET", tab_order(user), headers={"If-None-Match": tag})
    except OSError:
        return  # the replica went away (the SIGKILL)
    shown = headers.get("ETag")
    if status == 503:
        # A replica that cannot read through (the database away) says so rather than answer older.
        with record.lock:
            record.etag_unavailable += 1
        return
    if status == 200:
        older = int(json.loads(body)["revision"]) < revision
    else:
        older = status != 304 or shown != tag
    with record.lock:
        record.etag_reads += 1
        if older:
            record.etag_older.append((acknowledged, f"{replica.name} answered {status} {shown} to If-None-Match {tag}"))


def racer(replicas, record, stop):
    """Two PUTs with the same If-Match on two replicas at once; exactly one may win."""
    user = "race-user"
    round_number = 0
    while not stop.is_set():
        round_number += 1
        live = [r for r in replicas if r.process.poll() is None]
        if len(live) < 2:
            time.sleep(0.1)
            continue
        pair = live[round_number % len(live)], live[(round_number + 1) % len(live)]
        try:
            revision = current_revision(pair[0].port, user) or 0
        except OSError:
            time.sleep(0.1)
            continue
        statuses = [None, None]
        barrier = threading.Barrier(2)

        def put(slot, replica):
            body = json.dumps({"order": [TAB_IDS[slot]], "hidden": []})
            headers = {"Content-Type": "application/json", "If-Match": f"\"r{revision}:{user}\""}
            try:
                barrier.wait(2)
                statuses[slot] = request(replica.port, "PUT", tab_order(user), body, headers)[0]
            except (OSError, threading.BrokenBarrierError):
                statuses[slot] = -1

        threads = [threading.Thread(target=put, args=(slot, replica)) for slot, replica in enumerate(pair)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with record.lock:
            if statuses.count(200) == 2:
                record.double_winners += 1
            elif sorted(statuses) == [200, 412]:
                record.races += 1
            else:
                record.inconclusive_races += 1
        time.sleep(0.02)


def subscriber(replica, record, stop):
    """Follows one replica's event stream, reconnecting, and notes when each version arrives."""
    while not stop.is_set():
        try:
            connection = http.client.HTTPConnection("127.0.0.1", replica.port, timeout=2)
            connection.request("GET", f"/v1/clients/{CLIENT}/tabs/events", headers={"Accept": "text/event-stream"})
            response = connection.getresponse()
            while not stop.is_set():
                line = response.fp.readline()
                if not line:
                    break
                match = re.match(rb'data: \{.*"version":(\d+)', line)
                if match:
                    version = int(match.group(1))
                    with record.lock:
                        record.deliveries.setdefault((replica.name, version), time.monotonic())
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(0.1)


def publisher(replica, record, stop):
    while not stop.wait(3.0):
        started = time.monotonic()
        try:
            status, _, body = request(replica.port, "GET", f"/v1/clients/{CLIENT}/config",
                                      headers={"Authorization": f"Bearer {TOKEN}"})
            if status != 200:
                record.fail(started, f"GET config: {status}")
                continue
            document = json.dumps(json.loads(body)["config"])
            status, _, body = request(replica.port, "PUT", f"/v1/clients/{CLIENT}/config", document,
                                      {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
            if status == 201:
                with record.lock:
                    record.published[int(json.loads(body)["version"])] = time.monotonic()
            else:
                record.fail(started, f"publish: {status}")
        except OSError as error:
            record.fail(started, f"publish: {error!r}")


def build_tab_ids(port, platform):
    """The tab ids `port` answers for `BUILD_CLIENT` on `platform` 5.1.9, or a description of what it answered."""
    path = f"/v1/clients/{BUILD_CLIENT}/tabs?platform={platform}&appVersion=5.1.9"
    try:
        status, _, body = request(port, "GET", path)
    except OSError as error:
        return repr(error)
    return [tab["id"] for tab in json.loads(body)["tabs"]] if status == 200 else f"status {status}"


def build_manifest_status(port):
    """The status `port` answers to `GET` of `BUILD_CLIENT`'s iOS 5.1.9 manifest (404: none registered), or a
    description of the error."""
    try:
        return request(port, "GET", f"/v1/clients/{BUILD_CLIENT}/builds/ios/5.1.9",
                       headers={"Authorization": f"Bearer {TOKEN}"})[0]
    except OSError as error:
        return repr(error)


def await_every(replicas, read, want, since, limit=5.0):
    """Calls `read(replica)` on every replica at once, each until it returns `want` or `limit` seconds after `since`
    (monotonic) have passed: replica name -> (seconds from `since`, or None, and the last answer)."""
    results = {}

    def follow(replica):
        while True:
            shown = read(replica)
            now = time.monotonic()
            if shown == want:
                results[replica.name] = (now - since, shown)
                return
            if now >= since + limit:
                results[replica.name] = (None, shown)
                return
            time.sleep(0.002)

    threads = [threading.Thread(target=follow, args=(replica,)) for replica in replicas]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def check_build_manifests(replicas, problems):
    """A build manifest registered through one replica changes the next tab-bar answer of every replica.

    Publishes `BUILD_CLIENT` (the `shop` tab opens `ShopViewController`) through the first replica; registers an iOS
    5.1.9 manifest with every class but that one through the first replica, replaces it with one that has it through
    the second, and removes it through the third. After each, every replica is read at once, directly, until it
    answers what follows (within 5 s: the PostgreSQL notice): the tab bar without `shop`, with it, and with it and
    no manifest (a `GET` of it answers 404). Prints one line per step with the times and appends what went wrong to
    `problems`."""
    every = [tab for tab, _ in BUILD_TABS]
    without_shop = [tab for tab in every if tab != "shop"]
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    document = {"tabs": [{"id": tab, "title": {"default": tab.capitalize()},
                          "destination": {"type": "viewController", "name": name}} for tab, name in BUILD_TABS]}
    ios_tabs = lambda replica: build_tab_ids(replica.port, "ios")
    try:
        status, _, body = request(replicas[0].port, "PUT", f"/v1/clients/{BUILD_CLIENT}/config",
                                  json.dumps(document), headers)
    except OSError as error:
        problems.append(f"builds: publishing {BUILD_CLIENT} on {replicas[0].name}: {error!r}")
        return
    if status not in (200, 201):
        problems.append(f"builds: publishing {BUILD_CLIENT} on {replicas[0].name}: {status} {body[:200]!r}")
        return
    results = await_every(replicas, ios_tabs, every, time.monotonic())
    late = [f"{name} answered {shown}" for name, (seconds, shown) in sorted(results.items()) if seconds is None]
    if late:
        problems.append(f"builds: the config of {BUILD_CLIENT} did not reach every replica within 5 s: "
                        + "; ".join(late))
        return

    path = f"/v1/clients/{BUILD_CLIENT}/builds/ios/5.1.9"
    classes = [name for tab, name in BUILD_TABS if tab != "shop"]
    steps = [
        ("registered without ShopViewController", replicas[0], "PUT",
         {"buildNumber": "5190", "viewControllers": classes}, 201, ios_tabs, without_shop, "shop left out"),
        ("replaced with ShopViewController", replicas[1 % len(replicas)], "PUT",
         {"buildNumber": "5190", "viewControllers": classes + ["ShopViewController"]}, 200, ios_tabs, every,
         "shop back"),
        ("removed", replicas[2 % len(replicas)], "DELETE", None, 204,
         lambda replica: (build_manifest_status(replica.port), build_tab_ids(replica.port, "ios")), (404, every),
         "manifest gone (404) and shop served"),
    ]
    for label, through, method, manifest, expected, read, want, outcome in steps:
        try:
            status, _, body = request(through.port, method, path,
                                      None if manifest is None else json.dumps(manifest), headers)
        except OSError as error:
            problems.append(f"builds: {method} ios 5.1.9 on {through.name}: {error!r}")
            return
        returned = time.monotonic()
        if status != expected:
            problems.append(f"builds: {method} ios 5.1.9 on {through.name}: {status}, expected {expected}: "
                            f"{body[:200]!r}")
            return
        results = await_every(replicas, read, want, returned)
        times = ", ".join(f"{name} {seconds * 1000:.1f} ms" if seconds is not None else f"{name} not within 5 s"
                          for name, (seconds, _) in sorted(results.items()))
        print(f"build manifest ios 5.1.9 {label} through {through.name} ({status}): {outcome} on {times}", flush=True)
        problems += [f"builds: after the manifest was {label} through {through.name}, {name} still answered "
                     f"{shown} for ios 5.1.9 5 s later, expected {want}"
                     for name, (seconds, shown) in sorted(results.items()) if seconds is None]
        if want == without_shop:
            android = {replica.name: build_tab_ids(replica.port, "android") for replica in replicas}
            print("android 5.1.9 (no manifest) at once: "
                  + ", ".join(f"{name} {'shop served' if shown == every else shown}"
                              for name, shown in sorted(android.items())), flush=True)
            problems += [f"builds: {name} answered {shown} for android 5.1.9 (no manifest), expected {every}"
                         for name, shown in sorted(android.items()) if shown != every]


def haproxy_config(front, replicas):
    servers = "\n".join(f"    server {r.name} 127.0.0.1:{r.port} check" for r in replicas)
    return f"""global
    maxconn 4096
defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    retries 2
    option redispatch
frontend front
    bind 127.0.0.1:{front}
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 300ms fall 2 rise 2
    http-response set-header X-Replica %[srv_name]
{servers}
"""


def psql(url, statement):
    return subprocess.run([PSQL, url, "-Atqc", statement], check=True, capture_output=True, text=True).stdout.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--replicas", type=int, default=3)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else int(time.time() * 1000) % 1_000_000_007
    rng = random.Random(seed)

    cluster = tempfile.mkdtemp(prefix="tabconfig-replicas-pg-")
    os.rmdir(cluster)
    started = subprocess.run(["bash", os.path.join(ROOT, "scripts/postgres.sh"), "start", cluster,
                              "--stop-with", str(os.getpid())], check=True, capture_output=True, text=True)
    cluster_url = started.stdout.strip().splitlines()[-1]
    psql(cluster_url, "CREATE DATABASE replicas")
    database_url = cluster_url.rsplit("/", 1)[0] + "/replicas"
    store_url = database_url + "?sslmode=disable"
    replicas = [Replica(f"r{n + 1}", args.binary, store_url, free_port(), n == 0) for n in range(args.replicas)]
    front = free_port()
    config_path = os.path.join(cluster + "-haproxy.cfg")
    with open(config_path, "w") as handle:
        handle.write(haproxy_config(front, replicas))
    haproxy = None
    record = Record()
    problems = []
    print(f"seed {seed}; PostgreSQL {cluster_url}; {args.replicas} replicas on ports "
          f"{', '.join(str(r.port) for r in replicas)}; haproxy on {front}; {args.writers} writers for "
          f"{args.duration:.0f} s", flush=True)
    try:
        for replica in replicas:
            replica.start()
            if not replica.wait_ready():
                raise SystemExit(f"{replica.name} did not become ready:\n" + "\n".join(replica.lines[-20:]))
        haproxy = subprocess.Popen(["haproxy", "-f", config_path, "-db"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if request(front, "GET", "/readyz", timeout=1)[0] == 200:
                    break
            except OSError:
                time.sleep(0.05)

        stop = threading.Event()
        threads = [threading.Thread(target=writer, args=(n, front, replicas, record, random.Random(rng.random()), stop))
                   for n in range(args.writers)]
        threads.append(threading.Thread(target=racer, args=(replicas, record, stop)))
        threads += [threading.Thread(target=subscriber, args=(r, record, stop), daemon=True) for r in replicas[1:]]
        threads.append(threading.Thread(target=publisher, args=(replicas[0], record, stop)))
        for thread in threads:
            thread.start()
        begin = time.monotonic()

        # A replica dies (SIGKILL) and comes back.
        time.sleep(max(0.0, begin + args.duration / 3 - time.monotonic()))
        victim = replicas[-1]
        killed_at = time.monotonic()
        victim.kill()
        time.sleep(5)
        victim.start()
        victim_ready = victim.wait_ready()
        replica_window = (killed_at, time.monotonic())
        if not victim_ready:
            problems.append(f"{victim.name} did not become ready after its restart")

        # PostgreSQL stops for 3 s and starts again.
        time.sleep(max(0.0, begin + 2 * args.duration / 3 - time.monotonic()))
        paused_at = time.monotonic()
        subprocess.run(["bash", os.path.join(ROOT, "scripts/postgres.sh"), "pause", cluster], check=True)
        time.sleep(3)
        subprocess.run(["bash", os.path.join(ROOT, "scripts/postgres.sh"), "resume", cluster], check=True)
        resumed_at = time.monotonic()
        healthy_at = None
        while time.monotonic() < resumed_at + 30:
            if all(r.ready() for r in replicas):
                healthy_at = time.monotonic()
                break
            time.sleep(0.05)
        if healthy_at is None:
            problems.append("the replicas were not all ready within 30 s after PostgreSQL came back")
        database_window = (paused_at, healthy_at or time.monotonic())

        time.sleep(max(0.0, begin + args.duration - time.monotonic()))
        stop.set()
        for thread in threads:
            if not thread.daemon:
                thread.join(30)
        time.sleep(2)  # the last events and notices

        # After the faults: a build manifest changed through one replica reaches every replica's tab bar.
        check_build_manifests(replicas, problems)

        # Every acknowledged write, in the database and on every replica.
        lost = []
        stored = {}
        for line in psql(database_url, "SELECT user_id, revision, value::text FROM tabconfig_customizations "
                                       "WHERE user_id LIKE 'w%'").splitlines():
            user, revision, value = line.split("|", 2)
            stored[user] = (int(revision), json.loads(value)["order"] if value else None)
        for user, (revision, order) in record.acked.items():
            have = stored.get(user, (0, None))
            if have[0] < revision or (have[0] == revision and have[1] != order):
                lost.append(f"{user}: acknowledged r{revision} {order}, stored r{have[0]} {have[1]}")
            for replica in replicas:
                shown = current_revision(replica.port, user)
                if shown != have[0]:
                    problems.append(f"{replica.name} shows {user} at r{shown}, the database at r{have[0]}")
        missing = [(r.name, version) for version in record.published for r in replicas[1:]
                   if (r.name, version) not in record.deliveries
                   and not (r is victim and replica_window[0] <= record.published[version] <= replica_window[1])]
        # Visibility and delivery are measured while the database is up: a write acknowledged within 5 s before
        # the outage, or during it, reaches the other replicas when they listen again.
        # Likewise a publish while the killed replica was away reaches it when its stream reconnects.
        def calm(moment, replica=None):
            if replica is victim and replica_window[0] <= moment <= replica_window[1] + 2:
                return False
            return not (database_window[0] - 5 <= moment <= database_window[1])
        delays = [record.deliveries[(r.name, v)] - t for v, t in record.published.items() for r in replicas[1:]
                  if (r.name, v) in record.deliveries and calm(t, r)]
        lags = [lag for moment, lag in record.lags if calm(moment)]
        not_visible = [moment for moment in record.not_visible if calm(moment)]
        # A request counts against a fault when it was sent from 1 s before it began to 2 s after it ended.
        def during(moment, window):
            return window[0] - 1 <= moment <= window[1] + 2
        in_window = lambda window: sum(1 for t, _ in record.failures if during(t, window))

        print(f"writes acknowledged: {record.acknowledged}, lost: {len(lost)}")
        print(f"races: {record.races} with one winner, {record.double_winners} with two, "
              f"{record.inconclusive_races} inconclusive (a replica or the database away)")
        print(f"visibility lag on another replica (database up): p50 {percentile(lags, 0.5) * 1000:.1f} ms, "
              f"p99 {percentile(lags, 0.99) * 1000:.1f} ms, max {max(lags, default=0) * 1000:.1f} ms over "
              f"{len(lags)} writes; not visible within 5 s: {len(not_visible)} "
              f"(around the outage: {len(record.lags) - len(lags)} measured, max "
              f"{max((lag for _, lag in record.lags), default=0) * 1000:.0f} ms)")
        print(f"FIGURE replica_lag_p99_ms {percentile(lags, 0.99) * 1000:.1f} ms")
        print(f"event-stream delivery to the other replicas (database up): {len(delays)} deliveries, "
              f"p50 {percentile(delays, 0.5) * 1000:.1f} ms, p99 {percentile(delays, 0.99) * 1000:.1f} ms, max "
              f"{max(delays, default=0) * 1000:.1f} ms; {len(record.published)} publishes, missing deliveries: "
              f"{len(missing)}")
        print(f"faults: {victim.name} killed at {replica_window[0] - begin:.1f} s, ready again at "
              f"{replica_window[1] - begin:.1f} s; PostgreSQL stopped at {database_window[0] - begin:.1f} s, every "
              f"replica ready at {database_window[1] - begin:.1f} s")
        print(f"requests failed while {victim.name} was killed and restarted "
              f"({replica_window[1] - replica_window[0]:.1f} s): {in_window(replica_window)}")
        print(f"requests failed while PostgreSQL was stopped and until every replica was ready "
              f"({database_window[1] - database_window[0]:.1f} s): {in_window(database_window)}")
        if healthy_at is not None:
            print(f"time to healthy after PostgreSQL came back: {(healthy_at - resumed_at) * 1000:.0f} ms")
        outside = [f"{d} (sent at {t - begin:.2f} s)" for t, d in record.failures
                   if not (during(t, replica_window) or during(t, database_window))]
        print(f"requests failed outside the two faults: {len(outside)}")
        # While the database is away a replica cannot read through: it answers 503, never older, outage or not.
        etag_older = [d for t, d in record.etag_older]
        print(f"If-None-Match reads of an acknowledged write on a third replica: {record.etag_reads}, answered with "
              f"an older revision: {len(etag_older)}, answered 503 (the database away): {record.etag_unavailable}")
        refusals = [t for t in record.refusals if not (during(t, replica_window) or during(t, database_window))]
        print(f"412 answered to writers' If-Match (each writer owns its users): {len(record.refusals)}, outside the "
              f"two faults: {len(refusals)}")
        problems += lost + [f"a race had two winners"] * record.double_winners
        problems += [f"{name} never delivered version {version}" for name, version in missing]
        problems += [f"failed outside the faults: {d}" for d in outside[:10]]
        problems += etag_older[:10]
        if not_visible:
            problems.append(f"{len(not_visible)} acknowledged writes were not visible on another replica within 5 s")
        if lags and percentile(lags, 0.99) > 1.0:
            problems.append("the p99 visibility lag on another replica is over 1 s")
    finally:
        for replica in replicas:
            replica.stop()
            shutil.rmtree(replica.data_dir, ignore_errors=True)
        if haproxy is not None:
            haproxy.terminate()
            haproxy.wait(10)
        subprocess.run(["bash", os.path.join(ROOT, "scripts/postgres.sh"), "stop", cluster], check=False)
        if os.path.exists(config_path):
            os.remove(config_path)
    if problems:
        print("FAILED:\n  " + "\n  ".join(problems[:40]))
        for replica in replicas:
            notable = [line for line in replica.lines if re.search(r" (notice|warning|error|critical) ", line)]
            print(f"{replica.name}: the last of {len(notable)} notable log lines:\n    " + "\n    ".join(notable[-12:]))
        return 1
    print("replicas: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
