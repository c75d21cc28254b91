#!/usr/bin/env python3
"""Replica scenarios of the benchmark suite, on one PostgreSQL 15 cluster of the project's own (scripts/postgres.sh:
fsync and synchronous_commit on, as in production):
  put-replicas  PUT tab-order at 64 connections (Benchmarks/put-tab-order.lua) through haproxy (round robin) to two
                release tabconfig replicas on one database, against pgbench's equivalent upsert
                (Benchmarks/pgbench-upsert.sql) at 64 clients on the same cluster: what the service adds to the
                database's own write.
  put-floor     the same requests through the same haproxy and replicas to a path no route takes (answered 404
                once the body is read): what a PUT costs before any handler or the store runs. The program then
                prints the CPU a save may take at the target's ratio to pgbench beside what this floor and
                PostgreSQL already take.
  get-user-pg   GET of a user's tab bar at 64 connections from tabconfig on the PostgreSQL store (a warm cache:
                served from memory) against tabconfig on the file store holding the same tab order; BENCH_ROUNDS
                rounds alternating the two (default 3), the median run reported.
  migrate       BenchmarkSeeder writes BENCH_MIGRATE_COUNT customizations (default 1,000,000) into a file store;
                `tabconfig migrate-store` copies it into an empty database, timed, then again (writing nothing).
Prints a table, FIGURE lines (name value unit: what Benchmarks/scaling.py reads) and
  TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
for the two ratio targets (Benchmarks/Thresholds/replicas.txt) and for zero non-2xx responses and socket errors in
every run. Exits 1 if any is FAIL, or if a written tab order does not read back from both replicas. What it prints
is also written to Benchmarks/results/replicas/<UTC date>-<commit>.md (Benchmarks/harness.py, results_start).

    Benchmarks/replicas.py      (usually run by Benchmarks/run.py, which builds tabconfig once for every scenario)

Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_DURATION (seconds
per measured run, default 10), BENCH_ROUNDS, BENCH_MIGRATE_COUNT. PostgreSQL runs as the `postgres` user when this
runs as root (scripts/postgres.sh).
"""

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from harness import (CONNECTIONS, WARMUP, Server, cpu_per_request, cpu_ticks, disk_of, env_int, figure, finish,
                     free_port, get, install_missing, mark_failed, median_run, missing, pgbench_upsert, print_machine,
                     process_tree, psql, put_unexpected, ratio, release_binary, results_start, send_json, spawn,
                     start_postgres, stop, succeeded, swift_product, target, threshold, tool_path, wait_ready,
                     workdir, wrk, wrk_error_lines, wrk_errors, wrk_percentile, wrk_requests, wrk_rps, wrk_summary)

DURATION = env_int("BENCH_DURATION", 10)
ROUNDS = env_int("BENCH_ROUNDS", 3)
MIGRATE_COUNT = env_int("BENCH_MIGRATE_COUNT", 1000000)
USER_PATH = "/v1/clients/ios-phone/users/bench/tabs?locale=en"
# The bodies the wrk script sends: user u<N> always gets number N % 4.
EXPECTED_ORDERS = [
    ["home", "search", "favorites", "library", "downloads", "profile", "settings"],
    ["home", "profile", "favorites", "search"],
    ["home", "library", "search", "downloads", "profile"],
    ["home", "favorites", "profile", "search", "library", "settings"],
]
HAPROXY_CONFIG = """global
    nbthread 1
defaults
    mode http
    timeout connect 3s
    timeout client 30s
    timeout server 30s
frontend front
    bind 127.0.0.1:{front}
    default_backend replicas
backend replicas
    balance roundrobin
    server r1 127.0.0.1:{r1}
    server r2 127.0.0.1:{r2}
"""

ROWS = {}       # name: {"rps", "p50", "p99"} (and "runs" for a median of rounds)
CPU_TOTAL = {}  # name: the CPU per request of every measured process together, microseconds
CPU_PART = {}   # (name, group): that of one group of processes


def cpu_readings(groups):
    """One cpu_ticks reading per group (each pid with the processes below it), then this program's own: wrk is
    among the children it waited for during the run."""
    return [cpu_ticks([pid for top in pids for pid in process_tree(top)]) for _, pids in groups] + \
        [cpu_ticks([os.getpid()])]


