#!/usr/bin/env python3
"""Read scenarios of the benchmark suite: GET of the default tab bar and GET of a user's tab bar (merged per request)
from a release tabconfig, and their revalidation (If-None-Match → 304, scenarios revalidate-default and
revalidate-user, tabconfig only), and both GETs with a targeting context (scenarios context-default and context-user:
Benchmarks/targeted-config.json, whose three conditions, rollout and experiment the context exercises; tabconfig, the
ceiling and the floor only), and a user's tab bar with five tabs the user opened (scenario user-5-open, tabconfig, the
ceiling and the floor only), and the default tab bar for an app build whose registered manifest holds 2,000 names
(scenario manifest-default, tabconfig only: against the same GET naming a build that has no manifest, scenario
no-manifest, measured in the same rounds on the same process), and the tab bars of 10,000 distinct users read
round-robin (scenario users-10k: users u0 … u9999 as Tests/Tools/BenchmarkSeeder writes them, 4 to 7 tabs and 0 or 1
hidden each, asked for in turn by Benchmarks/many-users.lua; tabconfig and the ceiling, which answers every such path
with the bytes of the user of median size), and the default tab bar in brotli (scenario get-default-br:
Accept-Encoding: br, the form prepared once with the answer; tabconfig only, against its identity GET of get-default
measured back to back on the same process in every round) and its revalidation with the br form's tag (scenario
revalidate-default-br, tabconfig only), against references serving the same bytes at the same paths: a minimal
libmicrohttpd C program (Benchmarks/ceiling/, the ceiling of this stack; in get-default also the same program creating
a response per request with tabconfig's header fields and an id of its own, as MicroHTTP must, "C, response per
request"), tabconfig's own HTTP layer answering with prepared responses and nothing on top (Benchmarks/http-floor/,
the floor: the most any handler on MicroHTTP can reach), nginx serving them as static files (Benchmarks/nginx/) and a
minimal Hummingbird 2 app (Benchmarks/hummingbird-reference/). Every server gets the same number of worker threads
(nproc - 1, at least 1: wrk's one thread holds a core) and the same wrk command; the servers all start first and the
rounds are interleaved (each round measures every server in turn, one at a time), so that a slow stretch of a shared
machine lands on all of them. tabconfig runs as shipped: access log (to a file) and metrics on. Prints a table of
requests/s, p50/p99, the server's CPU per request of that run (user + system microseconds, from /proc: steadier than
requests/s on a shared machine, since wrk and the server split two cores) and tabconfig ÷ reference, a FIGURE line
per scenario and server (median requests/s, CPU per request), and lines
  TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
for the ratio targets (Benchmarks/Thresholds/reads.txt) and for zero non-2xx responses and socket errors in every
run, and, with the compressed scenarios, for the default tab bar's brotli and gzip bytes ÷ its identity bytes
(bytes/br/identity, bytes/gzip/identity: curl's raw bytes, no --compressed). Exits 1 if any is FAIL. What it prints
from the first server's start on is also written to Benchmarks/results/reads/<UTC date>-<commit>.md, its figures and
targets to the .json beside it (Benchmarks/harness.py, results_start).

    Benchmarks/reads.py          (usually run by Benchmarks/run.py, which builds tabconfig once for every scenario)

Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_DURATION
(seconds per measured run, default 10), BENCH_ROUNDS (measured runs per server and scenario, default 5; the
median one is reported), BENCH_SERVER_THREADS (every server's worker threads: tabconfig's TABCONFIG_THREADS, the
ceiling's and the floor's pools, nginx's worker_processes, Hummingbird's event loops; default nproc - 1, at least 1),
BENCH_MHD_MODE (poll|epoll|select|per-connection) and BENCH_MHD_TURBO=1 to run the ceiling otherwise than the
service (by default it uses the mode and MHD_USE_TURBO read from the service's sources), BENCH_BASELINE_BINARY (a
release tabconfig of another commit, measured in every round beside the others as "baseline": a before/after
comparison under the same interleaving; in the targeting and open-tab scenarios too when it answers them with
tabconfig's bytes, in manifest-default when it registers the manifest and answers with tabconfig's tabs),
BENCH_BASELINE_ENV (NAME=VALUE words for the baseline only, e.g. TABCONFIG_ACCESS_LOG=false with the same binary as
baseline to measure what the access log costs), BENCH_USERS (the users of users-10k, default 10000),
BENCH_SCENARIOS (the scenarios to run, separated by spaces or commas, default all of get-default get-default-br
get-user revalidate-default revalidate-default-br revalidate-user context-default context-user user-5-open
manifest-default users-10k; only the servers and references those need are built and started, and only their TARGET
lines are printed; e.g. BENCH_SCENARIOS=manifest-default runs tabconfig alone, manifest-default against no-manifest,
and BENCH_SCENARIOS=get-default-br tabconfig alone, get-default-br against its get-default).
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from harness import (CONNECTIONS, WARMUP, Server, cpu_per_request, cpu_sum, cpu_ticks, disk_of, env_int, fail, fetch,
                     fields_of, figure, finish, free_port, get, install_missing, median_run, missing, output_of,
                     print_machine, process_tree, ratio, release_binary, request, results_start, run, send_json,
                     server_threads, spawn, swift_product, target, tool_path, wait_ready, workdir, wrk, wrk_errors,
                     wrk_percentile, wrk_requests, wrk_rps)

DURATION = env_int("BENCH_DURATION", 10)
ROUNDS = env_int("BENCH_ROUNDS", 5)

# The scenarios to run (BENCH_SCENARIOS), in the table's order.
ALL_SCENARIOS = ["get-default", "get-default-br", "get-user", "revalidate-default", "revalidate-default-br",
                 "revalidate-user", "context-default", "context-user", "user-5-open", "manifest-default", "users-10k"]

DEFAULT_PATH = "/v1/clients/ios-phone/tabs"
USER_PATH = "/v1/clients/ios-phone/users/bench-user/tabs"
QUERY = "?locale=en"
# The targeting scenarios: their own client, and a context that keeps all three gated tabs, falls in the rollout
# (the device's bucket is below 0.5) and in the experiment.
CONTEXT_DEFAULT_PATH = "/v1/clients/bench-targeted/tabs"
CONTEXT_USER_PATH = "/v1/clients/bench-targeted/users/bench-user/tabs"
CONTEXT_QUERY = "?locale=en&platform=ios&appVersion=5.2.0&osVersion=17.4&country=FR&deviceId=bench-device-3"
# Scenario user-5-open: a user with the same order and five tabs opened from the sample's templates.
OPENER_PATH = "/v1/clients/ios-phone/users/bench-opener/tabs"
# Scenario manifest-default: the default tab bar for build ios 5.2.0, whose registered manifest holds MANIFEST_NAMES
# names (every class, nib, storyboard and scheme the live config's tabs and templates need, the rest filler view
# controller classes); its reference no-manifest: the same GET for ios 5.3.0, which has no manifest.
MANIFEST_NAMES = 2000
MANIFEST_PATH = "/v1/clients/ios-phone/builds/ios/5.2.0"
MANIFEST_QUERY = f"{QUERY}&platform=ios&appVersion=5.2.0"
NO_MANIFEST_QUERY = f"{QUERY}&platform=ios&appVersion=5.3.0"
USER_ORDER = '{"order": ["profile","favorites","search","home"], "hidden": ["settings"]}'
OPENED_TABS = [
    '"document","name":"q1-report","parameters":{"docId":"101"},"title":"Q1 report"',
    '"document","name":"q2-report","parameters":{"docId":"102"},"title":"Q2 report"',
    '"document","name":"q3-report","parameters":{"docId":"103"}',
    '"web","name":"news","parameters":{"url":"https://example.com/news"},"title":"News"',
    '"web","name":"docs","parameters":{"url":"https://example.com/docs"}',
]
LABEL = {"tabconfig": "tabconfig", "baseline": "tabconfig baseline", "ceiling": "C libmicrohttpd (ceiling)",
         "floor": "MicroHTTP only (floor)", "per-request": "C, response per request", "nginx": "nginx static",
         "hummingbird": "Hummingbird 2"}


class Differs(Exception):
    """A server does not answer as tabconfig does (a baseline that cannot is left out; tabconfig itself fails)."""


def check(condition, message):
    if not condition:
        raise Differs(message)


def requested_scenarios():
    """BENCH_SCENARIOS, checked; exits 2 on a name it does not know or on none."""
    scenarios = [name for name in re.split(r"[ ,\t]+", os.environ.get("BENCH_SCENARIOS") or " ".join(ALL_SCENARIOS))
                 if name]
    for name in scenarios:
        if name not in ALL_SCENARIOS:
            fail(f"reads: unknown scenario '{name}' in BENCH_SCENARIOS (known: {' '.join(ALL_SCENARIOS)})", 2)
    if not scenarios:
        fail("reads: BENCH_SCENARIOS names no scenario", 2)
    return scenarios


SCENARIOS = requested_scenarios()


def selected(*names):
    """Whether any of the scenarios NAMES is to run."""
    return any(name in SCENARIOS for name in names)


# The ceiling and the floor serve the context-free, targeting and open-tab bodies; nginx and Hummingbird the
# context-free ones.
NEED_REFERENCES = selected("get-default", "get-user", "context-default", "context-user", "user-5-open", "users-10k")
NEED_STATIC = selected("get-default", "get-user")
# The compressed scenarios: tabconfig (and a baseline answering as it does) alone, the identity GET of get-default
# their reference, and the byte-size targets.
NEED_COMPRESSED = selected("get-default-br", "revalidate-default-br")


# --- preparing a tabconfig ------------------------------------------------------------------------------------------

def prepare_user(base, client="ios-phone"):
    """Saves the benchmark user's tab order on a tabconfig at BASE."""
    answer = send_json(f"{base}/v1/clients/{client}/users/bench-user/tab-order", USER_ORDER)
    check(answer.status == 200, f"PUT tab-order answered {answer.status}: {answer.body.decode(errors='replace')}")


