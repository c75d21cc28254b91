"""What the benchmark programs share (imported, not run): root/sudo, installs and builds, free ports, tabconfig and
the other servers started and stopped, HTTP requests, wrk runs and their latencies, CPU time per request, FIGURE and
TARGET lines (thresholds from Benchmarks/Thresholds/), results files (Benchmarks/results/: what a program printed,
and its figures and targets as JSON), and pgbench's upsert (the PostgreSQL reference of the durable writes).

Importing it moves to the repository's root (every path below is relative to it), makes stdout line-buffered (so
that it interleaves with what the servers and tools print) and stops, at exit or on SIGTERM, every process and
directory the program registered. Python 3 standard library only.
"""

import atexit
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.chdir(ROOT)
sys.stdout.reconfigure(line_buffering=True)
# The program's name ("reads"): its thresholds file, its results folder.
NAME = Path(sys.argv[0]).stem
PGBIN = "/usr/lib/postgresql/15/bin"
CONNECTIONS = 64
WARMUP = 2


def env_int(name, default):
    """An integer setting from the environment (BENCH_…), or its default."""
    return int(os.environ.get(name) or default)


def server_threads():
    """BENCH_SERVER_THREADS, else nproc - 1, at least 1: wrk's one thread holds a core."""
    return env_int("BENCH_SERVER_THREADS", max(1, os.cpu_count() - 1))


def fail(message, status=1):
    """Says why on stderr and exits (the cleanup below still runs)."""
    print(message, file=sys.stderr)
    sys.exit(status)


def run(command, **options):
    """Runs COMMAND (subprocess.run's OPTIONS); exits with its status if it fails, as a shell under `set -e` would."""
    result = subprocess.run([str(part) for part in command], **options)
    if result.returncode != 0:
        fail(f"{NAME}: {' '.join(map(str, command))}: exit {result.returncode}", result.returncode)
    return result


def output_of(command):
    """What COMMAND prints on stdout, stripped (its stderr passes through); exits if it fails."""
    return run(command, stdout=subprocess.PIPE, text=True).stdout.strip()


# --- cleanup: what the program started, stopped at exit -------------------------------------------------------------

_processes = []
_cleanups = []


def at_exit(function):
    """Runs FUNCTION at exit, after the processes are stopped; the last registered runs first."""
    _cleanups.append(function)


def _cleanup():
    for process in _processes:
        if process.poll() is None:
            process.terminate()
    for process in _processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
    while _cleanups:
        try:
            _cleanups.pop()()
        except Exception as error:  # a cleanup failing must not keep the others from running
            print(f"{NAME}: cleanup: {error}", file=sys.stderr)


atexit.register(_cleanup)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


