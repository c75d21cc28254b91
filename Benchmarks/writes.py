#!/usr/bin/env python3
"""Durable-write scenario of the benchmark suite: PUT tab-order at 64 concurrent connections against a release
tabconfig with its default settings (group commit), against (a) the same binary with one fsync per write
(TABCONFIG_GROUP_COMMIT=false) and (b) PostgreSQL 15 doing the equivalent upsert through pgbench
(synchronous_commit=on, fsync=on) at the same concurrency. Every server runs alone, on the same disk, for the same
time after a 2 s warm-up. Prints a table of requests/s, p50/p99 and tabconfig ÷ server, and lines
  TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
for the two ratio targets (Benchmarks/Thresholds/writes.txt) and for zero non-2xx responses and socket errors in
every run. Exits 1 if any is FAIL or if what tabconfig stored does not read back. What it prints is also written to
Benchmarks/results/writes/<UTC date>-<commit>.md (Benchmarks/harness.py, results_start).

    Benchmarks/writes.py        (usually run by Benchmarks/run.py, which builds tabconfig once for every scenario)

Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_DURATION (seconds
per measured run, default 10), BENCH_BASELINE_BINARY (another build, e.g. of the previous commit: then the
group-commit run is repeated BENCH_ROUNDS times, default 3, alternating with the same run of the baseline, and the
median run of each is reported with tabconfig ÷ baseline). Workload: Benchmarks/put-tab-order.lua (wrk),
Benchmarks/pgbench-schema.sql and Benchmarks/pgbench-upsert.sql (pgbench, `pgbench_upsert` in Benchmarks/harness.py).
The PostgreSQL cluster is the project's own (scripts/postgres.sh: as root, it runs as the `postgres` user that the
Debian package creates).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

from harness import (CONNECTIONS, WARMUP, Server, disk_of, env_int, fail, finish, get, install_missing, mark_failed,
                     median_run, missing, pgbench_upsert, print_machine, put_unexpected, ratio, release_binary,
                     results_start, start_postgres, stop_postgres, target, workdir, wrk, wrk_error_lines, wrk_errors,
                     wrk_percentile, wrk_rps, wrk_summary)

DURATION = env_int("BENCH_DURATION", 10)
# The bodies the wrk script sends: user u<N> always gets number N % 4 (their orders, to check the read-back).
EXPECTED_ORDERS = [
    ["home", "search", "favorites", "library", "downloads", "profile", "settings"],
    ["home", "profile", "favorites", "search"],
    ["home", "library", "search", "downloads", "profile"],
    ["home", "favorites", "profile", "search", "library", "settings"],
]
LABEL = {"group-commit": "tabconfig (group commit)", "baseline": "baseline tabconfig (group commit)",
         "one-fsync": "tabconfig (one fsync per write)", "postgresql": "PostgreSQL 15 upsert (pgbench)"}


def read_back(base, label):
    """Whether users u1 … u3 read back with the orders written; their revisions, as "uN rR" words. u0 is not among
    them: wrk calls request() once before the run to check the script."""
    revisions = []
    for user in (1, 2, 3):
        answer = get(f"{base}/v1/clients/ios-phone/users/u{user}/tab-order")
        stored = json.loads(answer.body) if answer.status == 200 else {}
        revisions.append(f"u{user} r{stored.get('revision', '')}")
        if answer.status != 200 or stored.get("order") != EXPECTED_ORDERS[user % 4]:
            print(f"writes: {label}: GET u{user}/tab-order answered {answer.status} "
                  f"{answer.body.decode(errors='replace')}, expected order "
                  f"{json.dumps(EXPECTED_ORDERS[user % 4], separators=(',', ':'))}", file=sys.stderr)
            mark_failed()
    return revisions


def measure_tabconfig(work, name, binary, **env):
    """Starts tabconfig on a fresh data directory, warms up, runs wrk with the PUT script, then checks that three
    written users read back and that /readyz is 200, and stops the server; its row."""
    server = Server(binary, work / name, TABCONFIG_ADMIN_TOKEN="bench", TABCONFIG_ACCESS_LOG="false", **env)
    wrk(server.base, WARMUP, "-s", "Benchmarks/put-tab-order.lua", latency=False)
    output = wrk(server.base, DURATION, "-s", "Benchmarks/put-tab-order.lua")
    row = {"rps": wrk_rps(output), "p50": wrk_percentile(output, 50), "p99": wrk_percentile(output, 99)}
    non200 = put_unexpected(output)
    if not row["rps"] or non200 is None:
        print(output.rstrip("\n"), file=sys.stderr)
        row["rps"], non200 = "0", 1
    print(f"{name}: {wrk_summary(output)}, non-200 responses: {non200}")
    for line in wrk_error_lines(output, also=["first response other than"]):
        print(line, file=sys.stderr)
    target(f"errors/put/{name}", non200 + wrk_errors(output), "==", 0)

    revisions = read_back(server.base, name)
    status = get(f"{server.base}/readyz").status
    if status != 200:
        print(f"writes: {name}: /readyz answered {status} after the run", file=sys.stderr)
        mark_failed()
    journal = work / name / "store/customizations.journal"
    print(f"{name}: read back {' '.join(revisions)} with the written orders; /readyz {status}; journal "
          f"{human_size(journal)}")
    if server.stop() != 0:
        print(f"writes: {name}: tabconfig did not exit cleanly on SIGTERM", file=sys.stderr)
        mark_failed()
    return row


def human_size(path):
    """The disk usage of PATH as `du -h` prints it."""
    return subprocess.run(["du", "-h", str(path)], capture_output=True, text=True).stdout.split("\t")[0]


def measure_postgres(work):
    """The upsert on a throwaway PostgreSQL 15 cluster of the project's own, stopped afterwards."""
    cluster = start_postgres(work)
    row = pgbench_upsert("postgresql", f"{cluster}?sslmode=disable", work, DURATION)
    stop_postgres(work)
    return row