def prepare_opener(base):
    """Saves bench-opener's tab order and opens five tabs for it (three documents, two web pages)."""
    answer = send_json(f"{base}/v1/clients/ios-phone/users/bench-opener/tab-order", USER_ORDER)
    check(answer.status == 200, f"PUT bench-opener's tab-order answered {answer.status}")
    for tab in OPENED_TABS:
        answer = send_json(f"{base}/v1/clients/ios-phone/users/bench-opener/dynamic-tabs", f'{{"template":{tab}}}',
                          method="POST")
        check(answer.status == 201,
              f"POST dynamic-tabs answered {answer.status}: {answer.body.decode(errors='replace')}")


def publish_targeted(base):
    """Publishes Benchmarks/targeted-config.json as client bench-targeted on a tabconfig at BASE."""
    config = Path("Benchmarks/targeted-config.json").read_bytes()
    answer = send_json(f"{base}/v1/clients/bench-targeted/config", config, token="bench")
    check(answer.status in (200, 201), f"PUT config answered {answer.status}: {answer.body.decode(errors='replace')}")


def manifest_of(config, count, leave_out=()):
    """A build manifest of COUNT names holding every view controller class and nib, storyboard and URL scheme other
    than http(s) that a destination in CONFIG (the JSON of GET …/config, read anywhere in it: tabs, children,
    templates) names, but the LEAVE_OUT names, and filler view controller classes; and how many of each."""
    names = {"viewControllers": set(), "nibs": set(), "storyboards": set(), "urlSchemes": set()}

    def walk(value):
        if isinstance(value, list):
            for element in value:
                walk(element)
        elif isinstance(value, dict):
            destination = value.get("destination")
            if isinstance(destination, dict):
                kind = destination.get("type")
                if kind == "viewController":
                    names["viewControllers"].add(destination["name"])
                    if destination.get("nib"):
                        names["nibs"].add(destination["nib"])
                elif kind == "storyboard":
                    names["storyboards"].add(destination["name"])
                elif kind == "url":
                    scheme = destination["url"].split(":", 1)[0].lower()
                    if scheme not in ("http", "https"):
                        names["urlSchemes"].add(scheme)
            for member in value.values():
                walk(member)

    walk(config)
    for name in leave_out:
        for kind in names.values():
            kind.discard(name)
    needed = sum(map(len, names.values()))
    check(0 < needed <= count,
          f"the config's destinations name {needed} classes, nibs, storyboards and schemes; {count} wanted")
    filler = 0
    while sum(map(len, names.values())) < count:
        names["viewControllers"].add(f"BenchFiller{filler:05d}ViewController")
        filler += 1
    manifest = json.dumps({"buildNumber": "1", **{kind: sorted(values) for kind, values in names.items()}})
    counts = ", ".join(f"{len(values) - (filler if kind == 'viewControllers' else 0)} {kind}"
                       for kind, values in names.items())
    return manifest, f"{needed} names the config's destinations need: {counts}; {filler} filler view controllers"


def tab_ids(body):
    """The ids of a tab bar's tabs, their children in parentheses, in order, on one line."""
    def ids(tabs):
        return [tab["id"] + ("(" + " ".join(ids(tab["children"])) + ")" if tab.get("children") else "")
                for tab in tabs]
    return " ".join(ids(json.loads(body)["tabs"]))


def register_manifest(base, manifest):
    """Registers MANIFEST as build ios 5.2.0's manifest on a tabconfig at BASE; its answer."""
    answer = send_json(f"{base}{MANIFEST_PATH}", manifest, token="bench")
    check(answer.status in (200, 201),
          f"PUT {MANIFEST_PATH} answered {answer.status}: {answer.body[:600].decode(errors='replace')}")
    return answer.body.decode(errors="replace")


def tab_bar(base, query):
    """The default tab bar for QUERY (a Differs unless 200)."""
    answer = get(f"{base}{DEFAULT_PATH}{query}")
    check(answer.status == 200, f"no 200 from {DEFAULT_PATH}{query}")
    return answer.body