def wrk_run(name, url, *options, groups=(), expected_status=None, env=None):
    """A warm-up, then the measured run; records its row and the error target. GROUPS: (name, pids) of the
    processes whose CPU per request it prints, wrk always one of them. With EXPECTED_STATUS (put-tab-order.lua's
    answer that is no error), the errors are wrk's socket errors and the script's count of other answers."""
    wrk(url, WARMUP, *options, latency=False, env=env)
    before = cpu_readings(groups)
    output = wrk(url, DURATION, *options, env=env)
    after = cpu_readings(groups)
    if groups:
        requests = wrk_requests(output)
        names = [group for group, _ in groups] + ["wrk"]
        cpus = [cpu_per_request(b, a, requests) for b, a in zip(before, after)]
        # Each group's user + system, then theirs all together as "all".
        sums = [sum(float(part) for part in cpu if part != "n/a") for cpu in cpus]
        for group, total in zip(names, sums):
            CPU_PART[(name, group)] = f"{total:.1f}"
        CPU_TOTAL[name] = f"{sum(sums):.1f}"
        listed = ", ".join(f"{group} {'+'.join(cpu)}" for group, cpu in zip(names, cpus))
        print(f"{name}: CPU per request (user + system microseconds): {listed}; all {CPU_TOTAL[name]}")
    ROWS[name] = {"rps": wrk_rps(output), "p50": wrk_percentile(output, 50), "p99": wrk_percentile(output, 99)}
    if not ROWS[name]["rps"]:
        print(output.rstrip("\n"), file=sys.stderr)
        ROWS[name]["rps"] = "0"
    print(f"{name}: {wrk_summary(output)}")
    if expected_status:
        unexpected = put_unexpected(output)
        for line in wrk_error_lines(output, also=["first response other than"]):
            if "Non-2xx" not in line:
                print(line, file=sys.stderr)
        errors = (1 if unexpected is None else unexpected) + wrk_errors(output, non_2xx=False)
    else:
        for line in wrk_error_lines(output, also=["first response other than"]):
            print(line, file=sys.stderr)
        errors = wrk_errors(output)
    target(f"errors/{name}", errors, "==", 0)


class Cluster:
    """The PostgreSQL cluster and tabconfig replicas on it."""

    def __init__(self, work, binary):
        self.work, self.binary = work, binary
        self.url = start_postgres(work)
        self.running = []

    def database(self, name):
        """Creates database NAME; its URL."""
        psql(self.url, f"CREATE DATABASE {name}")
        return f"{self.url.removesuffix('/postgres')}/{name}?sslmode=disable"

    def serve(self, name, **env):
        """Starts tabconfig on WORK/NAME."""
        server = Server(self.binary, self.work / name, TABCONFIG_ADMIN_TOKEN="bench", TABCONFIG_ACCESS_LOG="false",
                        **env)
        self.running.append(server.process)
        return server

    def stop_all(self):
        for process in self.running:
            stop(process)
        self.running = []


def put_replicas(cluster):
    """pgbench's upsert, then two replicas behind haproxy, on the same cluster; returns the database's bytes per
    stored tab order."""
    print()
    print(f"=== put-replicas: pgbench -n -c {CONNECTIONS} -j 2 -M prepared -f Benchmarks/pgbench-upsert.sql, then "
          f"wrk -t1 -c{CONNECTIONS} -s Benchmarks/put-tab-order.lua through haproxy to two replicas")
    postmaster = int((cluster.work / "postgres/data/postmaster.pid").read_text().splitlines()[0])
    pgbench = pgbench_upsert("pgbench", cluster.database("pgbench"), cluster.work, DURATION, postmaster)
    ROWS["pgbench"] = pgbench
    CPU_TOTAL["pgbench"] = pgbench["cpu_total"]

    store_url = cluster.database("replicas")
    replicas = [cluster.serve("r1", TABCONFIG_STORE_URL=store_url),
                cluster.serve("r2", TABCONFIG_STORE_URL=store_url, TABCONFIG_SEED_SAMPLE="false")]
    front = free_port()
    config = cluster.work / "haproxy.cfg"
    config.write_text(HAPROXY_CONFIG.format(front=front, r1=replicas[0].port, r2=replicas[1].port))
    haproxy = spawn([tool_path("haproxy"), "-db", "-f", config], log=cluster.work / "haproxy.log")
    cluster.running.append(haproxy)
    wait_ready(f"http://127.0.0.1:{front}/readyz", tries=100)
    groups = [("replicas", [replica.pid for replica in replicas]), ("haproxy", [haproxy.pid]),
              ("postgres", [postmaster])]
    wrk_run("put-replicas", f"http://127.0.0.1:{front}", "-s", "Benchmarks/put-tab-order.lua", groups=groups)
    # put-floor: the same requests to a path no route takes, answered 404 after the body is read: what wrk, haproxy
    # and a replica spend on a PUT before any handler or the store runs.
    wrk_run("put-floor", f"http://127.0.0.1:{front}", "-s", "Benchmarks/put-tab-order.lua", groups=groups,
            expected_status="404", env={"PUT_RESOURCE": "no-such-resource", "PUT_EXPECTED_STATUS": "404"})
    for user in (1, 2, 3):
        for replica in replicas:
            answer = get(f"{replica.base}/v1/clients/ios-phone/users/u{user}/tab-order")
            order = json.loads(answer.body).get("order") if answer.status == 200 else None
            if order != EXPECTED_ORDERS[user % 4]:
                shown = json.dumps(order, separators=(",", ":")) if order else ""
                print(f"replicas: u{user} on port {replica.port} shows '{shown}', written "
                      f"{json.dumps(EXPECTED_ORDERS[user % 4], separators=(',', ':'))}", file=sys.stderr)
                mark_failed()
    written = psql(store_url, "SELECT count(*) || ' rows, revisions summing to ' || sum(revision) "
                              "FROM tabconfig_customizations")
    print(f"put-replicas: the database holds {written}; u1…u3 read back from both replicas")
    customization_bytes = psql(store_url, "SELECT round(pg_total_relation_size('tabconfig_customizations')::numeric "
                                          "/ greatest(count(*), 1)) FROM tabconfig_customizations")
    cluster.stop_all()
    return customization_bytes


