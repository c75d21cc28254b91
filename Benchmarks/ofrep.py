#!/usr/bin/env python3
"""OFREP bulk evaluation against the tab-bar GET it is read off: from a release tabconfig serving
Benchmarks/targeted-config.json (three conditions, a rollout, an experiment), wrk measures
  user-tabs  GET /v1/clients/bench-targeted/users/bench-user/tabs?<context>
  bulk       POST /ofrep/v1/evaluate/flags {"context": {"client", "targetingKey": "bench-user", <the same context>}}
(Benchmarks/ofrep-bulk.lua), bulk-many-users (that evaluation for 10,000 users in turn, more than the bulk answers a
version keeps, so that most are built for the request: what a first evaluation costs), and the same two requests
answered by the floor (Benchmarks/http-floor: MicroHTTP with no handler, serving tabconfig's two answers with their
header fields; floor-user-tabs and floor-bulk: what a POST with a JSON body and the longer answer cost MicroHTTP
before any handler runs), in interleaved rounds (each round runs all five in turn), and prints a table of the median
requests/s, p50/p99 and the server's CPU per request, the floor's bulk ÷ user-tabs, bulk-many-users ÷ user-tabs,
and lines
  TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
for bulk/user-tabs (Benchmarks/Thresholds/ofrep.txt) and for zero non-2xx responses and socket errors. Exits 1 if
any is FAIL. What it prints is also written to Benchmarks/results/ofrep/<UTC date>-<commit>.md, its figures and
targets to the .json beside it.

    Benchmarks/ofrep.py

Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_DURATION (seconds
per measured run, default 10), BENCH_ROUNDS (measured runs per scenario, default 5; the median one is reported),
BENCH_SERVER_THREADS (TABCONFIG_THREADS; default nproc - 1, at least 1).
"""

import sys
from pathlib import Path

from harness import (CONNECTIONS, WARMUP, Server, cpu_per_request, cpu_sum, cpu_ticks, env_int, fail, fetch,
                     fields_of, figure, finish, free_port, get, install_missing, median_run, missing, print_machine,
                     ratio, release_binary, results_start, send_json, server_threads, spawn, succeeded, swift_product,
                     target, wait_ready, workdir, wrk, wrk_errors, wrk_percentile, wrk_requests, wrk_rps)

DURATION = env_int("BENCH_DURATION", 10)
ROUNDS = env_int("BENCH_ROUNDS", 5)
# The context of Benchmarks/reads.py's targeting scenarios, as query parameters and as an OFREP context.
QUERY = "locale=en&platform=ios&appVersion=5.2.0&osVersion=17.4&country=FR&deviceId=bench-device-3"
OFREP_BODY = ('{"context":{"client":"bench-targeted","targetingKey":"bench-user","locale":"en","platform":"ios",'
              '"appVersion":"5.2.0","osVersion":"17.4","country":"FR","deviceId":"bench-device-3"}}')
GET_PATH = "/v1/clients/bench-targeted/users/bench-user/tabs"
BULK_PATH = "/ofrep/v1/evaluate/flags"
SCENARIOS = ["user-tabs", "bulk", "bulk-many-users", "floor-user-tabs", "floor-bulk"]


def bulk(base):
    return send_json(f"{base}{BULK_PATH}", OFREP_BODY, method="POST")


def start_floor(floor_binary, work, threads, base):
    """The floor, answering both requests with tabconfig's bytes and header fields (fields_of); checked."""
    Path(f"{work}/get.fields").write_text(fields_of(f"{base}{GET_PATH}?{QUERY}"))
    Path(f"{work}/bulk.fields").write_text(fields_of(f"{base}{BULK_PATH}", "POST", OFREP_BODY,
                                                     {"Content-Type": "application/json"}))
    port = free_port()
    process = spawn([floor_binary, port, threads, f"{GET_PATH}={work}/get.json,{work}/get.fields",
                     f"{BULK_PATH}={work}/bulk.json,{work}/bulk.fields"], log=f"{work}/floor.log")
    floor = f"http://127.0.0.1:{port}"
    wait_ready(f"{floor}{GET_PATH}?{QUERY}", tries=200)
    if (get(f"{floor}{GET_PATH}?{QUERY}").body != Path(f"{work}/get.json").read_bytes()
            or bulk(floor).body != Path(f"{work}/bulk.json").read_bytes()):
        print(Path(f"{work}/floor.log").read_text(errors="replace"), end="", file=sys.stderr)
        fail("ofrep: the floor does not answer both requests with tabconfig's bytes")
    return floor, process.pid


