#!/usr/bin/env python3
"""What 1M, 10M and 100M daily users need, computed from the benchmark suite's measured figures (docs/SCALING.md).

    Benchmarks/run.py > bench.log; python3 Benchmarks/scaling.py bench.log [replicas.log …]
    python3 Benchmarks/scaling.py Benchmarks/results/reads/DATE-COMMIT.md Benchmarks/results/replicas/… …

Reads every `FIGURE <name> <value> <unit>` line of the files given (Benchmarks/reads.py, replicas.py and streams.py
print them, so their results files hold them too, and the replica run of the test suite, Tests/Replicas/replicas.py);
a later file's figure replaces an earlier one's. Prints the figures used, the traffic assumptions (each a flag) and a
Markdown table per scale, then which limit each scale reaches first. Figures a run did not print are reported missing
and their rows left out. Python 3 standard library only.
"""

import argparse
import math
import os
import re
import sys

SCALES = [1_000_000, 10_000_000, 100_000_000]
SECONDS_PER_DAY = 86_400
# The service's defaults (README, "Configuration"; PostgresStore.Options).
POOL_CONNECTIONS = 20 + 1  # the pool's maximum and the listening connection


def threshold(scenario, name):
    """A target's value in Benchmarks/Thresholds/<scenario>.txt (lines "NAME OP VALUE"), where the scripts read it."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Thresholds", f"{scenario}.txt")
    with open(path, encoding="utf-8") as file:
        for line in file:
            fields = line.split("#", 1)[0].split()
            if len(fields) == 3 and fields[0] == name:
                return float(fields[2])
    raise SystemExit(f"scaling: no {name} in {path}")


# The service's promise for event streams: every subscriber within that many ms of a publish (streams.py's target).
FANOUT_LIMIT_MS = threshold("streams", "streams/fanout-ms")
# What a replica machine is taken to offer before a limit counts as reached.
MEMORY_LIMIT_BYTES = 16 * 2**30
READY_LIMIT_SECONDS = 60
DATABASE_CONNECTION_LIMIT = 200


def figures(paths):
    found = {}
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as file:
            for line in file:
                match = re.match(r"^FIGURE (\S+) ([0-9.]+)(?: (.*))?$", line.strip())
                if match:
                    found[match.group(1)] = (float(match.group(2)), match.group(3) or "")
    return found


def per_unit(value_and_unit):
    """A figure measured over N things (unit "s/1000000 customizations") as the value for one."""
    value, unit = value_and_unit
    match = re.search(r"/([0-9]+)", unit)
    return value / int(match.group(1)) if match else value


def human(count, unit=""):
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if count >= size:
            return f"{count / size:.1f} {suffix}{unit}".strip()
    return f"{count:.0f} {unit}".strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("logs", nargs="+", help="benchmark output holding FIGURE lines")
    parser.add_argument("--launches", type=float, default=4, help="app launches per daily user per day (4)")
    parser.add_argument("--signed-in", type=float, default=0.7, help="share of launches that read a user's tab bar (0.7)")
    parser.add_argument("--writes", type=float, default=0.05, help="tab-order saves per daily user per day (0.05)")
    parser.add_argument("--stored", type=float, default=0.5, help="stored tab orders per daily user (0.5)")
    parser.add_argument("--peak", type=float, default=3, help="peak rate ÷ the day's average (3)")
    parser.add_argument("--streams", type=float, default=0.02, help="share of daily users holding an event stream at peak (0.02)")
    parser.add_argument("--cdn-hits", type=float, default=0.95, help="share of default tab bars a CDN answers (0.95)")
    parser.add_argument("--headroom", type=float, default=0.5, help="share of a measured capacity planned for (0.5)")
    options = parser.parse_args()

    found = figures(options.logs)
    needed = {
        "get_user_pg_rps": "user tab bar GETs/s of one replica on the PostgreSQL store (replicas.py)",
        "get_default_rps": "default tab bar GETs/s of one replica (reads.py)",
        "put_replicas_rps": "PUT tab-order/s through two replicas on one database (replicas.py)",
        "pgbench_upsert_tps": "the database's own upsert/s, pgbench (replicas.py)",
        "customization_bytes_pg": "database bytes per stored tab order, indexes included (replicas.py)",
        "cache_bytes_per_customization": "replica memory per stored tab order (replicas.py)",
        "ready_seconds": "replica startup, reading every tab order (replicas.py)",
        "replica_lag_p99_ms": "p99 visibility lag between replicas (Tests/Replicas/replicas.py)",
        "stream_fanout_ms": "publish to every open event stream (streams.py)",
    }
    print("Measured figures:")
    for name, what in needed.items():
        shown = f"{found[name][0]:g} {found[name][1]}" if name in found else "MISSING"
        print(f"  {name:<32} {shown:<40} {what}")
    print()
    print(f"Assumptions: {options.launches:g} launches and {options.writes:g} tab-order saves per daily user per day, "
          f"{options.signed_in:.0%} of launches signed in, {options.stored:g} stored tab orders per daily user, peak "
          f"{options.peak:g}× the average, {options.streams:.0%} of daily users on an event stream at peak, a CDN "
          f"answering {options.cdn_hits:.0%} of default tab bars, capacities planned at {options.headroom:.0%}, one "
          f"spare replica; a replica machine like the benchmark's, with {MEMORY_LIMIT_BYTES / 2**30:.0f} GiB.")
    print()
    value = lambda name: per_unit(found[name]) if name in found else math.nan
    header = ["daily users", "peak reads/s (origin)", "replicas", "peak writes/s", "database write load",
              "database size", "memory per replica", "replica startup", "database connections", "streams per replica (limit)"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    limits = {}
    for users in SCALES:
        peak = users * options.launches / SECONDS_PER_DAY * options.peak
        user_reads = peak * options.signed_in
        default_origin = peak * (1 - options.signed_in) * (1 - options.cdn_hits)
        read_load = user_reads / value("get_user_pg_rps") + default_origin / value("get_default_rps")
        streams = users * options.streams
        # Streams hold no thread; what bounds them per replica is the fan-out promise (and the connection limit,
        # TABCONFIG_CONNECTION_LIMIT, to be set above the streams a replica holds).
        stream_capacity = FANOUT_LIMIT_MS / value("stream_fanout_ms") * options.headroom
        serving = max(math.ceil(read_load / options.headroom), math.ceil(streams / stream_capacity), 1)
        replicas = serving + 1
        writes = users * options.writes / SECONDS_PER_DAY * options.peak
        write_load = writes / value("put_replicas_rps")
        stored = users * options.stored
        size = stored * value("customization_bytes_pg")
        memory = stored * value("cache_bytes_per_customization")
        startup = stored * value("ready_seconds")
        connections = replicas * POOL_CONNECTIONS
        print(f"| {human(users)} | {human(user_reads + default_origin)} | {replicas} | {writes:.0f} | "
              f"{write_load:.1%} of measured | {human(size, 'B')} | {human(memory, 'B')} | {startup:.0f} s | "
              f"{connections} | {human(streams / serving)} ({human(stream_capacity)}) |")
        reached = []
        if memory > MEMORY_LIMIT_BYTES:
            reached.append(f"replica memory ({human(memory, 'B')} > {MEMORY_LIMIT_BYTES / 2**30:.0f} GiB)")
        if startup > READY_LIMIT_SECONDS:
            reached.append(f"replica startup ({startup:.0f} s > {READY_LIMIT_SECONDS} s)")
        if write_load > options.headroom:
            reached.append(f"database writes ({write_load:.0%} of the measured capacity)")
        if connections > DATABASE_CONNECTION_LIMIT:
            reached.append(f"database connections ({connections} > {DATABASE_CONNECTION_LIMIT})")
        limits[users] = reached
    print()
    for users, reached in limits.items():
        print(f"{human(users)} daily users: " + ("; ".join(reached) if reached else "no limit reached"))
    missing = [name for name in needed if name not in found]
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