def median_of(rows):
    """The run with the median requests/s, with every run's requests/s."""
    row = dict(rows[median_run([row["rps"] for row in rows])])
    row["runs"] = "".join(f"{row['rps']} " for row in rows)
    return row


def main():
    install_missing("writes", missing("wrk", "curl", "postgres"))
    binary = release_binary("writes")
    # Everything of this run lives in one directory on disk (not tmpfs: the stores fsync), removed at exit. Both
    # stores are in it, so they share a file system.
    work = workdir("writes")
    work.chmod(0o755)
    print(f"writes: data on {disk_of(work)} ({work})")

    results_start()
    print_machine()
    print(f"each server alone, {WARMUP}s warm-up then:")
    print(f"  wrk -t1 -c{CONNECTIONS} -d{DURATION}s --latency -s Benchmarks/put-tab-order.lua http://127.0.0.1:PORT")
    print(f"  pgbench -n -c {CONNECTIONS} -j 2 -T {DURATION} -M prepared -f Benchmarks/pgbench-upsert.sql -l")
    # The baseline needs a binary that knows TABCONFIG_GROUP_COMMIT; an older one would ignore it and group-commit.
    if b"TABCONFIG_GROUP_COMMIT" not in Path(binary).read_bytes():
        fail(f"writes: {binary} does not know TABCONFIG_GROUP_COMMIT: the one-fsync run would group-commit")

    rows = {}
    baseline = os.environ.get("BENCH_BASELINE_BINARY")
    if baseline:
        rounds = env_int("BENCH_ROUNDS", 3)
        print(f"baseline: {baseline}, {rounds} rounds alternating with tabconfig (median run reported)")
        runs = {"group-commit": [], "baseline": []}
        for n in range(1, rounds + 1):
            runs["group-commit"].append(measure_tabconfig(work, f"group-commit-{n}", binary))
            runs["baseline"].append(measure_tabconfig(work, f"baseline-{n}", baseline))
        rows = {name: median_of(runs[name]) for name in runs}
    else:
        rows["group-commit"] = measure_tabconfig(work, "group-commit", binary)
    rows["one-fsync"] = measure_tabconfig(work, "one-fsync", binary, TABCONFIG_GROUP_COMMIT="false")
    rows["postgresql"] = measure_postgres(work)

    print()
    print(f"{'scenario':<12} {'server':<36} {'req/s':>12} {'p50-ms':>9} {'p99-ms':>9} {'tabconfig ÷ server':>20}")
    for name, row in rows.items():
        shown = "-" if name == "group-commit" else ratio(rows["group-commit"]["rps"], row["rps"])
        print(f"{'put-order':<12} {LABEL[name]:<36} {row['rps']:>12} {row['p50']:>9} {row['p99']:>9} {shown:>20}  "
              f"{row.get('runs', '')}")
    print()
    target("put/one-fsync", ratio(rows["group-commit"]["rps"], rows["one-fsync"]["rps"]))
    target("put/postgresql", ratio(rows["group-commit"]["rps"], rows["postgresql"]["rps"]))
    finish()


if __name__ == "__main__":
    main()