def run_scenario(scenario, seconds, urls, pids):
    """One wrk run of the scenario: wrk's output and the server's CPU per request."""
    where = "floor" if scenario.startswith("floor-") else "tabconfig"
    before = cpu_ticks([pids[where]])
    if "bulk" in scenario:
        users = "10000" if scenario.endswith("many-users") else "0"
        output = wrk(urls[where], seconds, "-s", "Benchmarks/ofrep-bulk.lua",
                     env={"BENCH_USERS": users, "OFREP_BODY": OFREP_BODY})
    else:
        output = wrk(f"{urls[where]}{GET_PATH}?{QUERY}", seconds)
    after = cpu_ticks([pids[where]])
    return output, cpu_per_request(before, after, wrk_requests(output))


def main():
    install_missing("ofrep", missing("wrk", "curl"))
    binary = release_binary("ofrep")
    floor_binary = swift_product("ofrep", "HTTPFloor", "Benchmarks/http-floor", "MicroHTTP on its own")
    work = workdir("ofrep")
    results_start()

    threads = server_threads()
    server = Server(binary, work, TABCONFIG_ADMIN_TOKEN="bench", TABCONFIG_THREADS=str(threads),
                    TABCONFIG_ACCESS_LOG="false")
    succeeded(send_json(f"{server.base}/v1/clients/bench-targeted/config",
                       Path("Benchmarks/targeted-config.json").read_bytes(), token="bench"), "ofrep: PUT config")
    succeeded(send_json(f"{server.base}/v1/clients/bench-targeted/users/bench-user/tab-order",
                       '{"order": ["profile","favorites","search","home"], "hidden": ["settings"]}'),
              "ofrep: PUT tab-order")

    # Both answer the same tab bar: the bulk's `tabs` value is the GET's body, byte for byte.
    tab_bar = fetch(f"{server.base}{GET_PATH}?{QUERY}", "ofrep")
    answer = bulk(server.base)
    if answer.status != 200:
        fail(f"ofrep: no 200 from POST {BULK_PATH} ({answer.status})")
    Path(f"{work}/get.json").write_bytes(tab_bar)
    Path(f"{work}/bulk.json").write_bytes(answer.body)
    if tab_bar not in answer.body:
        fail("ofrep: the bulk answer does not hold the GET's tab bar")
    flags = answer.body.count(b'"key":')
    print(f"ofrep: tab bar {len(tab_bar)} bytes, bulk answer {len(answer.body)} bytes ({flags} flags)")
    floor, floor_pid = start_floor(floor_binary, work, threads, server.base)
    urls, pids = {"tabconfig": server.base, "floor": floor}, {"tabconfig": server.pid, "floor": floor_pid}
    print_machine()
    print(f"{threads} worker thread(s); {WARMUP}s warm-up, then {ROUNDS} rounds of wrk -t1 -c{CONNECTIONS} "
          f"-d{DURATION}s --latency, user-tabs then bulk (the median run is reported)")

    for scenario in SCENARIOS:
        run_scenario(scenario, WARMUP, urls, pids)
    runs = {scenario: [] for scenario in SCENARIOS}
    for _ in range(ROUNDS):
        for scenario in SCENARIOS:
            runs[scenario].append(run_scenario(scenario, DURATION, urls, pids))

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
    print()
    print(f"floor (MicroHTTP, no handler): bulk ÷ user-tabs {ratio(rps['floor-bulk'], rps['floor-user-tabs'])}; "
          f"CPU per request {cpu['floor-bulk']:.1f} us against {cpu['floor-user-tabs']:.1f} us")
    print(f"handlers (tabconfig over the floor): bulk {cpu['bulk'] - cpu['floor-bulk']:.1f} us, user-tabs "
          f"{cpu['user-tabs'] - cpu['floor-user-tabs']:.1f} us")
    many = ratio(rps["bulk-many-users"], rps["user-tabs"])
    print(f"bulk-many-users (answers built per request) ÷ user-tabs {many}")
    for scenario in SCENARIOS:
        figure(f"{scenario.replace('-', '_')}_rps", rps[scenario], "requests/s")
        figure(f"{scenario.replace('-', '_')}_cpu_us", f"{cpu[scenario]:.1f}", "us/request")
    print()
    target("bulk/user-tabs", ratio(rps["bulk"], rps["user-tabs"]))
    finish()


if __name__ == "__main__":
    main()