def prepare_manifest(base):
    """Registers build ios 5.2.0's manifest on a tabconfig at BASE: first one lacking the search tab's storyboard, to
    see that manifest-default's GET resolves through it (the tab absent), then the one of MANIFEST_NAMES names with
    everything. Both GETs must then answer 200 with the same tabs, search among them. Returns both bodies and what
    the manifest holds."""
    answer = get(f"{base}/v1/clients/ios-phone/config", {"Authorization": "Bearer bench"})
    check(answer.status == 200, "no 200 from GET /v1/clients/ios-phone/config")
    config = json.loads(answer.body)
    register_manifest(base, manifest_of(config, MANIFEST_NAMES, ["SearchStoryboard"])[0])
    ids = tab_ids(tab_bar(base, MANIFEST_QUERY))
    check(" search " not in f" {ids} ",
          f"build ios 5.2.0 lacks SearchStoryboard, yet its tab bar has the search tab: {ids}")
    manifest, description = manifest_of(config, MANIFEST_NAMES)
    registered = register_manifest(base, manifest)
    check(re.search(rf'"names":{MANIFEST_NAMES}[,}}]', registered),
          f"the manifest registered is not of {MANIFEST_NAMES} names: {registered[:300]}")
    with_manifest, without = tab_bar(base, MANIFEST_QUERY), tab_bar(base, NO_MANIFEST_QUERY)
    ids = tab_ids(with_manifest)
    check(ids == tab_ids(without) and " search " in f" {ids} ",
          f"the tab bars of ios 5.2.0 ({ids}) and 5.3.0 ({tab_ids(without)}) differ")
    return with_manifest, without, description


def etag_of(url):
    """The ETag a HEAD of URL answers."""
    return request("HEAD", url).field("ETag")


def coded_default(base, coding, identity=None):
    """GETs the default tab bar from BASE with Accept-Encoding: CODING (identity: no Accept-Encoding), raw (no
    decoding); returns the answer. A Differs, saying why, unless the answer is a 200 whose Content-Encoding is CODING
    (none for identity), whose ETag is that of the server's IDENTITY answer (asked first) with ";CODING", whose Vary
    names Accept-Encoding, and whose body decodes to tabconfig's identity bytes."""
    headers = {} if coding == "identity" else {"Accept-Encoding": coding}
    answer = get(f"{base}{DEFAULT_PATH}{QUERY}", headers)
    check(answer.status == 200,
          f"GET {DEFAULT_PATH}{QUERY} with coding {coding} answered {answer.status or 'no answer'}")
    want_encoding = "" if coding == "identity" else coding
    encoding = answer.field("Content-Encoding")
    check(encoding == want_encoding, f"{coding}: Content-Encoding '{encoding}', not '{want_encoding}'")
    tag = answer.field("ETag")
    want_tag = tag if identity is None else re.sub(r'"$', f';{coding}"', identity.field("ETag"))
    check(tag and tag == want_tag, f"{coding}: ETag '{tag}', not '{want_tag}'")
    vary = answer.field("Vary")
    check("accept-encoding" in vary.lower(), f"{coding}: no Vary: Accept-Encoding ({vary})")
    # curl decodes it: the standard library has no brotli decoder.
    accept = ["-H", f"Accept-Encoding: {coding}"] if headers else []
    decoded = subprocess.run(["curl", "-s", "--compressed", *accept, f"{base}{DEFAULT_PATH}{QUERY}"],
                             capture_output=True).stdout
    check(decoded == www_file(DEFAULT_PATH).read_bytes(), f"{coding}: the body does not decode to the identity bytes")
    return answer


def coded_forms(base, codings):
    """The default tab bar from BASE in identity and each of CODINGS, checked (coded_default)."""
    identity = coded_default(base, "identity")
    return {"identity": identity, **{coding: coded_default(base, coding, identity) for coding in codings}}


# --- setup ----------------------------------------------------------------------------------------------------------

WORK = None
WWW = None


def www_file(path):
    """The file under www/ holding tabconfig's answer to PATH (what the references serve)."""
    return Path(f"{WWW}{path}")


def install_and_build():
    """Tools (wrk, nginx, gcc, curl from apt when missing; libmicrohttpd-dev and pkg-config through
    scripts/install-deps.sh), tabconfig, and the references the scenarios need, built before anything is measured."""
    global WORK, WWW
    install_missing("reads", missing("wrk", *(["nginx"] if NEED_STATIC else []), "gcc", "curl"))
    release_binary("reads")
    # Everything of this run lives in one directory on disk (not tmpfs: the store fsyncs), removed at exit.
    WORK = workdir("reads")
    WWW = WORK / "www"
    print(f"reads: data on {disk_of(WORK)} ({WORK})")
    built = {}
    if NEED_REFERENCES:
        print("reads: gcc -O2 Benchmarks/ceiling/ceiling.c")
        flags = output_of(["pkg-config", "--cflags", "--libs", "libmicrohttpd"]).split()
        run(["gcc", "-O2", "-Wall", "-o", f"{WORK}/ceiling", "Benchmarks/ceiling/ceiling.c", *flags])
        built["floor"] = swift_product("reads", "HTTPFloor", "Benchmarks/http-floor", "MicroHTTP on its own")
    if selected("users-10k"):
        built["seeder"] = swift_product("reads", "BenchmarkSeeder")
    if NEED_STATIC:
        built["hummingbird"] = swift_product("reads", "HummingbirdReference", "Benchmarks/hummingbird-reference",
                                             "minutes the first time")
    return built


def ceiling_flags(threads):
    """The ceiling polls like the service: mode and turbo flag read from its sources unless overridden."""
    source = Path("Sources/MicroHTTP/Daemon/Daemon.swift").read_text()
    mode = os.environ.get("BENCH_MHD_MODE")
    if not mode:
        mode = "poll"
        if "MHD_USE_THREAD_PER_CONNECTION" in source:
            mode = "per-connection"
        elif "MHD_USE_EPOLL" in source and not re.search(r"MHD_USE_POLL\b", source):
            mode = "epoll"
        elif not re.search(r"MHD_USE_POLL\b", source):
            mode = "select"
    turbo = os.environ.get("BENCH_MHD_TURBO") or ("1" if "MHD_USE_TURBO" in source else "0")
    return ["--mode", mode, "--threads", str(threads), *(["--turbo"] if turbo == "1" else [])]


def seed_users(seeder, data):
    """Scenario users-10k: the users are written into a tabconfig's store before it opens it (the seeder publishes
    the sample config on an empty one, as the first start does)."""
    if not selected("users-10k"):
        return
    Path(data).mkdir(parents=True, exist_ok=True)
    with open(f"{data}/seeder.log", "wb") as log:
        seeded = subprocess.run([seeder, f"{data}/store", "--count", os.environ["BENCH_USERS"], "--samples", "0"],
                                stdout=log, stderr=subprocess.STDOUT)
    if seeded.returncode != 0:
        print(Path(f"{data}/seeder.log").read_text(errors="replace"), end="", file=sys.stderr)
        fail("reads: the seeder failed")


