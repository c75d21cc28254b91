#!/usr/bin/env python3
"""The test suite: every step, what each needs, as many side by side as the machine's cores allow, and a table of
each step's seconds at the end.

    scripts/test.sh                  every step; what CI runs (.ci/run)
    scripts/test.sh --quick          the inner loop (make check): a debug build, the Swift tests, the docs' examples
    scripts/test.sh --only A,B       these steps and the steps they need
    scripts/test.sh --list           the steps, what each needs and what it runs

The whole suite builds once, in release with the tests (`swift build -c release --build-tests --traits PostgreSQL`):
the Swift tests run on that build, every suite that starts the server runs that binary, and the container test
makes its image from it. Each step says how many cores it keeps busy; a step starts when what it needs has passed
and the cores it asks for are free (a step that mostly waits on a server asks for none), so a suite that waits runs
beside one that computes. Each step's output goes to .build/test-logs/STEP.log and is printed whole when the step
ends, so steps side by side never interleave. A step whose needs failed is skipped. The run ends with the table of
steps (seconds of wall clock, CPU seconds of the step's processes) and `test: N passed, N failed`; the exit status
is 1 when a step failed or was skipped.

Settings: SCHEMATHESIS_MAX_EXAMPLES, SCHEMATHESIS_HOSTILE_EXAMPLES, SCHEMATHESIS_SEED, CRASH_LOOP_CYCLES,
REPLICA_RUN_SECONDS (the defaults are in the steps below; README.md, "Tests", says why each is what it is).
"""

import argparse
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests/Support"))
from tabconfig_server import Server, hs256_token  # noqa: E402

TOOLS = ROOT / ".build-tools/venv/bin"
LOGS = ROOT / ".build/test-logs"
CORES = os.cpu_count() or 1
STEP_TIMEOUT = 30 * 60
# The process groups of the commands running now, ended if the suite itself is stopped.
RUNNING = set()
TRAITS = ["--traits", "PostgreSQL"]


@dataclass
class Step:
    """One step: `run` is a command (a list) or a function given the step's log; `cores` is the CPU it keeps busy."""

    name: str
    what: str
    run: object
    needs: tuple = ()
    cores: float = 1
    env: dict = field(default_factory=dict)
    status: str = "pending"
    seconds: float = 0.0
    cpu: float = 0.0
    started: float = 0.0


class Log:
    """A step's log file, and the commands it runs writing into it."""

    def __init__(self, step, path):
        self.step, self.path, self.cpu = step, path, 0.0
        self.file = open(path, "w", buffering=1)

    def say(self, text):
        self.file.write(text + "\n")

    def run(self, command, env=None, check=True):
        """Runs `command` with its output in the log; its CPU time (and its children's) counts to the step."""
        self.say("$ " + " ".join(map(str, command)))
        variables = dict(os.environ, **self.step.env, **(env or {}))
        process = subprocess.Popen(
            [str(part) for part in command], cwd=ROOT, env=variables, stdin=subprocess.DEVNULL,
            stdout=self.file, stderr=subprocess.STDOUT, start_new_session=True)
        RUNNING.add(process.pid)
        deadline = time.monotonic() + STEP_TIMEOUT
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                os.killpg(process.pid, signal.SIGKILL)
                self.say(f"test: killed after {STEP_TIMEOUT} s")
            time.sleep(0.2)
        RUNNING.discard(process.pid)
        process.returncode = os.waitstatus_to_exitcode(status)
        self.cpu += usage.ru_utime + usage.ru_stime
        if check and process.returncode != 0:
            raise StepFailed(f"{command[0]} exited with {process.returncode}")
        return process.returncode


class StepFailed(Exception):
    pass


def tabconfig(configuration):
    return ROOT / ".build" / configuration / "tabconfig"


def with_server(log, binary, environment, body):
    """Runs body(server) against `tabconfig serve` over a data directory of its own; the server must exit 0."""
    with tempfile.TemporaryDirectory(prefix="tabconfig-test-") as directory:
        server = Server(binary, directory, admin_token=environment.pop("TABCONFIG_ADMIN_TOKEN", "test-admin-token"),
                        environment=environment)
        log.say(f"tabconfig serve at {server.base} over {directory}")
        try:
            body(server)
        finally:
            status = server.stop()
            if status != 0:
                with open(server.log_path) as server_log:
                    log.say(server_log.read()[-5000:])
                raise StepFailed(f"the server exited with {status}")


