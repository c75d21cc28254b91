#!/usr/bin/env python3
"""Memory and startup scenario of the benchmark suite: a release tabconfig over a data directory holding 1,000,000
customizations of client ios-phone (users u0 … u999999, 4-7 tab ids and 0-1 hidden each), written by
BenchmarkSeeder through the store's own API. Measured twice on the same data: first with every customization in
the journal (the seeder never compacts), then after compacting them into the snapshot. Each time it measures the
time from exec to the first /readyz 200 (polled every 10 ms), VmRSS and VmHWM once ready, reads three seeded users
back (their stored order and hidden tabs, and their merged tab bar), and VmRSS again after that. The data
directory's files were just written, so they are in the page cache: this is a warm start. Prints a table and
  TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
for RSS and ready time (the worse of the two layouts; Benchmarks/Thresholds/memory.txt). Exits 1 if any is FAIL or
a read-back is wrong. What it prints is also written to Benchmarks/results/memory/<UTC date>-<commit>.md.

    Benchmarks/memory.py        (usually run by Benchmarks/run.py, which builds tabconfig once for every scenario)

Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_CUSTOMIZATIONS
(how many to seed, default 1000000). BenchmarkSeeder is built into .build-bench/ as well.
"""

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from harness import (Server, disk_of, env_int, fail, finish, get, install_missing, mark_failed, print_machine,
                     release_binary, results_start, spawn, swift_product, target, workdir)

COUNT = env_int("BENCH_CUSTOMIZATIONS", 1000000)


def status_mb(pid):
    """VmRSS and VmHWM of process PID, in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


def start_until_ready(binary, store, log_path):
    """Starts tabconfig on STORE and polls /readyz every 10 ms, at most 60 s; the process, its port and the seconds
    from exec to the first 200 (None: not ready)."""
    start = time.monotonic()
    server = spawn([binary, "serve", "--port", "0", "--data-dir", store], log=log_path,
                   env={"TABCONFIG_ADMIN_TOKEN": "bench"})
    port = None
    while time.monotonic() - start < 60 and server.poll() is None:
        if port is None:
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", Path(log_path).read_text(errors="replace"))
            port = int(found.group(1)) if found else None
        if port is not None and get(f"http://127.0.0.1:{port}/readyz").status == 200:
            return server, port, time.monotonic() - start
        time.sleep(0.01)
    return server, port, None


def read_samples(port, samples):
    """Reads the seeder's sample users back (their stored order and hidden tabs, and their merged tab bar), printing
    each; whether all are as seeded."""
    base = f"http://127.0.0.1:{port}"
    reads_ok = True
    for sample in samples:
        user, order, hidden = sample.split()
        expected_order = order.split(",")
        expected_hidden = [] if hidden == "-" else hidden.split(",")
        answer = get(f"{base}/v1/clients/ios-phone/users/{user}/tab-order")
        stored = json.loads(answer.body) if answer.status == 200 else {}
        tabs = get(f"{base}/v1/clients/ios-phone/users/{user}/tabs?locale=en")
        tab_ids = [tab["id"] for tab in json.loads(tabs.body).get("tabs", [])] if tabs.status == 200 else []
        # The merged tab bar places locked and unordered tabs at their default slots and the user's in the user's
        # order.
        merged_order = [tab for tab in tab_ids if tab in expected_order]
        good = (answer.status == 200 and stored.get("order") == expected_order
                and stored.get("hidden") == expected_hidden and tabs.status == 200 and merged_order == expected_order
                and not set(expected_hidden) & set(tab_ids))
        reads_ok &= good
        print(f"  {user}: tab-order {answer.status} order={','.join(stored.get('order', []))} "
              f"hidden={','.join(stored.get('hidden', [])) or '-'} revision={stored.get('revision')}; "
              f"tabs {tabs.status} {','.join(tab_ids)} "
              + ("(as seeded)" if good else f"(EXPECTED order={order} hidden={hidden})"))
    return reads_ok


def start_and_measure(binary, work, samples):
    """Starts tabconfig on WORK/store, prints its findings and returns (ready seconds, VmRSS MB at ready, VmHWM MB at
    ready, VmRSS MB after the reads, reads and shutdown ok), "-" for what it could not measure."""
    log_path = work / "server.log"
    server, port, ready = start_until_ready(binary, str(work / "store"), log_path)
    if ready is None:
        server.kill()
        server.wait()
        print(log_path.read_text(errors="replace"), end="")
        print("memory: tabconfig was not ready within 60 s")
        return "-", "-", "-", "-", False
    rss, hwm = status_mb(server.pid)
    print(f"ready {ready:.3f} s after exec (port {port}); VmRSS {rss:.1f} MB, VmHWM {hwm:.1f} MB")
    reads_ok = read_samples(port, samples)
    rss_after, _ = status_mb(server.pid)
    print(f"after the reads: VmRSS {rss_after:.1f} MB")
    server.send_signal(signal.SIGTERM)
    try:
        code = server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        code = "killed after 30 s"
    print(f"stopped with SIGTERM: exit {code}")
    return f"{ready:.3f}", f"{rss:.1f}", f"{hwm:.1f}", f"{rss_after:.1f}", reads_ok and code == 0


def size_mb(path):
    """Its size in MB with one decimal (0.0 when it does not exist)."""
    return f"{(path.stat().st_size if path.exists() else 0) / 1048576:.1f}"


def measure(binary, work, samples, name):
    """Runs start_and_measure and returns its findings, with the data's size on disk."""
    store = work / "store"
    total = sum(file.stat().st_size for file in store.rglob("*")) + store.stat().st_size
    disk = (f"journal {size_mb(store / 'customizations.journal')} MB, snapshot "
            f"{size_mb(store / 'customizations.snapshot')} MB, dir {total / 1048576:.1f} MB")
    print()
    print(f"== {name}: {disk}")
    *figures, ok = start_and_measure(binary, work, samples)
    if not ok:
        print(f"memory: {name}: a read-back or the shutdown failed", file=sys.stderr)
        mark_failed()
    return disk, *figures