def median_of(name):
    """The run NAME-1 … NAME-ROUNDS with the median requests/s becomes NAME's row."""
    rows = [ROWS[f"{name}-{n}"] for n in range(1, ROUNDS + 1)]
    ROWS[name] = dict(rows[median_run([row["rps"] for row in rows])])
    ROWS[name]["runs"] = "".join(f"{row['rps']} " for row in rows)


def get_user_pg(cluster):
    """One tabconfig on each store, the same tab order, alternating rounds."""
    print()
    print(f"=== get-user-pg: wrk -t1 -c{CONNECTIONS} GET {USER_PATH}, PostgreSQL store and file store")
    bases = {"pg-store": cluster.serve("pg-store", TABCONFIG_STORE_URL=cluster.database("reads")).base,
             "file-store": cluster.serve("file-store").base}
    for server, base in bases.items():
        succeeded(send_json(f"{base}/v1/clients/ios-phone/users/bench/tab-order",
                           '{"order":["profile","favorites","search","home"],"hidden":["settings"]}'),
                  f"replicas: {server}: PUT tab-order")
    if get(f"{bases['pg-store']}{USER_PATH}").body != get(f"{bases['file-store']}{USER_PATH}").body:
        print("replicas: the two stores answer the user's tab bar differently", file=sys.stderr)
        mark_failed()
    for n in range(1, ROUNDS + 1):
        for server, base in bases.items():
            wrk_run(f"{server}-{n}", f"{base}{USER_PATH}")
    median_of("pg-store")
    median_of("file-store")
    cluster.stop_all()


def migrate(cluster, store, url):
    """Times `tabconfig migrate-store` from the file store STORE into the database at URL; the seconds and its
    report's last line."""
    started = time.monotonic()
    copied = subprocess.run([cluster.binary, "migrate-store", "--from", str(store), "--to", url],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if copied.returncode != 0:
        print(copied.stdout.rstrip("\n"), file=sys.stderr)
        mark_failed()
    lines = copied.stdout.rstrip("\n").splitlines()
    return f"{time.monotonic() - started:.1f}", lines[-1] if lines else ""


def rss_kb(pid):
    return next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                if line.startswith("VmRSS"))


def migration(cluster, seeder):
    """A seeded file store into an empty database, twice; then a replica's memory and startup on it. Returns the
    first run's seconds, the bytes of memory per customization and the seconds to start."""
    print()
    print(f"=== migrate: {MIGRATE_COUNT} customizations")
    cluster.serve("seeded")
    cluster.stop_all()
    store = cluster.work / "seeded/store"
    seeded = subprocess.run([seeder, str(store), "--count", str(MIGRATE_COUNT)], stdout=subprocess.PIPE, text=True)
    for line in seeded.stdout.splitlines():
        if not re.match(r"^  \d* written", line) and not line.startswith("sample"):
            print(line)
    migrate_url = cluster.database("migrated")
    first_seconds, first_report = migrate(cluster, store, migrate_url)
    print(f"migrate-store, first run: {first_seconds} s: {first_report}")
    second_seconds, second_report = migrate(cluster, store, migrate_url)
    print(f"migrate-store, second run: {second_seconds} s: {second_report}")
    if "written: 0 versions, 0 customizations" not in second_report:
        print("replicas: the second migrate-store wrote something", file=sys.stderr)
        mark_failed()

    # The PostgreSQL store keeps every customization in memory and reads them all at startup: its resident memory
    # with the migrated ones against an empty database, and its time to ready.
    empty_kb = rss_kb(cluster.serve("empty", TABCONFIG_STORE_URL=cluster.database("empty")).pid)
    started = time.monotonic()
    loaded = cluster.serve("loaded", TABCONFIG_STORE_URL=migrate_url, TABCONFIG_SEED_SAMPLE="false")
    ready_seconds = f"{time.monotonic() - started:.1f}"
    loaded_kb = rss_kb(loaded.pid)
    cache_bytes = f"{(loaded_kb - empty_kb) * 1024 / MIGRATE_COUNT:.0f}"
    print(f"PostgreSQL store with {MIGRATE_COUNT} customizations: ready in {ready_seconds} s, {loaded_kb // 1024} MB "
          f"resident ({empty_kb // 1024} MB with none): {cache_bytes} bytes per customization in memory")
    cluster.stop_all()
    return first_seconds, second_seconds, cache_bytes, ready_seconds