def schemathesis(hostile):
    """schemathesis against the live server with openapi.yaml and schemathesis.toml.

    Conformance: the response checks on generated requests. Hostile: every check, the stateful phase, user
    authentication on (the user endpoints get a JWT of user "schemathesis", as schemathesis.toml says). The event
    stream stays open by design and schemathesis reads whole bodies: the Swift tests cover it (EventStreamTests).
    One worker: with two, CPython 3.11.7's ast.parse, which hypothesis calls to describe its filters, can fail with
    "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905, fixed in 3.11.8); and with one,
    the same seed replays the same stateful run. The generation health checks are off: the recursive config schema
    makes hypothesis filter many candidates, and on a busy 2-core machine it trips "filter_too_much" / "too_slow" at
    random; they say nothing about the server. `use_after_free` is excluded: a DELETE of a tab order resets it, and
    the tab order then reads as the default order (200) by design, as before any write; a deleted client's 404 is
    in ConfigEndpointTests (a per-operation "enabled = false" in schemathesis.toml does not hold against --checks
    all).
    """
    def run(log):
        token, secret = "schemathesis-admin-token", "schemathesis-user-token-secret-0123456789"
        environment = {"TABCONFIG_ADMIN_TOKEN": token}
        checks = ["--checks", "not_a_server_error,status_code_conformance,content_type_conformance,"
                  "response_schema_conformance"]
        examples = os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "100")
        if hostile:
            environment["TABCONFIG_JWT_HS256_SECRET"] = secret
            checks = ["--checks", "all", "--exclude-checks", "use_after_free"]
            examples = os.environ.get("SCHEMATHESIS_HOSTILE_EXAMPLES", "200")
        variables = {"TABCONFIG_TEST_ADMIN_TOKEN": token,
                     "TABCONFIG_TEST_USER_TOKEN": hs256_token(secret, "schemathesis", 3600)}
        with_server(log, tabconfig("release"), environment, lambda server: log.run(
            [TOOLS / "schemathesis", "run", "openapi.yaml", "--exclude-path", "/v1/clients/{client}/tabs/events",
             "--url", server.base, *checks, "--max-examples", examples,
             "--seed", os.environ.get("SCHEMATHESIS_SEED", "20261122"), "--workers", "1",
             "--suppress-health-check", "filter_too_much,too_slow", "--no-color"], env=variables))
    return run


def okhttp(log):
    """OkHttp revalidating both tab bars against the live server."""
    with_server(log, tabconfig("release"), {}, lambda server: log.run(
        ["java", "-cp", "/usr/share/java/okhttp.jar:/usr/share/java/okio.jar",
         "Tests/Clients/OkHttpRevalidation.java", server.base]))


OPENAPI_CLIENT = "Tests/Clients/OpenAPIGenerated"


def openapi_client(log):
    """The client swift-openapi-generator makes of openapi.yaml, every operation against a server with max-age."""
    token = "openapi-client-check-token"
    with_server(log, tabconfig("release"), {"TABCONFIG_CACHE_MAX_AGE": "60", "TABCONFIG_ADMIN_TOKEN": token},
                lambda server: log.run([ROOT / OPENAPI_CLIENT / ".build/debug/openapi-client-check", server.base,
                                        token]))