def workdir(name):
    """A new directory .build-bench/NAME.XXXXXX (on disk, not tmpfs: the stores fsync), removed at exit."""
    Path(".build-bench").mkdir(exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{name}.", dir=ROOT / ".build-bench"))
    at_exit(lambda: shutil.rmtree(work, ignore_errors=True))
    return work


def disk_of(path):
    """The device and file system PATH is on, as "DEVICE TYPE"."""
    lines = subprocess.run(["df", "--output=source,fstype", str(path)], capture_output=True, text=True).stdout
    return " ".join(lines.splitlines()[-1].split())


def spawn(command, log=None, env=None):
    """Starts COMMAND in the background (output to the file LOG, when given), stopped with SIGTERM at exit."""
    output = open(log, "wb") if log else None
    process = subprocess.Popen([str(part) for part in command], stdout=output, stderr=output,
                               env=dict(os.environ, **(env or {})))
    if output:
        output.close()
    _processes.append(process)
    return process


def stop(process):
    """Sends SIGTERM and returns the exit status (negative: the signal that ended it)."""
    if process.poll() is None:
        process.terminate()
    return process.wait()


# --- installs and builds --------------------------------------------------------------------------------------------

def as_root(command):
    """COMMAND, through sudo when not root already."""
    return command if os.geteuid() == 0 else ["sudo", *command]


def have(tool):
    """Whether TOOL is on the PATH or in /usr/sbin (nginx, haproxy)."""
    return shutil.which(tool) is not None or os.access(f"/usr/sbin/{tool}", os.X_OK)


def tool_path(tool):
    return shutil.which(tool) or f"/usr/sbin/{tool}"


def have_postgres():
    """Whether PostgreSQL 15's server and pgbench are installed."""
    return all(os.access(f"{PGBIN}/{program}", os.X_OK) for program in ("postgres", "pgbench"))


def missing(*tools):
    """The apt packages of the TOOLS not installed ("postgres": PostgreSQL 15's server and pgbench)."""
    return ["postgresql-15" if tool == "postgres" else tool for tool in tools
            if not (have_postgres() if tool == "postgres" else have(tool))]


def install_missing(label, packages):
    """Apt-installs the packages (none: nothing), then what the project itself needs (scripts/install-deps.sh:
    libmicrohttpd-dev, pkg-config, the Python test tools)."""
    if packages:
        print(f"{label}: apt-get install {' '.join(packages)}")
        run(as_root(["apt-get", "update", "-qq"]))
        run(as_root(["apt-get", "install", "-y", "-qq", *packages]), stdout=subprocess.DEVNULL,
            env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    run(["bash", "scripts/install-deps.sh"])


def build(command):
    """Runs a build quietly; prints its output only if it fails, then exits."""
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        fail(result.stdout.rstrip("\n"))


def swift_product(label, product, package=None, note=None):
    """Builds a release PRODUCT of this package into .build-bench/, or of the package at PACKAGE (its own .build/),
    saying so; returns the binary's path."""
    place = ["--package-path", package] if package else ["--scratch-path", ".build-bench"]
    command = ["swift", "build", "-c", "release", *place, "--product", product]
    shown = command[:-2] if package else command
    print(f"{label}: {' '.join(shown)}" + (f" ({note})" if note else ""))
    build(command)
    return f"{output_of(['swift', 'build', '-c', 'release', *place, '--show-bin-path'])}/{product}"


def release_binary(label):
    """TABCONFIG_BINARY, set to a release tabconfig built into .build-bench/ when it is unset."""
    if not os.environ.get("TABCONFIG_BINARY"):
        os.environ["TABCONFIG_BINARY"] = swift_product(label, "tabconfig")
    return os.environ["TABCONFIG_BINARY"]


# --- servers and HTTP -----------------------------------------------------------------------------------------------

def free_port():
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`tabconfig serve` on a free port over DATA/store, its log in DATA/server.log (as the tests' own
    Tests/Support/tabconfig_server.py starts it)."""

    def __init__(self, binary, data, **env):
        data = Path(data)
        data.mkdir(parents=True, exist_ok=True)
        self.log = data / "server.log"
        # Created before the server starts, so that the polling below always finds it.
        self.log.write_bytes(b"")
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen([binary, "serve", "--port", "0", "--data-dir", str(data / "store")],
                                            stderr=log, env=dict(os.environ, **env))
        _processes.append(self.process)
        self.pid = self.process.pid
        for _ in range(200):
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", self.log.read_text(errors="replace"))
            if found:
                self.port = int(found.group(1))
                self.base = f"http://127.0.0.1:{self.port}"
                return
            time.sleep(0.05)
        print(self.log.read_text(errors="replace"), end="", file=sys.stderr)
        fail("the server did not start")

    def stop(self):
        """SIGTERM; the server's exit status."""
        return stop(self.process)


class Answer:
    """An HTTP answer: status (0: none), header fields in order as sent, body."""

    def __init__(self, status, fields=(), body=b""):
        self.status, self.fields, self.body = status, list(fields), body

    def field(self, name):
        """The value of the first field NAME (any case), "" without one."""
        return next((value for key, value in self.fields if key.lower() == name.lower()), "")


def request(method, url, body=None, headers=None, timeout=10):
    """One request on a connection of its own; status 0 when nothing answered."""
    parts = urllib.parse.urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return Answer(response.status, response.getheaders(), response.read())
    except (OSError, http.client.HTTPException):
        return Answer(0)
    finally:
        connection.close()


def get(url, headers=None):
    return request("GET", url, headers=headers)


def send_json(url, document, token=None, method="PUT"):
    """Sends DOCUMENT (bytes, str or a JSON value) as JSON, with the admin token when given."""
    if not isinstance(document, (bytes, str)):
        document = json.dumps(document)
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    return request(method, url, body=document, headers=headers)


def fetch(url, label, headers=None):
    """The body of a 200 to a GET of URL; exits, saying so, on anything else."""
    answer = get(url, headers)
    if answer.status != 200:
        fail(f"{label}: no 200 from {url} ({answer.status or 'no answer'})")
    return answer.body


def succeeded(answer, what):
    """Exits, saying WHAT answered what, unless ANSWER is a success (below 400, as `curl -f` takes it)."""
    if not 0 < answer.status < 400:
        fail(f"{what} answered {answer.status or 'nothing'}: {answer.body[:300].decode(errors='replace')}")
    return answer


def wait_ready(url, process=None, tries=400):
    """Whether URL answers 200 within TRIES × 50 ms (sooner false if PROCESS ends)."""
    for _ in range(tries):
        if get(url).status == 200:
            return True
        if process is not None and process.poll() is not None:
            return False
        time.sleep(0.05)
    return False


def fields_of(url, method="GET", body=None, headers=None):
    """The header fields of the answer to URL that the floor (Benchmarks/http-floor) sends as they are, as
    "Name: value" lines: Content-Type, Cache-Control, ETag, Vary (libmicrohttpd and MicroHTTP add Date,
    Content-Length, X-Request-Id)."""
    answer = request(method, url, body=body, headers=headers)
    kept = ("content-type", "cache-control", "etag", "vary")
    return "".join(f"{name}: {value}\n" for name, value in answer.fields if name.lower() in kept)


def start_postgres(work):
    """A throwaway PostgreSQL 15 cluster of the project's own in WORK/postgres (scripts/postgres.sh: as root, it runs
    as the `postgres` user the Debian package creates), stopped at exit and when this process ends; its URL."""
    at_exit(lambda: stop_postgres(work))
    return output_of(["bash", "scripts/postgres.sh", "start", f"{work}/postgres", "--stop-with", os.getpid()])


def stop_postgres(work):
    subprocess.run(["bash", "scripts/postgres.sh", "stop", f"{work}/postgres"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def psql(url, sql, *options):
    """One statement's rows (psql -At), on the database at URL."""
    return output_of([f"{PGBIN}/psql", url, "-v", "ON_ERROR_STOP=1", "-Atqc", sql, *options])


# --- CPU time -------------------------------------------------------------------------------------------------------

def cpu_ticks(pids):
    """The CPU the processes have used, in clock ticks, as (user, system): their threads' and that of the children
    they have waited for (PostgreSQL's ended backends count in the postmaster's). A process gone is 0."""
    user = system = 0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        # The fields after the command name (which may hold spaces): utime, stime, cutime and cstime are the 12th to
        # 15th of them (fields 14 to 17 of proc(5)).
        fields = stat.rsplit(") ", 1)[1].split()
        user += int(fields[11]) + int(fields[13])
        system += int(fields[12]) + int(fields[14])
    return user, system


def process_tree(pid):
    """PID and every process below it."""
    children = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(") ", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    tree, pending = [], [pid]
    while pending:
        tree.append(pending.pop(0))
        pending += sorted(children.get(tree[-1], []))
    return tree


def cpu_per_request(before, after, requests):
    """The microseconds of CPU per request between two cpu_ticks readings, as (user, system) strings with one
    decimal ("n/a" without requests)."""
    if not requests:
        return "n/a", "n/a"
    hz = os.sysconf("SC_CLK_TCK")
    return tuple(f"{(a - b) * 1e6 / hz / requests:.1f}" for a, b in zip(after, before))


def cpu_sum(cpu):
    """User + system of a cpu_per_request pair, with one decimal ("n/a" counts 0)."""
    return f"{sum(float(part) for part in cpu if part != 'n/a'):.1f}"


# --- wrk ------------------------------------------------------------------------------------------------------------

def wrk(url, seconds, *options, latency=True, env=None, connections=CONNECTIONS):
    """wrk's output (stdout and stderr) of one run of -t1 against URL (64 connections unless told otherwise)."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", *(["--latency"] if latency else []), *options, url]
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env=dict(os.environ, **(env or {}))).stdout


def wrk_rps(output):
    """wrk's Requests/sec, as printed; "" when there is none."""
    found = re.search(r"^Requests/sec:\s*([0-9.]*)", output, re.M)
    return found.group(1) if found else ""


def wrk_requests(output):
    """The number of requests in wrk's output (0 when none)."""
    found = re.search(r"^ *(\d+) requests in ", output, re.M)
    return int(found.group(1)) if found else 0


def wrk_summary(output):
    """"N requests in Ts" of wrk's output."""
    found = re.search(r"^ *(\d+ requests in [^,]*),", output, re.M)
    return found.group(1) if found else ""


def to_ms(latency):
    """A wrk latency (123.45us, 1.23ms, 2.00s, 1.00m) in milliseconds, with two decimals."""
    found = re.match(r"([0-9.]+)(us|ms|s|m)?$", latency or "")
    if not found:
        return "0.00"
    scale = {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}.get(found.group(2), 1)
    return f"{float(found.group(1)) * scale:.2f}"


def wrk_percentile(output, percent):
    """The PERCENT% latency of wrk's latency distribution, in milliseconds."""
    distribution = output.split("Latency Distribution", 1)[1] if "Latency Distribution" in output else ""
    found = re.search(rf"^\s*{percent}%\s+(\S+)", distribution, re.M)
    return to_ms(found.group(1) if found else "")


def wrk_errors(output, non_2xx=True):
    """Non-2xx responses (unless NON_2XX is false) plus socket errors (connect, read, write, timeout); wrk prints
    their lines only when there are some."""
    errors = sum(int(found.split()[-1]) for found in re.findall(r"Non-2xx or 3xx responses:.*", output)) \
        if non_2xx else 0
    for found in re.findall(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output):
        errors += sum(map(int, found))
    return errors


def wrk_error_lines(output, also=()):
    """wrk's lines about errors (and those matching ALSO), for stderr."""
    pattern = "|".join(["Non-2xx", "Socket errors", *also])
    return [line for line in output.splitlines() if re.search(pattern, line)]


def put_unexpected(output):
    """The count of answers Benchmarks/put-tab-order.lua did not expect, from wrk's output; None when the script
    printed none."""
    found = re.search(r"^put-tab-order\.lua: responses other than \d+: (\d+)$", output, re.M)
    return int(found.group(1)) if found else None


def median_run(values):
    """The index of the median of VALUES (the lower middle one of an even count, ties in order)."""
    order = sorted(range(len(values)), key=lambda index: (float(values[index] or 0), index))
    return order[(len(values) + 1) // 2 - 1]


def ratio(a, b, digits=2):
    """A ÷ B with DIGITS decimals, "n/a" when B is not above 0."""
    a, b = float(a or 0), float(b or 0)
    return f"{a / b:.{digits}f}" if b > 0 else "n/a"


# --- the machine ----------------------------------------------------------------------------------------------------

def machine():
    """One line with the core count, the CPU model, the memory and the load average."""
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
                 "")
    memory = next(int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal"))
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    return f"nproc: {os.cpu_count()}; CPU: {model}; memory: {memory / 1048576:.1f} GiB; load average: {load}"


def print_machine():
    print(machine())


# --- FIGURE and TARGET lines ----------------------------------------------------------------------------------------

failed = 0
targets = []
# The program's thresholds: Benchmarks/Thresholds/<program name>.txt, one target a line, "NAME OP VALUE" (OP: >=, <=
# or ==; # starts a comment).
THRESHOLDS = f"Benchmarks/Thresholds/{NAME}.txt"


def mark_failed():
    global failed
    failed = 1


def figure(name, value, unit=""):
    """Prints "FIGURE NAME VALUE UNIT", a measured figure (what Benchmarks/scaling.py reads, and the results' JSON
    file keeps)."""
    print(f"FIGURE {name} {value}" + (f" {unit}" if unit else ""))


def threshold(name):
    """(OP, VALUE) of the target NAME in the thresholds file; None when it has none."""
    try:
        for line in open(THRESHOLDS, encoding="utf-8"):
            fields = line.split()
            if len(fields) >= 3 and fields[0] == name:
                return fields[1], fields[2]
    except OSError:
        pass
    return None


def target(name, measured, op=None, value=None):
    """Records the TARGET line (printed after the table by finish); a non-number fails. Without OP and VALUE they are
    read from the thresholds file (a target missing there fails)."""
    measured = str(measured)
    if op is None:
        found = threshold(name)
        if found is None:
            targets.append(f"TARGET {name}: {measured} (no threshold in {THRESHOLDS}) FAIL")
            mark_failed()
            return
        op, value = found
    ok = False
    if re.fullmatch(r"[0-9.]+", measured):
        m, v = float(measured), float(value)
        ok = m >= v if op == ">=" else m <= v if op == "<=" else m == v
    targets.append(f"TARGET {name}: {measured} (required {op} {value}) {'PASS' if ok else 'FAIL'}")
    if not ok:
        mark_failed()


def finish():
    """Prints the TARGET lines, saves the results and exits 1 if anything failed."""
    for line in targets:
        print(line)
    results_save()
    sys.exit(failed)


# --- results files --------------------------------------------------------------------------------------------------

_results = {}


def commit_id():
    """HEAD's short hash, with "-dirty" when the work tree differs from it (results files aside)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        return "unknown"
    status = subprocess.run(["git", "status", "--porcelain", "--", ".", ":!Benchmarks/results"],
                            capture_output=True, text=True).stdout
    return head.stdout.strip() + ("-dirty" if status.strip() else "")


def results_start():
    """From here on, what the program prints (stdout, its children's too) is also kept, under a header naming the
    UTC date, the commit, the machine, the command with its BENCH_* settings, the tabconfig binary and the thresholds
    file; results_save then writes it to Benchmarks/results/<program name>/<UTC date>-<commit>.md (…-2.md, …-3.md
    when that exists), and beside it the same name ending in .json: those facts, every FIGURE line as {"value",
    "unit"} under "figures" and every TARGET line as {"name", "measured", "op", "required", "pass"} under "targets",
    and "passed" (every target passed). BENCH_RESULTS=0: nothing is kept."""
    if os.environ.get("BENCH_RESULTS", "1") == "0":
        return
    now = time.gmtime()
    settings = "".join(f"{line} " for line in sorted(f"{key}={value}" for key, value in os.environ.items()
                                                      if re.fullmatch(r"BENCH_[A-Z_]*", key)))
    Path(".build-bench").mkdir(exist_ok=True)
    handle, log = tempfile.mkstemp(prefix="results.", dir=ROOT / ".build-bench")
    os.close(handle)
    at_exit(lambda: Path(log).unlink(missing_ok=True))
    _results.update(date=time.strftime("%Y-%m-%d", now), time=time.strftime("%Y-%m-%d %H:%M:%S", now),
                    commit=commit_id(), machine=machine(), settings=settings, log=log)
    header = [f"# Benchmarks/{NAME}.py", "", f"- date: {_results['time']} UTC",
              f"- commit: {_results['commit']} (`git rev-parse --short HEAD`; -dirty: the work tree differed from "
              "it)",
              f"- machine: {_results['machine']} (at the start)",
              f"- command: `Benchmarks/{NAME}.py`; settings: {settings or 'none'}",
              f"- tabconfig: {os.environ.get('TABCONFIG_BINARY') or 'none'}"]
    if os.path.isfile(THRESHOLDS):
        header.append(f"- thresholds: [Thresholds/{NAME}.txt](../../Thresholds/{NAME}.txt) at that commit")
    Path(log).write_text("\n".join([*header, "", "What the script printed:", "", "```text", ""]))
    # stdout itself goes through tee, so that what the servers and tools started from here print is kept too.
    sys.stdout.flush()
    saved = os.dup(1)
    tee = subprocess.Popen(["tee", "-a", log], stdin=subprocess.PIPE, stdout=saved)
    os.dup2(tee.stdin.fileno(), 1)
    tee.stdin.close()
    _results.update(tee=tee, saved=saved)


def results_save():
    """Writes what results_start kept into its results file, and says where on stderr."""
    if not _results.get("log"):
        return
    sys.stdout.flush()
    os.dup2(_results["saved"], 1)
    os.close(_results["saved"])
    # tee ends when nothing writes to it any more. A server still running holds the pipe too, so wait at most 2 s:
    # tee writes what it reads at once.
    try:
        _results["tee"].wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass
    log = Path(_results.pop("log"))
    with open(log, "a") as kept:
        kept.write("```\n")
    folder = Path(f"Benchmarks/results/{NAME}")
    folder.mkdir(parents=True, exist_ok=True)
    base = folder / f"{_results['date']}-{_results['commit']}"
    file, n = Path(f"{base}.md"), 1
    while file.exists():
        n += 1
        file = Path(f"{base}-{n}.md")
    file.with_suffix(".json").write_text(results_json(log.read_text(errors="replace")) + "\n")
    log.chmod(0o644)
    shutil.move(log, file)
    print(f"results: {file}, {file.with_suffix('.json')}", file=sys.stderr)


def results_json(kept):
    """The JSON of results_save, from the FIGURE and TARGET lines of the kept output."""
    def number(text):
        try:
            return float(text)
        except ValueError:
            return None

    figures, found_targets = {}, []
    for line in kept.splitlines():
        if match := re.match(r"^FIGURE (\S+) (\S+)(?: (.*))?$", line):
            figures[match.group(1)] = {"value": number(match.group(2)), "unit": match.group(3) or ""}
        elif match := re.match(r"^TARGET (\S+): (\S+) \((?:required (\S+) (\S+)|.*)\) (PASS|FAIL)$", line):
            found_targets.append({"name": match.group(1), "measured": number(match.group(2)), "op": match.group(3),
                                  "required": float(match.group(4)) if match.group(4) else None,
                                  "pass": match.group(5) == "PASS"})
    return json.dumps({
        "script": f"Benchmarks/{NAME}.py", "date": f"{_results['time']} UTC", "commit": _results["commit"],
        "machine": _results["machine"], "settings": _results["settings"].split(),
        "tabconfig": os.environ.get("TABCONFIG_BINARY") or None,
        "thresholds": THRESHOLDS if os.path.exists(THRESHOLDS) else None,
        "passed": all(found["pass"] for found in found_targets), "figures": figures, "targets": found_targets,
    }, indent=2)


# --- the PostgreSQL reference ---------------------------------------------------------------------------------------

def pgbench_upsert(name, url, directory, duration, postmaster=None):
    """The PostgreSQL reference of the durable-write scenarios on the database at URL: its table
    (Benchmarks/pgbench-schema.sql), then Benchmarks/pgbench-upsert.sql at 64 clients (pgbench -j 2, prepared
    statements), a 2 s warm-up and a DURATION s run logging each transaction into DIRECTORY. Returns {"rps", "p50",
    "p99"} and records the errors/put/NAME target; prints what it ran. With the cluster's POSTMASTER pid, also prints
    the CPU per transaction of the measured run, PostgreSQL's and pgbench's, and returns their sum as "cpu_total"."""
    run([f"{PGBIN}/psql", url, "-v", "ON_ERROR_STOP=1", "-q", "-f", "Benchmarks/pgbench-schema.sql"])
    print("postgresql: " + psql(url, "select version() || '; fsync=' || current_setting('fsync') || "
                                     "', synchronous_commit=' || current_setting('synchronous_commit') || "
                                     "', wal_sync_method=' || current_setting('wal_sync_method') || "
                                     "', shared_buffers=' || current_setting('shared_buffers')"))
    bench = [f"{PGBIN}/pgbench", "-n", "-c", str(CONNECTIONS), "-j", "2", "-M", "prepared", "-f",
             "Benchmarks/pgbench-upsert.sql"]
    subprocess.run([*bench, "-T", str(WARMUP), url], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if postmaster:
        database_before, client_before = cpu_ticks(process_tree(postmaster)), cpu_ticks([os.getpid()])
    measured = subprocess.run([*bench, "-T", str(duration), "-l", f"--log-prefix={directory}/txlog", url],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = measured.stdout
    if measured.returncode != 0:
        print(output, end="", file=sys.stderr)
        mark_failed()

    def line(pattern):
        found = re.search(pattern, output, re.M)
        return found.group(1) if found else ""

    transactions = line(r"^number of transactions actually processed: (\d+)")
    result = {}
    if postmaster:
        client_after = cpu_ticks([os.getpid()])
        time.sleep(0.5)  # pgbench's backends end and are waited for: their CPU then counts in the postmaster's
        database_after = cpu_ticks(process_tree(postmaster))
        database_cpu = cpu_per_request(database_before, database_after, int(transactions or 0))
        client_cpu = cpu_per_request(client_before, client_after, int(transactions or 0))
        print(f"{name}: CPU per transaction (user + system microseconds): PostgreSQL {'+'.join(database_cpu)}, "
              f"pgbench {'+'.join(client_cpu)}")
        result["cpu_total"] = cpu_sum(database_cpu + client_cpu)
    tps = line(r"^tps = ([0-9.]*) \(without initial connection time\)")
    result["rps"] = f"{float(tps or 0):.2f}"
    # Per-transaction log lines: client_id transaction_no latency_us script_no epoch_s epoch_us.
    latencies = []
    for log in Path(directory).glob("txlog.*"):
        latencies += [int(entry.split()[2]) for entry in log.read_text().splitlines() if entry.strip()]
        log.unlink()
    latencies.sort()

    def pick(q):
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] / 1000

    result["p50"], result["p99"] = (f"{pick(0.50):.2f}", f"{pick(0.99):.2f}") if latencies else ("0", "0")
    aborted = line(r"^number of failed transactions: (\d+)")
    print(f"{name}: {transactions + ' transactions' if transactions else ''} in {duration}s, "
          f"{line(r'^latency average = (.*)$')} average, failed transactions: {aborted or '?'}")
    target(f"errors/put/{name}", aborted or "1", "==", "0")
    print(f"{name}: " + psql(url, "select count(*) || ' rows, revisions summing to ' || sum(revision) "
                                  "from customizations"))
    return result

