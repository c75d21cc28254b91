#!/usr/bin/env python3
"""Many targeting outcomes against one: from a release tabconfig serving a config whose 13 tabs each show on an
attribute of their own (8,192 outcomes, any of them asked for without a token), wrk measures (Benchmarks/many-outcomes.lua)
  one-outcome        the default tab bar of one outcome (every tab shown), in brotli: an answer kept and reused
  many-outcomes      the 8,192 outcomes in turn, in brotli: twice what a version keeps, so nearly every answer is
                     built, compressed for its request at the fast effort and dropped later (issue 51)
  many-identity      the same outcomes without Accept-Encoding: what building an answer costs with no compression
in interleaved rounds, and prints a table of the median requests/s, p50/p99 and the server's CPU per request, the
ratios to one-outcome, the bodies compressed at each effort (tabconfig_compressed_bodies: at the best effort only in
the background, for outcomes asked for again while still kept), and lines
  TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
for many-outcomes/one-outcome (Benchmarks/Thresholds/outcomes.txt) and for zero non-2xx responses and socket errors. Exits 1 if any is FAIL. What it prints is also
written to Benchmarks/results/outcomes/<UTC date>-<commit>.md, its figures and targets to the .json beside it.

    Benchmarks/outcomes.py

Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_DURATION (seconds
per measured run, default 10), BENCH_ROUNDS (measured runs per scenario, default 5; the median one is reported),
BENCH_SERVER_THREADS (TABCONFIG_THREADS; default nproc - 1, at least 1).
"""

import json
import re

from harness import (CONNECTIONS, WARMUP, Server, cpu_per_request, cpu_sum, cpu_ticks, env_int, fetch, figure,
                     finish, install_missing, median_run, missing, print_machine, ratio, release_binary, results_start,
                     send_json, server_threads, succeeded, target, workdir, wrk, wrk_errors, wrk_percentile,
                     wrk_requests, wrk_rps)

DURATION = env_int("BENCH_DURATION", 10)
ROUNDS = env_int("BENCH_ROUNDS", 5)
OUTCOMES = 8192
# Each scenario's BENCH_OUTCOMES and BENCH_CODING for Benchmarks/many-outcomes.lua.
SCENARIOS = {"one-outcome": (1, "br"), "many-outcomes": (OUTCOMES, "br"), "many-identity": (OUTCOMES, "")}
CONFIG = {"tabs": [{"id": f"t{index}", "title": {"default": f"Tab {index}"},
                    "destination": {"type": "viewController", "name": f"Tab{index}ViewController"},
                    "when": {f"attr.f{index}": {"$in": ["1"]}}} for index in range(13)]
          + [{"id": "home", "title": {"default": "Home"},
              "destination": {"type": "viewController", "name": "HomeViewController"}}]}


def compressed(base):
    """The bodies the server compressed so far, by effort."""
    text = fetch(f"{base}/metrics", "outcomes").decode()
    return {effort: int(float(value)) for effort, value in
            re.findall(r'^tabconfig_compressed_bodies\{effort="(\w+)"\} (\S+)$', text, re.M)}


def run_scenario(scenario, seconds, server):
    """One wrk run of the scenario: wrk's output and the server's CPU per request."""
    count, coding = SCENARIOS[scenario]
    before = cpu_ticks([server.pid])
    output = wrk(server.base, seconds, "-s", "Benchmarks/many-outcomes.lua",
                 env={"BENCH_OUTCOMES": str(count), "BENCH_CODING": coding})
    after = cpu_ticks([server.pid])
    return output, cpu_per_request(before, after, wrk_requests(output))


def main():
    install_missing("outcomes", missing("wrk", "curl"))
    binary = release_binary("outcomes")
    work = workdir("outcomes")
    results_start()

    threads = server_threads()
    server = Server(binary, work, TABCONFIG_ADMIN_TOKEN="bench", TABCONFIG_THREADS=str(threads),
                    TABCONFIG_ACCESS_LOG="false")
    succeeded(send_json(f"{server.base}/v1/clients/bench-outcomes/config", json.dumps(CONFIG), token="bench"),
              "outcomes: PUT config")
    print_machine()
    print(f"{threads} worker thread(s); {WARMUP}s warm-up, then {ROUNDS} rounds of wrk -t1 -c{CONNECTIONS} "
          f"-d{DURATION}s --latency, {', '.join(SCENARIOS)} in turn (the median run is reported)")

    for scenario in SCENARIOS:
        run_scenario(scenario, WARMUP, server)
    runs = {scenario: [] for scenario in SCENARIOS}
    best_during_many = 0
    for _ in range(ROUNDS):
        for scenario in SCENARIOS:
            before = compressed(server.base)
            runs[scenario].append(run_scenario(scenario, DURATION, server))
            if scenario == "many-outcomes":
                best_during_many += compressed(server.base).get("best", 0) - before.get("best", 0)

    rps, cpu = {}, {}
    row = "{:<16} {:>12} {:>9} {:>9} {:>14}  {}"
    print(row.format("scenario", "requests/s", "p50 ms", "p99 ms", "CPU us/req", "every round"))
    for scenario in SCENARIOS:
        rates = [wrk_rps(output) for output, _ in runs[scenario]]
        output, cpu_pair = runs[scenario][median_run(rates)]
        rps[scenario], cpu[scenario] = rates[median_run(rates)], float(cpu_sum(cpu_pair))
        print(row.format(scenario, rps[scenario], wrk_percentile(output, 50), wrk_percentile(output, 99),
                         "+".join(cpu_pair), "".join(f"{rate} " for rate in rates)))
        target(f"errors/{scenario}", sum(wrk_errors(output) for output, _ in runs[scenario]), "==", 0)
        figure(f"{scenario.replace('-', '_')}_rps", rps[scenario], "requests/s")
        figure(f"{scenario.replace('-', '_')}_cpu_us", f"{cpu[scenario]:.1f}", "us/request")
    print()
    print(f"many-identity ÷ one-outcome (an answer built per request, no compression): "
          f"{ratio(rps['many-identity'], rps['one-outcome'])}")
    print(f"compressed bodies in all: {compressed(server.base)}; at the best effort, in the background, during "
          f"many-outcomes: {best_during_many}")
    print()
    target("many-outcomes/one-outcome", ratio(rps["many-outcomes"], rps["one-outcome"]))
    finish()


if __name__ == "__main__":
    main()
