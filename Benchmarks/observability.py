#!/usr/bin/env python3
"""What metrics and the access log cost on the two tab-bar reads: the same release build run twice side by side,
"off" (TABCONFIG_METRICS=false TABCONFIG_ACCESS_LOG=false) and "on" (the defaults: /metrics recorded, one access-log
line per request, written to the server's log file), each measured in turn with the same wrk command; the cost is
1 − on ÷ off of the median requests/s, in percent. With BENCH_SPLIT=1 two more servers run beside them, "metrics"
(the access log off) and "log" (metrics off), to tell the two costs apart. No target: it measures a setting. What
it prints is also written to Benchmarks/results/observability/<UTC date>-<commit>.md (Benchmarks/harness.py).

    Benchmarks/observability.py

Environment: TABCONFIG_BINARY (default: a release build into .build-bench/), BENCH_DURATION (seconds per run,
default 5), BENCH_ROUNDS (runs per server and path, default 5), BENCH_CONNECTIONS (default 32), BENCH_SPLIT.
"""

import os

from harness import (Server, env_int, fail, install_missing, median_run, missing, print_machine, release_binary,
                     results_save, results_start, send_json, succeeded, workdir, wrk, wrk_errors, wrk_rps)

DURATION = env_int("BENCH_DURATION", 5)
ROUNDS = env_int("BENCH_ROUNDS", 5)
# This program's own connection count (the others use 64).
CONNECTIONS = env_int("BENCH_CONNECTIONS", 32)
SETTINGS = {"off": {"TABCONFIG_METRICS": "false", "TABCONFIG_ACCESS_LOG": "false"}, "on": {},
            "metrics": {"TABCONFIG_ACCESS_LOG": "false"}, "log": {"TABCONFIG_METRICS": "false"}}
PATHS = ["/v1/clients/ios-phone/tabs?locale=en", "/v1/clients/ios-phone/users/bench-user/tabs?locale=en"]


def cost(one, off):
    """1 − ONE ÷ OFF, in percent."""
    return (1 - float(one) / float(off)) * 100


def main():
    if missing("wrk"):
        install_missing("observability", ["wrk"])
    binary = release_binary("observability")
    # Every server's worker threads: nproc - 1, at least 1 (wrk's one thread holds a core).
    threads = max(1, os.cpu_count() - 1)
    work = workdir("observability")
    variants = ["off", "on"] + (["metrics", "log"] if os.environ.get("BENCH_SPLIT") == "1" else [])
    bases = {}
    for variant in variants:
        server = Server(binary, work / variant, TABCONFIG_ADMIN_TOKEN="bench", TABCONFIG_THREADS=str(threads),
                        **SETTINGS[variant])
        bases[variant] = server.base
        succeeded(send_json(f"{server.base}/v1/clients/ios-phone/users/bench-user/tab-order",
                           '{"order": ["profile","favorites","search","home"], "hidden": ["settings"]}'),
                  "observability: PUT tab-order")

    results_start()
    print_machine()
    print(f"{threads} worker thread(s) per server; {ROUNDS} rounds of wrk -t1 -c{CONNECTIONS} -d{DURATION}s "
          f"per path, the servers ({' '.join(variants)}) in turn; median requests/s")
    for path in PATHS:
        for variant in variants:
            wrk(f"{bases[variant]}{path}", 1, latency=False, connections=CONNECTIONS)
        runs = {variant: [] for variant in variants}
        for _ in range(ROUNDS):
            for variant in variants:
                output = wrk(f"{bases[variant]}{path}", DURATION, latency=False, connections=CONNECTIONS)
                if wrk_errors(output) != 0:
                    fail(output.rstrip("\n"))
                runs[variant].append(wrk_rps(output))

        def median(variant):
            return runs[variant][median_run(runs[variant])]

        def listed(variant):
            return "".join(f"{rate} " for rate in runs[variant])

        off, on = median("off"), median("on")
        print(f"{path}: off {float(off):.0f}, on {float(on):.0f} requests/s: metrics and access log cost "
              f"{cost(on, off):.1f} % (runs off: {listed('off')}; on: {listed('on')})")
        for variant in ("metrics", "log"):
            if runs.get(variant):
                print(f"  {variant} alone: {float(median(variant)):.0f} requests/s, cost "
                      f"{cost(median(variant), off):.1f} % (runs: {listed(variant)})")
    log = (work / "on" / "server.log").read_text(errors="replace")
    lines = sum("[MicroHTTP] request" in line for line in log.splitlines())
    print(f'access-log lines written by the "on" server: {lines}')
    results_save()


if __name__ == "__main__":
    main()