def worst(values, digits):
    """The largest of VALUES with DIGITS decimals; "-" if one is not a number."""
    if any(not re.fullmatch(r"[0-9.]+", value) for value in values):
        return "-"
    return f"{max(float(value) for value in values):.{digits}f}"


def seed(seeder, store, *options):
    """Runs BenchmarkSeeder on STORE; its output lines."""
    print(f"memory: {seeder} {store} {' '.join(options)}")
    seeded = subprocess.run([seeder, str(store), *options], stdout=subprocess.PIPE, text=True)
    if seeded.returncode != 0:
        fail(f"memory: the seeder failed ({seeded.returncode})")
    return seeded.stdout.splitlines()


def main():
    # Nothing from apt: this program runs the start, the polling and the reads with a monotonic clock itself.
    install_missing("memory", [])
    binary = release_binary("memory")
    seeder = swift_product("memory", "BenchmarkSeeder")
    # The data directory is on disk (not tmpfs), under the repository's .build-bench/, removed at exit.
    work = workdir("memory")
    results_start()
    print(f"memory: data on {disk_of(work)} ({work})")
    print_machine()

    # A first start on the empty directory publishes the sample config (ios-phone), as in production before users
    # come.
    Server(binary, work, TABCONFIG_ADMIN_TOKEN="bench").stop()
    (work / "server.log").rename(work / "first-start.log")

    lines = seed(seeder, work / "store", "--count", str(COUNT), "--keep-journal")
    for line in lines:
        if not re.match(r"^  \d* written", line):
            print(line)
    samples = [line[len("sample "):] for line in lines if line.startswith("sample ")]
    if not samples:
        fail("memory: the seeder printed no sample users")

    rows = {"journal": measure(binary, work, samples, "journal")}
    print()
    for line in seed(seeder, work / "store", "--count", "0", "--compact"):
        if re.match(r"^(opened|compacted|customizations)", line):
            print(line)
    rows["snapshot"] = measure(binary, work, samples, "snapshot")

    print()
    row = "{:<10} {:<48} {:>9} {:>12} {:>12} {:>14}"
    print(row.format("layout", "on disk", "ready-s", "rss-mb", "hwm-mb", "rss-after-mb"))
    for name, values in rows.items():
        print(row.format(name, *values))
    print()
    # The worse layout of the two for each target; RSS is the larger of the readings at ready and after the reads.
    target("memory/rss-mb", worst([rows[name][index] for name in rows for index in (2, 4)], 1))
    target("memory/ready-seconds", worst([rows[name][1] for name in rows], 3))
    finish()


if __name__ == "__main__":
    main()
