#!/usr/bin/env python3
"""Apps' reports of tab opens beside the tab-bar GETs (docs/rollouts.md): from a release tabconfig serving a config
with a staged rollout (its tick every second), wrk measures
  get            GET /v1/clients/bench-rollouts/tabs?locale=en (64 connections), alone
  get-floor      the same GET while a second wrk sends GET /healthz at the reports' pace (Benchmarks/reports.lua with
                 BENCH_REPORT_FLOOR=1): what a second client at that rate costs the GET with no report to handle
  get-reports    the same GET while the second wrk posts reports (4 connections, each waiting 2 ms between reports,
                 about 1,400 a second) to the same server
in interleaved rounds, and prints a table of the GET's median requests/s, p50/p99 and the server's CPU per request,
the requests a second of the second wrk, get-reports/get, and lines
  TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
for get-reports/get-floor (Benchmarks/Thresholds/rollouts.txt: what handling the reports costs the GET), for every
report counted (no refusal) and for zero non-2xx responses and socket errors. Exits 1 if any is FAIL. What it prints is also written to
Benchmarks/results/rollouts/<UTC date>-<commit>.md, its figures and targets to the .json beside it.

    Benchmarks/rollouts.py

Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_DURATION (seconds
per measured run, default 10), BENCH_ROUNDS (measured runs per scenario, default 5; the median one is reported),
BENCH_SERVER_THREADS (TABCONFIG_THREADS; default nproc - 1, at least 1), BENCH_REPORT_DELAY_MS (default 2).
"""

import json
import re
import threading

from harness import (CONNECTIONS, WARMUP, Server, cpu_per_request, cpu_sum, cpu_ticks, env_int, fetch, figure,
                     finish, install_missing, median_run, missing, print_machine, ratio, release_binary, results_start,
                     send_json, server_threads, succeeded, target, workdir, wrk, wrk_errors, wrk_percentile,
                     wrk_requests, wrk_rps)

DURATION = env_int("BENCH_DURATION", 10)
ROUNDS = env_int("BENCH_ROUNDS", 5)
REPORT_DELAY_MS = env_int("BENCH_REPORT_DELAY_MS", 2)
GET_PATH = "/v1/clients/bench-rollouts/tabs?locale=en"
SCENARIOS = ["get", "get-floor", "get-reports"]
CONFIG = {"tabs": [
    {"id": "home", "title": {"default": "Home"}, "destination": {"type": "viewController", "name": "HomeVC"}},
    {"id": "search", "title": {"default": "Search"}, "destination": {"type": "viewController", "name": "SearchVC"}},
    {"id": "shop", "title": {"default": "Shop"}, "destination": {"type": "viewController", "name": "ShopVC"},
     "rollout": {"stages": [{"coverage": 0.1, "hold": "P1D"}, {"coverage": 1}],
                 "guard": {"maxFailureRate": 0.5, "minOpens": 1000000000}}},
]}


def metric(base, series):
    """The value of the Prometheus series SERIES (name and labels) of the server at BASE, 0 when it has none."""
    text = fetch(f"{base}/metrics", "rollouts").decode()
    found = re.search(rf"^{re.escape(series)} (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


def run_scenario(scenario, seconds, server):
    """One wrk run of the GET, with reports posted beside it in get-reports: the GET's output, the server's CPU per
    GET (reports included), and the reports' wrk output."""
    reports = {}
    poster = None
    if scenario != "get":
        floor = "1" if scenario == "get-floor" else "0"

        def post():
            reports["output"] = wrk(server.base, seconds + 1, "-s", "Benchmarks/reports.lua", latency=False,
                                    env={"BENCH_REPORT_DELAY_MS": str(REPORT_DELAY_MS), "BENCH_REPORT_FLOOR": floor},
                                    connections=4)
        poster = threading.Thread(target=post)
        poster.start()
    before = cpu_ticks([server.pid])
    output = wrk(f"{server.base}{GET_PATH}", seconds)
    after = cpu_ticks([server.pid])
    if poster:
        poster.join()
    return output, cpu_per_request(before, after, wrk_requests(output)), reports.get("output", "")


def main():
    install_missing("rollouts", missing("wrk", "curl"))
    binary = release_binary("rollouts")
    work = workdir("rollouts")
    results_start()

    threads = server_threads()
    server = Server(binary, work, TABCONFIG_ADMIN_TOKEN="bench", TABCONFIG_THREADS=str(threads),
                    TABCONFIG_ACCESS_LOG="false", TABCONFIG_ROLLOUT_INTERVAL="1")
    succeeded(send_json(f"{server.base}/v1/clients/bench-rollouts/config", json.dumps(CONFIG), token="bench"),
              "rollouts: PUT config")
    print_machine()
    print(f"{threads} worker thread(s); {WARMUP}s warm-up, then {ROUNDS} rounds of wrk -t1 -c{CONNECTIONS} "
          f"-d{DURATION}s --latency on the GET, alone and beside reports (wrk -t1 -c4, {REPORT_DELAY_MS} ms between "
          f"each connection's reports)")

    for scenario in SCENARIOS:
        run_scenario(scenario, WARMUP, server)
    refused_before = metric(server.base, 'tabconfig_reports_total{result="refused"}')
    runs = {scenario: [] for scenario in SCENARIOS}
    for _ in range(ROUNDS):
        for scenario in SCENARIOS:
            runs[scenario].append(run_scenario(scenario, DURATION, server))

    rps = {}
    row = "{:<14} {:>12} {:>9} {:>9} {:>14}  {}"
    print(row.format("scenario", "requests/s", "p50 ms", "p99 ms", "CPU us/req", "every round"))
    for scenario in SCENARIOS:
        rates = [wrk_rps(output) for output, _, _ in runs[scenario]]
        output, cpu_pair, _ = runs[scenario][median_run(rates)]
        rps[scenario] = rates[median_run(rates)]
        print(row.format(scenario, rps[scenario], wrk_percentile(output, 50), wrk_percentile(output, 99),
                         "+".join(cpu_pair), "".join(f"{rate} " for rate in rates)))
        target(f"errors/{scenario}", sum(wrk_errors(output) for output, _, _ in runs[scenario]), "==", 0)
        figure(f"{scenario.replace('-', '_')}_rps", rps[scenario], "requests/s")
        figure(f"{scenario.replace('-', '_')}_cpu_us", f"{float(cpu_sum(cpu_pair)):.1f}", "us/request")
    print()
    for scenario in ("get-floor", "get-reports"):
        side = [float(wrk_rps(other) or 0) for _, _, other in runs[scenario]]
        print(f"{scenario}: the second wrk's requests a second: {' '.join(f'{rate:.0f}' for rate in side)}")
        figure(f"{scenario.replace('-', '_')}_side_rps", f"{sorted(side)[len(side) // 2]:.0f}", "requests/s")
        target(f"errors/{scenario}-side", sum(wrk_errors(other) for _, _, other in runs[scenario]), "==", 0)
    print(f"get-reports/get (a second client's load and the reports together): {ratio(rps['get-reports'], rps['get'])}; "
          f"get-floor/get (the second client alone): {ratio(rps['get-floor'], rps['get'])}")
    target("refused-reports", int(metric(server.base, 'tabconfig_reports_total{result="refused"}') - refused_before),
           "==", 0)
    print()
    target("get-reports/get-floor", ratio(rps["get-reports"], rps["get-floor"]))
    finish()


if __name__ == "__main__":
    main()