def steps(quick):
    """The suite's steps in the order they are preferred when several could start."""
    configuration = "debug" if quick else "release"
    binary = tabconfig(configuration)
    # A release build with the tests needs -enable-testing for their @testable imports: SwiftPM 6.3 does not add it
    # to every module in release.
    release = ["-c", "release", "-Xswiftc", "-enable-testing"]
    build = ["swift", "build", "--build-tests", *TRAITS] + ([] if quick else release)
    swift_test = ["swift", "test", "--skip-build", *TRAITS] + ([] if quick else release)
    pytest = [TOOLS / "pytest", "-q", "-p", "no:cacheprovider"]
    served = {"TABCONFIG_BINARY": str(binary)}
    # `cores` is about what a step was measured to keep busy (CPU seconds over wall seconds, in the table this
    # prints): the Swift tests and the suites that start a server mostly wait on it. The side packages' builds ask
    # for one core, so that they run beside the suites rather than after all of them; the build asks for all, so
    # that only the installs and the base images run beside it.
    every = [
        Step("install", "what the build needs (scripts/install-deps.sh)", ["bash", "scripts/install-deps.sh"],
             cores=0),
        Step("build", " ".join(build), build, ("install",), cores=CORES),
        Step("tools", "test tools: Chromium, a JDK, PostgreSQL, haproxy, Prometheus; schemathesis & co in a venv",
             ["bash", "scripts/install-deps.sh", "--test-tools"], ("install",), cores=0),
        Step("container-bases", "the container test's base images, official or stand-ins, beside the build",
             ["python3", "scripts/container-test.py", "--bases-only", "--binary", binary], ("tools",), cores=0),
        Step("lint", "openapi-spec-validator openapi.yaml; hadolint on the Dockerfiles", lint, ("tools",), cores=0),
        Step("swift-test", "swift test, all but the Swift client against the real server",
             swift_test + ["--skip", "TabConfigClientServerTests"], ("build", "tools"), cores=0.5),
        # The client's suites run their actors on Swift's cooperative pool (one thread a core) and wait on the client
        # for up to two minutes; run in one process with the other suites, whose tests block pool threads on
        # sockets and child processes, their 1,000-cycle fault tests saw no request at all on a 2-core machine.
        # In a process of their own they get the pool.
        Step("client-server-tests", "swift test: the Swift client against the real server, in a process of its own",
             swift_test + ["--filter", "TabConfigClientServerTests"], ("swift-test",), cores=1),
        Step("schemathesis-hostile", "schemathesis: every check, the stateful phase, user JWTs required",
             schemathesis(hostile=True), ("build", "tools"), cores=0.6),
        Step("schemathesis", "schemathesis: conformance of every answer to openapi.yaml",
             schemathesis(hostile=False), ("build", "tools"), cores=0.5),
        Step("crash-loop", "SIGKILL under concurrent writers (Benchmarks/crash-loop.py)",
             ["python3", "Benchmarks/crash-loop.py", "--binary", binary,
              "--cycles", os.environ.get("CRASH_LOOP_CYCLES", "200")], ("build",), cores=0.7),
        Step("container", "the image from this build, run as an orchestrator would (scripts/container-test.py)",
             ["python3", "scripts/container-test.py", "--binary", binary], ("build", "container-bases"), cores=0.5),
        Step("docs", "every example of README.md and docs/ (Tests/Docs)",
             ["python3", "Tests/Docs/doc_examples.py", "--binary", binary], ("build", "tools"), cores=0.4),
        Step("replicas", "three replicas on one PostgreSQL behind haproxy (Tests/Replicas)",
             ["python3", "Tests/Replicas/replicas.py", "--binary", binary,
              "--duration", os.environ.get("REPLICA_RUN_SECONDS", "60")], ("build", "tools"), cores=0.8,
             env={"PATH": os.environ["PATH"] + ":/usr/sbin"}),
        Step("browser", "headless Chromium: HTTP cache, CORS, the admin console (Tests/Browser)",
             pytest + ["Tests/Browser"], ("build", "tools"), cores=0.5, env={"SE_OFFLINE": "true", **served}),
        Step("openfeature", "OpenFeature's Python SDK and OFREP provider (Tests/OpenFeature)",
             pytest + ["Tests/OpenFeature"], ("build", "tools"), cores=0.4, env=served),
        Step("metrics", "Prometheus scraping the server, promtool check metrics (Tests/Metrics)",
             pytest + ["Tests/Metrics"], ("build", "tools"), cores=0.3, env=served),
        Step("okhttp", "OkHttp revalidating both tab bars (Tests/Clients/OkHttpRevalidation.java)",
             okhttp, ("build", "tools"), cores=0.5),
        Step("openapi-client-build", "swift build of the client swift-openapi-generator makes of openapi.yaml",
             ["swift", "build", "--package-path", OPENAPI_CLIENT], ("install",), cores=1),
        Step("openapi-client", "the generated client driving every operation (Tests/Clients/OpenAPIGenerated)",
             openapi_client, ("build", "openapi-client-build"), cores=0.2),
        Step("client-package", "the Swift client's own tests (swift test --package-path Clients/Swift)",
             ["swift", "test", "--package-path", "Clients/Swift"], ("install",), cores=1),
        Step("consumer", "an app depending on the Swift client alone (Tests/Clients/Consumer/check.py)",
             ["python3", "Tests/Clients/Consumer/check.py"], ("install",), cores=1),
    ]
    if quick:
        return [step for step in every if step.name in ("install", "build", "tools", "swift-test",
                                                         "client-server-tests", "docs")]
    return every