def many_users(base, users):
    """Scenario users-10k: the sizes of the users' tab bars (every 100th user's), and the one of median size, which
    the ceiling serves for every user's path (written to www/many-users.json); a line saying so."""
    bodies = []
    for user in range(0, users, 100):
        answer = get(f"{base}/v1/clients/ios-phone/users/u{user}/tabs?locale=en")
        if answer.status != 200:
            fail(f"reads: GET of user u{user}'s tab bar answered {answer.status}: {answer.body[:300]!r}")
        bodies.append(answer.body)
    bodies.sort(key=len)
    median = bodies[len(bodies) // 2]
    (WWW / "many-users.json").write_bytes(median)
    return (f"{len(bodies)} of them read, {len(bodies[0])} to {len(bodies[-1])} bytes, "
            f"{sum(map(len, bodies)) / len(bodies):.0f} on average; the ceiling serves one of {len(median)} bytes")


def save_bodies(base):
    """Tabconfig first: it answers the bodies every reference then serves (into www/)."""
    for path in (DEFAULT_PATH, USER_PATH, CONTEXT_DEFAULT_PATH, CONTEXT_USER_PATH, OPENER_PATH):
        www_file(path).parent.mkdir(parents=True, exist_ok=True)
    www_file(DEFAULT_PATH).write_bytes(fetch(f"{base}{DEFAULT_PATH}{QUERY}", "reads"))
    prepare_user(base)
    www_file(USER_PATH).write_bytes(fetch(f"{base}{USER_PATH}{QUERY}", "reads"))
    publish_targeted(base)
    prepare_user(base, "bench-targeted")
    for path in (CONTEXT_DEFAULT_PATH, CONTEXT_USER_PATH):
        www_file(path).write_bytes(fetch(f"{base}{path}{CONTEXT_QUERY}", "reads"))
    prepare_opener(base)
    opener = fetch(f"{base}{OPENER_PATH}{QUERY}", "reads")
    www_file(OPENER_PATH).write_bytes(opener)
    check(opener.count(b'"dynamic":') == 5,
          f"bench-opener's tab bar lacks its five open tabs: {opener.decode(errors='replace')}")
    targeted = www_file(CONTEXT_DEFAULT_PATH).read_bytes()
    check(b'"experiment":{"key":"bar-order"' in targeted and b'"id":"rewards"' in targeted
          and b'"id":"shop"' in targeted,
          f"the targeted tab bar lacks the experiment or a gated tab: {targeted.decode(errors='replace')}")


class Servers:
    """The servers under measurement: each one's base URL and process (nginx's master, whose workers are its
    children), for its CPU per request."""

    def __init__(self):
        self.bases, self.pids = {}, {}

    def add(self, name, base, pid):
        self.bases[name], self.pids[name] = base, pid

    def start(self, name, command, url_path, logs, env=None):
        """Starts a reference on a free port (COMMAND: a function of the port) and waits until URL_PATH answers 200,
        at most 20 s; else prints the server's logs and fails."""
        port = free_port()
        process = spawn(command(port), log=logs[0], env=env)
        base = f"http://127.0.0.1:{port}"
        if not wait_ready(f"{base}{url_path}", process):
            for log in logs:
                print(Path(log).read_text(errors="replace") if Path(log).exists() else "", end="", file=sys.stderr)
            fail(f"reads: no 200 from {base}{url_path}")
        self.add(name, base, process.pid)


def start_references(servers, threads, flags, built):
    """The ceiling, the floor and the ceiling with a response per request; nginx and Hummingbird."""
    base = servers.bases["tabconfig"]
    if NEED_REFERENCES:
        routes = [f"{path}={www_file(path)}" for path in (DEFAULT_PATH, USER_PATH, CONTEXT_DEFAULT_PATH,
                                                           CONTEXT_USER_PATH, OPENER_PATH)]
        if selected("users-10k"):
            routes.append(f"/v1/clients/ios-phone/users/u*={WWW}/many-users.json")
        servers.start("ceiling", lambda port: [f"{WORK}/ceiling", "--port", port, *flags, *routes], DEFAULT_PATH,
                      [f"{WORK}/ceiling.log"])
        # The floor answers every path with tabconfig's bytes and header fields.
        floor_routes = []
        for path in (DEFAULT_PATH, USER_PATH, CONTEXT_DEFAULT_PATH, CONTEXT_USER_PATH, OPENER_PATH):
            query = CONTEXT_QUERY if path in (CONTEXT_DEFAULT_PATH, CONTEXT_USER_PATH) else QUERY
            Path(f"{www_file(path)}.fields").write_text(fields_of(f"{base}{path}{query}"))
            floor_routes.append(f"{path}={www_file(path)},{www_file(path)}.fields")
        servers.start("floor", lambda port: [built["floor"], port, threads, *floor_routes], DEFAULT_PATH,
                      [f"{WORK}/floor.log"])
        # get-default's third reference: the ceiling creating a response per request, with the default tab bar's
        # header fields and an X-Request-Id of its own, as MicroHTTP must (the floor's own C part).
        if selected("get-default"):
            servers.start("per-request", lambda port: [
                f"{WORK}/ceiling", "--port", port, *flags, "--per-request", f"{www_file(DEFAULT_PATH)}.fields",
                f"{DEFAULT_PATH}={www_file(DEFAULT_PATH)}", f"{USER_PATH}={www_file(USER_PATH)}"],
                DEFAULT_PATH, [f"{WORK}/per-request.log"])
    if NEED_STATIC:
        def nginx(port):
            config = Path("Benchmarks/nginx/nginx.conf.template").read_text()
            for key, value in (("@DIR@", str(WORK)), ("@PORT@", str(port)), ("@WORKERS@", str(threads)),
                               ("@USER@", "user root;" if os.geteuid() == 0 else "")):
                config = config.replace(key, value)
            Path(f"{WORK}/nginx.conf").write_text(config)
            return [tool_path("nginx"), "-e", f"{WORK}/error.log", "-c", f"{WORK}/nginx.conf", "-g", "daemon off;"]
        servers.start("nginx", nginx, DEFAULT_PATH, [f"{WORK}/nginx.log", f"{WORK}/error.log"])
        routes = [f"{DEFAULT_PATH}={www_file(DEFAULT_PATH)}", f"{USER_PATH}={www_file(USER_PATH)}"]
        servers.start("hummingbird", lambda port: [built["hummingbird"], port, *routes], DEFAULT_PATH,
                      [f"{WORK}/hummingbird.log"], env={"NIO_SINGLETON_GROUP_LOOP_COUNT": str(threads)})


def verify(server, base, expected):
    """The server answers both context-free paths with the same bytes as tabconfig, as EXPECTED content type."""
    for path in (DEFAULT_PATH, USER_PATH):
        answer = get(f"{base}{path}{QUERY}")
        kind = answer.field("Content-Type") if answer.status == 200 else "no 200"
        if answer.body != www_file(path).read_bytes() or kind != expected:
            fail(f"reads: {server} answers {path} with other bytes or type ({kind}, {len(answer.body)} bytes)")
    print(f"{server}: both bodies byte-identical to tabconfig's ({www_file(DEFAULT_PATH).stat().st_size} and "
          f"{www_file(USER_PATH).stat().st_size} bytes), {expected}")


def verify_context(server, base):
    """The server answers both targeting paths and the open tabs' path with tabconfig's bytes (a Differs, saying
    which path differs, if not)."""
    for path, query in ((CONTEXT_DEFAULT_PATH, CONTEXT_QUERY), (CONTEXT_USER_PATH, CONTEXT_QUERY),
                        (OPENER_PATH, QUERY)):
        answer = get(f"{base}{path}{query}")
        check(answer.status == 200 and answer.body == www_file(path).read_bytes(),
              f"{server} answers {path} with other bytes")


def baseline_joins(attempt, joined, left_out):
    """Whether the baseline answers a scenario as tabconfig does (ATTEMPT raises Differs if not); says which."""
    try:
        attempt()
    except Differs:
        print(f"baseline: left out of {left_out}")
        return False
    print(f"baseline: {joined}")
    return True


# --- measuring ------------------------------------------------------------------------------------------------------

RUNS = {}   # (scenario, server, round): (wrk's output, the server's CPU per request as (user, system))
STATS = {}  # (scenario, server): the median run's "rps", "p50", "p99", "cpu"; "runs", every run's requests/s


def measure(servers, scenario, server, url, round_number, *options):
    """One measured wrk run, its output and the server's CPU per request kept for the summary."""
    processes = process_tree(servers.pids[server])
    before = cpu_ticks(processes)
    output = wrk(url, DURATION, *options)
    after = cpu_ticks(processes)
    if not re.search(r"^Requests/sec:", output, re.M):
        print(output.rstrip("\n"), file=sys.stderr)
    for line in output.splitlines():
        if re.search("Non-2xx|Socket errors", line):
            print(re.sub(r"^ *", f"{scenario} {server}: ", line), file=sys.stderr)
    RUNS[(scenario, server, round_number)] = output, cpu_per_request(before, after, wrk_requests(output))


def summarize(scenario, server):
    """Records requests/s, p50 and p99 of the run with the median requests/s and every run's requests/s, and checks
    the errors of every run."""
    runs = [RUNS[(scenario, server, round_number)] for round_number in range(ROUNDS)]
    rates = [wrk_rps(output) or "0" for output, _ in runs]
    output, cpu = runs[median_run(rates)]
    STATS[(scenario, server)] = {"rps": rates[median_run(rates)], "p50": wrk_percentile(output, 50),
                                 "p99": wrk_percentile(output, 99), "cpu": cpu,
                                 "runs": " ".join(f"{float(rate):.0f}" for rate in rates)}
    target(f"errors/{scenario}/{server}", sum(wrk_errors(output) for output, _ in runs), "==", 0)


def rps(scenario, server):
    return STATS.get((scenario, server), {}).get("rps", "")


def cpu_of(scenario, server):
    """User + system CPU per request of the reported run, as a number."""
    return float(cpu_sum(STATS.get((scenario, server), {}).get("cpu", ())))


def quotient(a, b):
    """A ÷ B of two requests/s (NaN when B is none)."""
    a, b = float(a or 0), float(b or 0)
    return a / b if b else float("nan")


def server_ratio(scenario, server):
    """tabconfig's median requests/s ÷ SERVER's in SCENARIO."""
    return ratio(rps(scenario, "tabconfig"), rps(scenario, server))


def scenario_ratio(server, a, b):
    """SERVER's median requests/s of scenario A ÷ that of scenario B, to three decimals (a target's 0.952 needs
    them)."""
    return ratio(rps(a, server), rps(b, server), 3)


def pair_line(server, a, b, what):
    """A ÷ B of a pair of scenarios measured back to back on SERVER: of the medians (the target), of the CPU per
    request of those runs, and of each round's pair."""
    each = " ".join(ratio(wrk_rps(RUNS[(a, server, n)][0]), wrk_rps(RUNS[(b, server, n)][0]), 3)
                    for n in range(ROUNDS))
    print(f"{LABEL[server]} {a} ÷ {b} ({what}, requests/s): {scenario_ratio(server, a, b)}; CPU per request "
          f"{cpu_of(a, server):.1f} us against {cpu_of(b, server):.1f} us; each round: {each}")


class Suite:
    """This run's servers, and which of them each scenario measures (lists in the table's order)."""

    def __init__(self, built):
        self.built = built
        # wrk runs one thread on this machine, so every server gets the other cores. (On 2 cores, two libmicrohttpd
        # threads split wrk's 64 connections between them at random, and a run's rate then depends on that split;
        # one thread does not split. nginx and Hummingbird measured no slower with one worker than with two:
        # Benchmarks/results/reads/unknown-unknown-threading.md.)
        self.threads = server_threads()
        self.flags = ceiling_flags(self.threads)
        self.users = int(os.environ["BENCH_USERS"])
        self.baseline = os.environ.get("BENCH_BASELINE_BINARY")
        self.servers = Servers()
        self.bases = self.servers.bases
        self.services = ["tabconfig"]  # the tabconfig builds: the revalidation scenarios
        self.plain = []  # the context-free GETs: the builds and the references
        self.per_request, self.br, self.context, self.many, self.manifest = [], [], [], [], []
        self.tags, self.br_forms = {}, {}
        self.coded, self.manifest_bodies, self.byte_ratios = None, None, None

    def start_tabconfig(self):
        """tabconfig first: it answers the bodies every reference then serves. As shipped: the access log (into
        server.log) and the metrics on. Returns the lines print_setup adds for users-10k and manifest-default."""
        seed_users(self.built.get("seeder"), WORK / "tabconfig")
        tabconfig = Server(os.environ["TABCONFIG_BINARY"], WORK / "tabconfig", TABCONFIG_ADMIN_TOKEN="bench",
                           TABCONFIG_THREADS=str(self.threads))
        self.servers.add("tabconfig", tabconfig.base, tabconfig.pid)
        save_bodies(tabconfig.base)
        users_line = manifest_description = None
        if selected("manifest-default"):
            *self.manifest_bodies, manifest_description = prepare_manifest(tabconfig.base)
            (WWW / "manifest-default.json").write_bytes(self.manifest_bodies[0])
            (WWW / "no-manifest.json").write_bytes(self.manifest_bodies[1])
        if selected("users-10k"):
            users_line = many_users(tabconfig.base, self.users)
        # The default tab bar in each coding, raw: the byte-size targets, and the br form the compressed scenarios
        # ask for.
        if NEED_COMPRESSED:
            self.coded = coded_forms(tabconfig.base, ["gzip", "br"])
            self.byte_ratios = tuple(f"{len(self.coded[coding].body) / len(self.coded['identity'].body):.3f}"
                                     for coding in ("br", "gzip"))
        return users_line, manifest_description

    def print_setup(self, users_line, manifest_description):
        size = {path: www_file(path).stat().st_size for path in (DEFAULT_PATH, USER_PATH, CONTEXT_DEFAULT_PATH,
                                                                  CONTEXT_USER_PATH, OPENER_PATH)}
        print_machine()
        print(f"bodies: default tab bar {size[DEFAULT_PATH]} bytes ({DEFAULT_PATH}{QUERY}), user tab bar "
              f"{size[USER_PATH]} bytes ({USER_PATH}{QUERY})")
        print(f"open tabs: user tab bar with five open tabs {size[OPENER_PATH]} bytes ({OPENER_PATH}{QUERY})")
        print(f"targeting: default tab bar {size[CONTEXT_DEFAULT_PATH]} bytes "
              f"({CONTEXT_DEFAULT_PATH}{CONTEXT_QUERY}), user tab bar {size[CONTEXT_USER_PATH]} bytes "
              f"({CONTEXT_USER_PATH}{CONTEXT_QUERY})")
        if selected("users-10k"):
            print(f"users: {self.users} users (u0 … u{self.users - 1}, seeded) read in turn "
                  f"(Benchmarks/many-users.lua); {users_line}")
        if selected("manifest-default"):
            with_manifest, without = self.manifest_bodies
            same = "are byte-identical" if with_manifest == without else "differ"
            print(f"manifest: build ios 5.2.0 registered with a manifest of {MANIFEST_NAMES} names "
                  f"({manifest_description}); default tab bar {len(with_manifest)} bytes "
                  f"({DEFAULT_PATH}{MANIFEST_QUERY}), against {len(without)} bytes for ios 5.3.0, which has no "
                  f"manifest ({NO_MANIFEST_QUERY}): both 200, the same tabs ({tab_ids(with_manifest)}), the bodies "
                  f"{same}")
        if NEED_COMPRESSED:
            sizes = {coding: len(answer.body) for coding, answer in self.coded.items()}
            tags = ", ".join(self.coded[coding].field("ETag") for coding in ("identity", "gzip", "br"))
            print(f"compressed: default tab bar {sizes['identity']} bytes identity, {sizes['gzip']} gzip "
                  f"({self.byte_ratios[1]}), {sizes['br']} br ({self.byte_ratios[0]}) ({DEFAULT_PATH}{QUERY}, curl "
                  f"without --compressed); ETags {tags}; Content-Encoding none, gzip, br; each decodes to the "
                  "identity bytes")
        print(f"{self.threads} worker thread(s) per server; {WARMUP}s warm-up, then {ROUNDS} rounds of wrk -t1 "
              f"-c{CONNECTIONS} -d{DURATION}s --latency URL against each server in turn (the median run is reported)")
        settings = f"tabconfig: TABCONFIG_THREADS={self.threads}"
        if NEED_REFERENCES:
            settings = f"ceiling: libmicrohttpd 0.9.75 {' '.join(self.flags)}; {settings}"
        if NEED_STATIC:
            settings += (f"; nginx: worker_processes {self.threads}; Hummingbird: "
                         f"NIO_SINGLETON_GROUP_LOOP_COUNT={self.threads}")
        print(settings)
        print(f"scenarios: {' '.join(SCENARIOS)}")

    def start_baseline(self):
        """BENCH_BASELINE_BINARY beside tabconfig, with the NAME=VALUE words of BENCH_BASELINE_ENV."""
        if self.baseline:
            seed_users(self.built.get("seeder"), WORK / "baseline")
            extra = dict(word.split("=", 1) for word in (os.environ.get("BENCH_BASELINE_ENV") or "").split())
            baseline = Server(self.baseline, WORK / "baseline", TABCONFIG_ADMIN_TOKEN="bench",
                              TABCONFIG_THREADS=str(self.threads), **extra)
            self.servers.add("baseline", baseline.base, baseline.pid)
            prepare_user(baseline.base)
            self.services.append("baseline")
        self.plain = self.services + (["ceiling", "floor"] if NEED_REFERENCES else []) + \
            (["nginx", "hummingbird"] if NEED_STATIC else [])

    def check_tags(self):
        """The tags each tabconfig answers, for the revalidation scenarios, each answering a 304."""
        for server in self.services:
            for kind, path in (("default", DEFAULT_PATH), ("user", USER_PATH)):
                url = f"{self.bases[server]}{path}{QUERY}"
                self.tags[(server, kind)] = etag_of(url)
                code = get(url, {"If-None-Match": self.tags[(server, kind)]}).status
                if code != 304:
                    fail(f"reads: {server} answers If-None-Match on {path} with {code}, not 304")

    def choose_br(self):
        """Scenarios get-default-br and revalidate-default-br: tabconfig, and a baseline that answers the default tab
        bar in brotli with tabconfig's bytes and header fields (a build from before compressed answers does not).
        The br form's tag must answer a 304 when the request asks for br."""
        if not NEED_COMPRESSED:
            return
        self.br, self.br_forms["tabconfig"] = ["tabconfig"], self.coded["br"]

        def baseline_br():
            self.br_forms["baseline"] = coded_forms(self.bases["baseline"], ["br"])["br"]
            check(self.br_forms["baseline"].body == self.coded["br"].body, "other br bytes")
        if self.baseline and baseline_joins(
                baseline_br, "the default tab bar's br form byte-identical to tabconfig's",
                "get-default-br and revalidate-default-br (it cannot answer them as tabconfig does)"):
            self.br.append("baseline")
        for server in self.br:
            tag = self.tags[(server, "default-br")] = self.br_forms[server].field("ETag")
            answer = get(f"{self.bases[server]}{DEFAULT_PATH}{QUERY}",
                         {"Accept-Encoding": "br", "If-None-Match": tag})
            if answer.status != 304 or answer.body:
                fail(f"reads: {server} answers br with If-None-Match: {tag} with {answer.status}, not 304")

    def verify_references(self):
        """The references serve plain application/json; a baseline tabconfig and the floor answer as tabconfig
        does."""
        tabconfig_type = get(f"{self.bases['tabconfig']}{DEFAULT_PATH}{QUERY}").field("Content-Type")
        self.per_request = ["per-request"] if "per-request" in self.bases else []
        for server in self.plain[1:] + self.per_request:
            verify(server, self.bases[server], tabconfig_type if server in ("baseline", "floor", "per-request")
                   else "application/json")
        if NEED_REFERENCES:
            verify_context("ceiling", self.bases["ceiling"])
            verify_context("floor", self.bases["floor"])
            self.context = ["tabconfig", "ceiling", "floor"]

    def choose_context(self):
        """A baseline takes part in the targeting and open-tab scenarios when it answers them with the same bytes (a
        build from before targeting or open tabs does not)."""
        def baseline_context():
            publish_targeted(self.bases["baseline"])
            prepare_user(self.bases["baseline"], "bench-targeted")
            prepare_opener(self.bases["baseline"])
            verify_context("baseline", self.bases["baseline"])
        if self.baseline and selected("context-default", "context-user", "user-5-open") and baseline_joins(
                baseline_context, "the targeting and open-tab bodies byte-identical to tabconfig's",
                "the targeting and open-tab scenarios (it cannot answer them as tabconfig does)"):
            self.context = ["tabconfig", "baseline", "ceiling", "floor"]

    def choose_many(self):
        """Scenario users-10k: tabconfig, a baseline that answers the users with tabconfig's bytes (every 100th
        compared) and the ceiling, which must answer any of them with the median one's."""
        if not selected("users-10k"):
            return
        self.many = ["tabconfig", "ceiling"]
        answer = get(f"{self.bases['ceiling']}/v1/clients/ios-phone/users/u4242/tabs{QUERY}")
        if answer.status != 200 or answer.body != (WWW / "many-users.json").read_bytes():
            fail("reads: the ceiling does not answer a seeded user's path with the median user's bytes")

        def baseline_users():
            for user in range(0, self.users, 100):
                path = f"/v1/clients/ios-phone/users/u{user}/tabs{QUERY}"
                theirs, ours = get(f"{self.bases['baseline']}{path}"), get(f"{self.bases['tabconfig']}{path}")
                check(theirs.status == ours.status == 200 and theirs.body == ours.body, path)
        if self.baseline and baseline_joins(baseline_users,
                                            "every 100th seeded user's tab bar byte-identical to tabconfig's",
                                            "users-10k (it cannot answer it as tabconfig does)"):
            self.many = ["tabconfig", "baseline", "ceiling"]

    def choose_manifest(self):
        """Scenario manifest-default: tabconfig, and a baseline that registers the manifest and answers both GETs
        with tabconfig's bytes (a build from before manifests does not)."""
        if not selected("manifest-default"):
            return
        self.manifest = ["tabconfig"]

        def baseline_manifest():
            check(prepare_manifest(self.bases["baseline"])[:2] == tuple(self.manifest_bodies), "other bytes")
        if self.baseline and baseline_joins(baseline_manifest, "both manifest bodies byte-identical to tabconfig's",
                                            "manifest-default (it cannot answer it as tabconfig does)"):
            self.manifest = ["tabconfig", "baseline"]

    def warm(self, server, url, *options):
        wrk(f"{self.bases[server]}{url}", WARMUP, *options, latency=False)

    def warm_up(self):
        """A warm-up of every server on every request it will be measured with. All servers stay up; idle ones wait
        in poll/epoll while the one under wrk runs."""
        if selected("get-default", "get-default-br", "get-user", "revalidate-default", "revalidate-default-br",
                    "revalidate-user"):
            for server in self.plain:
                for path in (DEFAULT_PATH, USER_PATH):
                    self.warm(server, f"{path}{QUERY}")
        for server in self.per_request:
            self.warm(server, f"{DEFAULT_PATH}{QUERY}")
        for server in self.br:
            self.warm(server, f"{DEFAULT_PATH}{QUERY}", "-H", "Accept-Encoding: br")
        if selected("context-default", "context-user", "user-5-open"):
            for server in self.context:
                for path in (CONTEXT_DEFAULT_PATH, CONTEXT_USER_PATH):
                    self.warm(server, f"{path}{CONTEXT_QUERY}")
                self.warm(server, f"{OPENER_PATH}{QUERY}")
        for server in self.many:
            self.warm(server, "", "-s", "Benchmarks/many-users.lua")
        for server in self.manifest:
            for query in (MANIFEST_QUERY, NO_MANIFEST_QUERY):
                self.warm(server, f"{DEFAULT_PATH}{query}")

    def measure(self, scenario, server, url, n, *options):
        measure(self.servers, scenario, server, f"{self.bases[server]}{url}", n, *options)

    def measure_round(self, n):
        """Round N: every server in turn, each scenario it takes part in."""
        for server in self.plain:
            # get-default-br and its reference, the identity GET of get-default, back to back on the same process,
            # which first alternating by round.
            if selected("get-default-br") and server in self.br:
                pair = [("get-default", ()), ("get-default-br", ("-H", "Accept-Encoding: br"))]
                for scenario, options in pair if n % 2 == 0 else reversed(pair):
                    self.measure(scenario, server, f"{DEFAULT_PATH}{QUERY}", n, *options)
            elif selected("get-default"):
                self.measure("get-default", server, f"{DEFAULT_PATH}{QUERY}", n)
            if selected("get-user"):
                self.measure("get-user", server, f"{USER_PATH}{QUERY}", n)
            if server not in self.services:
                continue
            if selected("revalidate-default"):
                self.measure("revalidate-default", server, f"{DEFAULT_PATH}{QUERY}", n,
                             "-H", f"If-None-Match: {self.tags[(server, 'default')]}")
            if selected("revalidate-default-br") and server in self.br:
                self.measure("revalidate-default-br", server, f"{DEFAULT_PATH}{QUERY}", n, "-H",
                             "Accept-Encoding: br", "-H", f"If-None-Match: {self.tags[(server, 'default-br')]}")
            if selected("revalidate-user"):
                self.measure("revalidate-user", server, f"{USER_PATH}{QUERY}", n,
                             "-H", f"If-None-Match: {self.tags[(server, 'user')]}")
        for server in self.per_request:
            self.measure("get-default", server, f"{DEFAULT_PATH}{QUERY}", n)
        for server in self.context:
            if selected("context-default"):
                self.measure("context-default", server, f"{CONTEXT_DEFAULT_PATH}{CONTEXT_QUERY}", n)
            if selected("context-user"):
                self.measure("context-user", server, f"{CONTEXT_USER_PATH}{CONTEXT_QUERY}", n)
            if selected("user-5-open"):
                self.measure("user-5-open", server, f"{OPENER_PATH}{QUERY}", n)
        for server in self.many:
            self.measure("users-10k", server, "", n, "-s", "Benchmarks/many-users.lua")
        # With and without the manifest back to back on the same process, which first alternating by round.
        for server in self.manifest:
            pair = [("manifest-default", MANIFEST_QUERY), ("no-manifest", NO_MANIFEST_QUERY)]
            for scenario, query in pair if n % 2 == 0 else reversed(pair):
                self.measure(scenario, server, f"{DEFAULT_PATH}{query}", n)

    def servers_of(self, scenario):
        """The servers SCENARIO measured."""
        if scenario == "get-default":
            return self.plain + self.per_request if selected("get-default") else self.br
        if scenario in ("get-default-br", "revalidate-default-br"):
            return self.br
        if scenario.startswith("get-"):
            return self.plain
        if scenario.startswith("revalidate-"):
            return self.services
        if scenario.startswith("context-") or scenario == "user-5-open":
            return self.context
        if scenario in ("manifest-default", "no-manifest"):
            return self.manifest
        return self.many


def measured_scenarios():
    """The scenarios measured, in the table's order: get-default also as get-default-br's reference, no-manifest
    after manifest-default."""
    measured = []
    for scenario in ALL_SCENARIOS:
        if selected(scenario) or (scenario == "get-default" and selected("get-default-br")):
            measured += [scenario] + (["no-manifest"] if scenario == "manifest-default" else [])
    return measured


def main():
    built = install_and_build()
    results_start()
    os.environ["BENCH_USERS"] = os.environ.get("BENCH_USERS") or "10000"
    suite = Suite(built)
    suite.print_setup(*suite.start_tabconfig())
    suite.start_baseline()
    suite.check_tags()
    suite.choose_br()
    start_references(suite.servers, suite.threads, suite.flags, built)
    suite.verify_references()
    suite.choose_context()
    suite.choose_many()
    suite.choose_manifest()
    suite.warm_up()
    for n in range(ROUNDS):
        suite.measure_round(n)
    measured = measured_scenarios()
    for scenario in measured:
        for server in suite.servers_of(scenario):
            summarize(scenario, server)
    report(suite, measured)
    targets(suite.byte_ratios)
    finish()


def report(suite, measured):
    """The table, the ratio lines and the figures."""
    row = "{:<21} {:<26} {:>12} {:>9} {:>9} {:>11} {:>20}  {}"
    print()
    print(row.format("scenario", "server", "req/s", "p50-ms", "p99-ms", "cpu-us/req", "tabconfig ÷ server",
                     "every run"))
    for scenario in measured:
        for server in suite.servers_of(scenario):
            stats = STATS[(scenario, server)]
            shown = "-" if server == "tabconfig" else server_ratio(scenario, server)
            print(row.format(scenario, LABEL[server], stats["rps"], stats["p50"], stats["p99"],
                             "+".join(stats["cpu"]), shown, stats["runs"]))
    print("cpu-us/req: the server's user + system CPU per request in the reported run, in microseconds (/proc)")
    print()
    for kind in ("default", "user"):
        if selected(f"revalidate-{kind}") and selected(f"get-{kind}"):
            print(f"tabconfig revalidate-{kind} ÷ get-{kind} (304 ÷ 200 requests/s): "
                  f"{quotient(rps(f'revalidate-{kind}', 'tabconfig'), rps(f'get-{kind}', 'tabconfig')):.2f}")
    if selected("user-5-open") and selected("get-user"):
        print("tabconfig user-5-open ÷ get-user (five open tabs over none, requests/s): "
              f"{quotient(rps('user-5-open', 'tabconfig'), rps('get-user', 'tabconfig')):.2f}")
    for server in suite.manifest:
        pair_line(server, "manifest-default", "no-manifest", f"a {MANIFEST_NAMES}-name manifest over none")
    if selected("get-default-br"):
        for server in suite.br:
            pair_line(server, "get-default-br", "get-default", "brotli over identity")
    if selected("revalidate-default-br"):
        for server in suite.br:
            if selected("get-default-br"):
                print(f"{LABEL[server]} revalidate-default-br ÷ get-default-br (304 ÷ 200 in br, requests/s): "
                      f"{quotient(rps('revalidate-default-br', server), rps('get-default-br', server)):.2f}")
            if selected("revalidate-default"):
                both = quotient(rps("revalidate-default-br", server), rps("revalidate-default", server))
                print(f"{LABEL[server]} revalidate-default-br ÷ revalidate-default (br 304 ÷ identity 304, "
                      f"requests/s): {both:.2f}")
    # The floor against the ceiling: the most a handler on MicroHTTP could reach of each ratio target (one whose
    # target is above it cannot pass without making MicroHTTP itself cheaper); and for get-default, the most a server
    # can reach that gives each response its own X-Request-Id, as MicroHTTP does (the ceiling creating a response per
    # request).
    if suite.per_request:
        per, ceiling, floor = (cpu_of("get-default", server) for server in ("per-request", "ceiling", "floor"))
        print(f"get-default: a response per request (C) ÷ ceiling "
              f"{quotient(rps('get-default', 'per-request'), rps('get-default', 'ceiling')):.2f}, floor ÷ it "
              f"{quotient(rps('get-default', 'floor'), rps('get-default', 'per-request')):.2f}; CPU per request over "
              f"the ceiling: a response per request {per - ceiling:.1f} us, MicroHTTP {floor - per:.1f} us more")
    for scenario in ("get-default", "get-user", "context-default", "context-user", "user-5-open"):
        if selected(scenario):
            ceiling = cpu_of(scenario, "ceiling")
            floor = quotient(rps(scenario, "floor"), rps(scenario, "ceiling"))
            print(f"{scenario}: floor ÷ ceiling {floor:.2f}; CPU "
                  f"per request over the ceiling: MicroHTTP {cpu_of(scenario, 'floor') - ceiling:.1f} us, tabconfig "
                  f"{cpu_of(scenario, 'tabconfig') - ceiling:.1f} us")
    if suite.baseline:
        print(f"baseline: {suite.baseline} (the tabconfig ÷ server column of its rows is tabconfig ÷ baseline)")
    print()
    # Every median as a figure (Benchmarks/harness.py): SCENARIO_rps for tabconfig (what Benchmarks/scaling.py
    # reads), SCENARIO_SERVER_rps for the others, and each one's CPU per request.
    for scenario in measured:
        for server in suite.servers_of(scenario):
            name = scenario.replace("-", "_") + ("" if server == "tabconfig" else f"_{server}")
            figure(f"{name}_rps", rps(scenario, server), "requests/s")
            figure(f"{name}_cpu_us", f"{cpu_of(scenario, server):.1f}", "us/request")
    print()


def targets(byte_ratios):
    """The ratio targets of the scenarios run, from Benchmarks/Thresholds/reads.txt; the byte-size targets with the
    compressed scenarios (BYTE_RATIOS: br ÷ identity, gzip ÷ identity)."""
    if selected("get-default"):
        target("get-default/ceiling", server_ratio("get-default", "ceiling"))
        target("floor/ceiling", ratio(rps("get-default", "floor"), rps("get-default", "ceiling")))
        target("get-default/nginx", server_ratio("get-default", "nginx"))
        target("get-default/hummingbird", server_ratio("get-default", "hummingbird"))
    for scenario in ("get-user", "context-default", "context-user", "user-5-open", "users-10k"):
        if selected(scenario):
            target(f"{scenario}/ceiling", server_ratio(scenario, "ceiling"))
    if selected("manifest-default"):
        target("manifest-default/no-manifest", scenario_ratio("tabconfig", "manifest-default", "no-manifest"))
    if selected("get-default-br"):
        target("get-default-br/get-default", scenario_ratio("tabconfig", "get-default-br", "get-default"))
    if byte_ratios:
        target("bytes/br/identity", byte_ratios[0])
        target("bytes/gzip/identity", byte_ratios[1])


if __name__ == "__main__":
    try:
        main()
    except Differs as error:
        fail(f"reads: {error}")