def report(customization_bytes, first_seconds, second_seconds, cache_bytes, ready_seconds):
    """The table, the CPU budget of a save, the figures and the targets."""
    def row(scenario, label, name, shown):
        values = ROWS[name]
        line = f"{scenario:<14} {label:<48} {values['rps']:>12} {values['p50']:>9} {values['p99']:>9} {shown:>10}"
        print(line + (f"  {values['runs']}" if "runs" in values else ""))

    print()
    print(f"{'scenario':<14} {'server':<48} {'req/s':>12} {'p50-ms':>9} {'p99-ms':>9} {'ratio':>10}")
    row("put-replicas", "tabconfig, 2 replicas on PostgreSQL, haproxy", "put-replicas",
        ratio(ROWS["put-replicas"]["rps"], ROWS["pgbench"]["rps"]))
    row("put-replicas", "PostgreSQL 15 upsert (pgbench)", "pgbench", "-")
    row("get-user-pg", "tabconfig on the PostgreSQL store", "pg-store",
        ratio(ROWS["pg-store"]["rps"], ROWS["file-store"]["rps"]))
    row("get-user-pg", "tabconfig on the file store", "file-store", "-")
    print(f"migrate: {MIGRATE_COUNT} customizations in {first_seconds} s, again in {second_seconds} s")
    # Both write runs keep the two cores busy, so the target's ratio R needs a save to cost at most pgbench's CPU per
    # upsert (its backends and its client) ÷ R, all processes together.
    required = (threshold("put-replicas/pgbench") or ("", ""))[1]
    pgbench, floor = float(CPU_TOTAL.get("pgbench", 0)), float(CPU_TOTAL.get("put-floor", 0))
    database = float(CPU_PART.get(("put-replicas", "postgres"), 0))
    save = float(CPU_TOTAL.get("put-replicas", 0))
    budget = pgbench / float(required) if required and float(required) > 0 else 0
    print(f"put-replicas budget: at {required} x pgbench a save may cost {budget:.1f} us of CPU in all (pgbench: "
          f"{pgbench:.1f} per upsert); a PUT answered 404 through haproxy (put-floor) costs {floor:.1f} and "
          f"PostgreSQL takes {database:.1f} of a save: {floor + database:.1f} before the replica does anything for "
          f"the save (a save costs {save:.1f})")
    print()
    figure("put_replicas_rps", ROWS["put-replicas"]["rps"], "requests/s")
    figure("pgbench_upsert_tps", ROWS["pgbench"]["rps"], "transactions/s")
    figure("put_replicas_cpu_us", CPU_TOTAL.get("put-replicas", "0"), "us/save")
    figure("put_floor_cpu_us", CPU_TOTAL.get("put-floor", "0"), "us/request")
    figure("get_user_pg_rps", ROWS["pg-store"]["rps"], "requests/s")
    figure("customization_bytes_pg", customization_bytes, "bytes")
    figure("migrate_seconds", first_seconds, f"s/{MIGRATE_COUNT} customizations")
    figure("cache_bytes_per_customization", cache_bytes, "bytes")
    figure("ready_seconds", ready_seconds, f"s/{MIGRATE_COUNT} customizations")
    print()
    target("put-replicas/pgbench", ratio(ROWS["put-replicas"]["rps"], ROWS["pgbench"]["rps"]))
    target("get-user-pg/file-store", ratio(ROWS["pg-store"]["rps"], ROWS["file-store"]["rps"]))


def main():
    install_missing("replicas", missing("wrk", "curl", "haproxy", "postgres"))
    binary = release_binary("replicas")
    seeder = swift_product("replicas", "BenchmarkSeeder")
    # Everything of this run lives in one directory on disk (the stores fsync), removed at exit with the cluster.
    work = workdir("replicas")
    work.chmod(0o755)
    cluster = Cluster(work, binary)
    results_start()
    print_machine()
    print(f"replicas: data on {disk_of(work)} ({work})")
    print("postgresql: " + psql(cluster.url, "select version() || '; fsync=' || current_setting('fsync') || "
                                             "', synchronous_commit=' || current_setting('synchronous_commit')"))
    customization_bytes = put_replicas(cluster)
    get_user_pg(cluster)
    report(customization_bytes, *migration(cluster, seeder))
    finish()


if __name__ == "__main__":
    main()
