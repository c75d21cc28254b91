#!/usr/bin/env python3
"""The benchmark suite in one command: installs what is missing (wrk, nginx, PostgreSQL, libmicrohttpd-dev), builds
the release tabconfig once, then runs on loopback, in this order, each scenario against its references:
  Benchmarks/reads.py    GET default tab bar, GET a user's tab bar: vs C libmicrohttpd, nginx static, Hummingbird 2
  Benchmarks/writes.py   durable PUT tab-order at 64 connections: vs one fsync per write, PostgreSQL 15 upsert
  Benchmarks/memory.py   RSS with 1,000,000 stored customizations, time from start to /readyz 200
  Benchmarks/streams.py  a publish reaching 200 open event streams vs one; idle CPU with them open vs none
  Benchmarks/replicas.py PUT through two replicas on PostgreSQL vs pgbench; user GET on the PostgreSQL store vs the
                         file store; migrate-store of 1,000,000 customizations
Each prints its table and TARGET lines (thresholds in Benchmarks/Thresholds/) and writes what it printed to
Benchmarks/results/<scenario>/<UTC date>-<commit>.md; this prints the machine, then a summary of every TARGET line
and the results files, and exits 1 if any target failed, any run had non-2xx responses or socket errors, or a
scenario program failed.

    Benchmarks/run.py [--duration SECONDS] [--only reads|writes|memory|streams|replicas]

--duration: seconds of each measured wrk/pgbench run (default 10; BENCH_DURATION). --only: one scenario program.
TABCONFIG_BINARY set: that release tabconfig is measured and none is built. Benchmarks/README.md explains the
scenarios, their references, their targets and how to read the output.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

from harness import install_missing, missing, print_machine, swift_product

SCENARIOS = ["reads", "writes", "memory", "streams", "replicas"]


def arguments():
    """--duration and --only; the usage line and exit 2 on anything else."""
    duration, scenarios = os.environ.get("BENCH_DURATION") or "10", SCENARIOS
    words = sys.argv[1:]
    while words:
        if words[0] == "--duration" and len(words) >= 2 and re.fullmatch(r"[1-9][0-9]*", words[1]):
            duration = words[1]
        elif words[0] == "--only" and len(words) >= 2 and words[1] in SCENARIOS:
            scenarios = [words[1]]
        else:
            print(f"usage: Benchmarks/run.py [--duration SECONDS] [--only {'|'.join(SCENARIOS)}]", file=sys.stderr)
            sys.exit(2)
        words = words[2:]
    return duration, scenarios


def install(scenarios):
    """Tools from apt when missing: wrk and nginx for the reads, PostgreSQL 15 (server and pgbench) for the writes
    and the replicas, haproxy for the replicas; then scripts/install-deps.sh."""
    tools = ["wrk", "gcc", "curl"] + (["nginx"] if "reads" in scenarios else [])
    tools += ["postgres"] if {"writes", "replicas"} & set(scenarios) else []
    tools += ["haproxy"] if "replicas" in scenarios else []
    install_missing("run", missing(*tools))


def run_scenario(scenario):
    """Runs Benchmarks/SCENARIO.py, passing its output (stderr too) through; its output and exit status."""
    process = subprocess.Popen([sys.executable, f"Benchmarks/{scenario}.py"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    lines = []
    for line in process.stdout:
        print(line, end="")
        lines.append(line.rstrip("\n"))
    return lines, process.wait()


def main():
    duration, scenarios = arguments()
    install(scenarios)
    if os.environ.get("TABCONFIG_BINARY"):
        os.environ["TABCONFIG_BINARY"] = os.path.realpath(os.environ["TABCONFIG_BINARY"])
    else:
        os.environ["TABCONFIG_BINARY"] = os.path.realpath(swift_product("run", "tabconfig"))
    os.environ["BENCH_DURATION"] = duration
    print_machine()
    version = subprocess.run(["wrk", "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    print(f"tabconfig: {os.environ['TABCONFIG_BINARY']}; {' '.join(version.splitlines()[0].split(' ')[:2])}; "
          f"duration {duration}s")

    failed, statuses, logs = 0, {}, {}
    for scenario in scenarios:
        print()
        print(f"=== Benchmarks/{scenario}.py")
        if not Path(f"Benchmarks/{scenario}.py").is_file():
            print(f"run: Benchmarks/{scenario}.py is missing")
            statuses[scenario], failed = "missing", 1
            continue
        logs[scenario], status = run_scenario(scenario)
        statuses[scenario] = f"exit {status}"
        failed |= status != 0

    print()
    print(f"=== summary (nproc {os.cpu_count()})")
    every = [line for scenario in scenarios for line in logs.get(scenario, [])]
    found = [line for line in every if line.startswith("TARGET ")]
    for line in found:
        print(line)
    if not found:
        print("run: no TARGET line was printed")
        failed = 1
    if any(line.endswith("FAIL") for line in found):
        failed = 1
    # wrk prints these two lines only when there were errors; a scenario program may pass its output through.
    errors = [line for line in every if re.search("Non-2xx or 3xx responses:|Socket errors:", line)]
    if errors:
        print("\n".join(errors))
        print("run: some run had non-2xx responses or socket errors")
        failed = 1
    for scenario in scenarios:
        print(f"Benchmarks/{scenario}.py: {statuses[scenario]}")
    for line in every:
        if line.startswith("results: "):
            print(line)
    print("run: every target met, no errors" if not failed else "run: FAILED (see the FAIL lines and messages above)")
    sys.exit(failed)


if __name__ == "__main__":
    main()