def lint(log):
    log.run([TOOLS / "openapi-spec-validator", "openapi.yaml"])
    log.run([TOOLS / "hadolint", "Dockerfile", *sorted(map(str, ROOT.glob("scripts/stand-ins/*/Dockerfile")))])
    log.say("hadolint: no findings")


def run_step(step, done):
    log = Log(step, LOGS / f"{step.name}.log")
    began = time.monotonic()
    try:
        if callable(step.run):
            step.run(log)
        else:
            log.run(step.run)
        step.status = "passed"
    except (StepFailed, OSError, RuntimeError, subprocess.SubprocessError) as error:
        log.say(f"test: {step.name} failed: {error}")
        step.status = "FAILED"
    step.seconds, step.cpu = time.monotonic() - began, log.cpu
    log.file.close()
    done.put(step)


def schedule(plan):
    """Runs the plan: a step starts once its needs passed and its cores are free; prints each log as it ends."""
    by_name, done, running = {step.name: step for step in plan}, queue.Queue(), set()
    start = time.monotonic()
    while any(step.status in ("pending", "running") for step in plan):
        for step in plan:
            if step.status != "pending":
                continue
            needs = [by_name[name] for name in step.needs if name in by_name]
            if any(need.status in ("FAILED", "skipped") for need in needs):
                step.status = "skipped"
                print(f"\n== {step.name}: skipped ({', '.join(n.name for n in needs if n.status != 'passed')} "
                      "did not pass)", flush=True)
                continue
            busy = sum(by_name[name].cores for name in running)
            if all(need.status == "passed" for need in needs) and (not running or busy + step.cores <= CORES):
                step.status, step.started = "running", time.monotonic() - start
                running.add(step.name)
                threading.Thread(target=run_step, args=(step, done), daemon=True).start()
        if not running:
            continue
        finished = done.get()
        running.discard(finished.name)
        print(f"\n== {finished.name}: {finished.what}", flush=True)
        sys.stdout.write((LOGS / f"{finished.name}.log").read_text(errors="replace"))
        print(f"== {finished.name}: {finished.status} in {finished.seconds:.0f} s", flush=True)
    return time.monotonic() - start


def table(plan, wall):
    print(f"\n== where the time went (wall clock {wall:.0f} s on {CORES} cores; cpu: the step's processes)")
    print(f"{'step':<22} {'status':<8} {'start s':>8} {'seconds':>8} {'cpu s':>8}")
    for step in sorted(plan, key=lambda s: (s.status == "skipped", s.started)):
        print(f"{step.name:<22} {step.status:<8} {step.started:>8.0f} {step.seconds:>8.0f} {step.cpu:>8.0f}")
    passed = sum(step.status == "passed" for step in plan)
    print(f"test: {passed} passed, {len(plan) - passed} failed")
    return passed == len(plan)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a debug build, the Swift tests, the docs' examples")
    parser.add_argument("--only", help="comma-separated steps (and what they need)")
    parser.add_argument("--list", action="store_true", help="print the steps and exit")
    arguments = parser.parse_args()
    plan = steps(arguments.quick)
    if arguments.list:
        for step in plan:
            run = f"{step.run.__qualname__.split('.')[0]}() in scripts/test.py" if callable(step.run) \
                else " ".join(map(str, step.run))
            print(f"{step.name:<22} needs {', '.join(step.needs) or '-'}; {step.what}\n{'':<22} runs {run}")
        return 0
    if arguments.only:
        wanted, by_name = set(), {step.name: step for step in plan}
        unknown = set(arguments.only.split(",")) - set(by_name)
        if unknown:
            parser.error(f"no step {', '.join(sorted(unknown))}; --list shows them")
        pending = arguments.only.split(",")
        while pending:
            name = pending.pop()
            if name not in wanted:
                wanted.add(name)
                pending.extend(by_name[name].needs)
        plan = [step for step in plan if step.name in wanted]
    LOGS.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        return 0 if table(plan, schedule(plan)) else 1
    finally:
        for group in list(RUNNING):
            try:
                os.killpg(group, signal.SIGTERM)
            except ProcessLookupError:
                pass


if __name__ == "__main__":
    sys.exit(main())
