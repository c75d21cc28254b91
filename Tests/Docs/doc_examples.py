#!/usr/bin/env python3
"""Runs every ```sh example of README.md and docs/*.md as written, and compares its output with the one shown.

    python3 Tests/Docs/doc_examples.py [--binary PATH] [--only NAME] [--keep]

Conventions (README.md, "Contributing", says the same):
- A file is a chapter: README.md, then docs/*.md but ARCHITECTURE.md (docs/design/ is not read either: no examples).
  Its ```sh blocks run in file order in one bash session of their own, so variables, functions and jobs carry over.
- In a block, lines that start with `#` in the first column are expected output: `# text` is the line `text`,
  `#` alone an empty line. They belong to the command lines just above them: those run as one step whose standard
  output must be exactly these lines (its exit status is not checked: the output shows it). A step not followed by
  any `#` line is run, its output not compared, and each of its commands must succeed. `command  # note` is a
  comment, as in bash. Standard error is never compared: an example that shows it writes `2>&1`.
- `…` in an expected line matches any text within the line; a line `# …` alone matches any number of lines.
- An HTML comment on the line above a block: `<!-- example: skip (REASON) -->` does not run it (SKIP, with the
  reason); `<!-- example: server stopped -->` stops the chapter's server first (SIGINT, as Ctrl-C where `run.sh`
  runs), as the text has told the reader to.

The state each chapter starts from, as its first paragraph says: a shell in the repository's root, `tabconfig` on
the PATH, and a server on the embedded defaults (`./scripts/run.sh`) running over a fresh data directory `./data`.
The harness gives each chapter that: a new directory holding a link to every top-level entry of the repository (so
`Tests/…` and `scripts/…` resolve, and nothing is written into the checkout), HOME a new directory whose
`~/.local/bin/tabconfig` links to --binary and comes first on the PATH, TMPDIR a directory of the run's own (so
`mktemp` leaves nothing behind), no TABCONFIG_* variables, and `tabconfig serve` started there on a free port P.
TABCONFIG_PORT=P is exported, so a server an example starts listens on P too; `localhost:8080` and
`127.0.0.1:8080` in commands become port P, and port P in the output becomes 8080 again. The background jobs a
chapter leaves are ended (SIGTERM) when it ends, and a PostgreSQL cluster it left at /tmp/tabconfig-pg-$$ (the
shell's pid, as the docs name one) is stopped.

Masking rule, applied to the expected and the actual lines alike before they are compared: a path made by `mktemp`
(`…/tmp.` and 10 letters or digits) reads `/tmp/tmp.XXXXXXXXXX`; an RFC 3339 time in whole seconds
(`2026-11-24T17:02:11Z`, `…+0000`) reads `<time>` (one with fractions is left as it is, so a doc showing
milliseconds the service does not write fails); tabs are expanded to 8 columns and trailing blanks (and the `\\r` of
HTTP headers) dropped. Anything else that varies (request ids, tokens, durations) is written as `…` in the doc.
"""
import argparse
import difflib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^\s*<!--\s*example:\s*(skip|server stopped)\s*(?:\((.*)\))?\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
MKTEMP = re.compile(r"[^\s\"':=]*/tmp\.[A-Za-z0-9]{10}")
RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:?\d\d)")
STEP_TIMEOUT = 300


@dataclass
class Step:
    line: int
    code: list = field(default_factory=list)
    expected: list = None  # None: not compared, every command must succeed


@dataclass
class Block:
    file: str
    line: int
    steps: list
    skip: str = None
    stop_server: bool = False


def parse(path):
    """The chapter's ```sh blocks, each split into steps, with the marker above it."""
    blocks, marker, block, indent = [], None, None, ""
    for number, text in enumerate(path.read_text().splitlines(), 1):
        fence = FENCE.match(text)
        if block is None:
            if fence and fence.group(2) == "sh":
                block, indent = Block(path.relative_to(REPO).as_posix(), number, []), fence.group(1)
                if marker:
                    block.skip = (marker.group(2) or "no reason given") if marker.group(1) == "skip" else None
                    block.stop_server = marker.group(1) == "server stopped"
            elif text.strip():
                marker = MARKER.match(text)
            continue
        if fence and not fence.group(2):
            blocks.append(block)
            block, marker = None, None
            continue
        add_line(block, number, text[len(indent):] if text.startswith(indent) else text)
    return blocks


def add_line(block, number, text):
    """Adds a line of a block: to the expected output of its last step, or to the commands of a step."""
    steps = block.steps
    if text.startswith("#"):
        if not steps or not steps[-1].code:
            raise SystemExit(f"{block.file}:{number}: expected output with no command above it")
        steps[-1].expected = (steps[-1].expected or []) + [text[2:] if text.startswith("# ") else text[1:]]
    elif text.strip() or (steps and steps[-1].expected is None):  # a blank line starts no step
        if not steps or steps[-1].expected is not None:
            steps.append(Step(number))
        steps[-1].code.append(text)


def mask(line):
    return RFC3339.sub("<time>", MKTEMP.sub("/tmp/tmp.XXXXXXXXXX", line.expandtabs().rstrip()))


def matches(expected, actual):
    pattern = ""
    for line in expected:
        if line.strip() == "…":
            pattern += r"(?:[^\n]*\n)*?"
        else:
            pattern += "[^\n]*".join(re.escape(part) for part in line.split("…")) + r"\n"
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual)) is not None


class Chapter:
    """One chapter's directory, its server and its bash session."""

    def __init__(self, binary, root, name):
        self.binary, self.dir = binary, root / name
        self.dir.mkdir()
        for entry in REPO.iterdir():
            if not entry.name.startswith(".") and entry.name != "data":
                (self.dir / entry.name).symlink_to(entry)
        home = root / f"{name}-home"
        (home / ".local/bin").mkdir(parents=True)
        (home / ".local/bin/tabconfig").symlink_to(binary)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("TABCONFIG_")}
        (root / "tmp").mkdir(exist_ok=True)
        self.env.update(HOME=str(home), PATH=f"{home}/.local/bin:{os.environ['PATH']}", TMPDIR=str(root / "tmp"))
        self.log, self.server, self.steps, self.stuck = root / f"{name}-stderr.log", None, 0, False
        self.port = self.start_server()
        self.env["TABCONFIG_PORT"] = str(self.port)
        self.shell = subprocess.Popen(["bash", "--noprofile", "--norc"], cwd=self.dir, env=self.env, text=True,
                                      stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                      stderr=self.log.open("a"), start_new_session=True)

    def start_server(self):
        server_log = self.log.with_name(self.dir.name + "-server.log")
        self.server = subprocess.Popen([self.binary, "serve", "--port", "0"], cwd=self.dir, env=self.env,
                                       stdout=subprocess.DEVNULL, stderr=server_log.open("w"))
        for _ in range(400):
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", server_log.read_text())
            if found:
                return int(found.group(1))
            if self.server.poll() is not None:
                break
            time.sleep(0.05)
        raise SystemExit(f"the server did not start:\n{server_log.read_text()}")

    def stop_server(self):
        if self.server and self.server.poll() is None:
            self.server.send_signal(signal.SIGINT)  # Ctrl-C in run.sh's terminal
            self.server.wait(timeout=30)

    def run(self, code, compared=True):
        """Runs one step in the session: (exit status, stdout lines, stderr text). The status of a step whose output
        is not compared is non-zero when any of its commands failed, else that of its last command."""
        code = re.sub(r"\b(localhost|127\.0\.0\.1):8080\b", rf"\1:{self.port}", "\n".join(code))
        self.steps += 1
        step, out, err, status = (self.dir.parent / f"{self.dir.name}-{self.steps}.{kind}"
                                  for kind in ("sh", "out", "err", "rc"))
        step.write_text(code + "\n")
        status.unlink(missing_ok=True)
        self.shell.stdin.write(  # the ERR trap counts each command that fails
            f"__failed=0; trap 'echo \"exit status $? of: $BASH_COMMAND\" >&2; __failed=1' ERR; "
            f". {step} </dev/null >{out} 2>{err}; echo $? $__failed >{status}.tmp; trap - ERR; "
            f"mv {status}.tmp {status}\n")
        self.shell.stdin.flush()
        deadline = time.monotonic() + STEP_TIMEOUT
        while not status.exists():
            if time.monotonic() > deadline or self.shell.poll() is not None:
                self.stuck = True
                return None, [], f"timed out after {STEP_TIMEOUT} s, or the shell exited"
            time.sleep(0.02)
        stdout = re.sub(rf"\b(localhost|127\.0\.0\.1):{self.port}\b", r"\1:8080", out.read_text())
        with self.log.open("a") as log:
            log.write(err.read_text())
        last, failed = status.read_text().split()
        return int(last) if compared else int(last) or int(failed), stdout.splitlines(), err.read_text()

    def close(self):
        """Ends the session's background jobs, the session and the server."""
        try:
            if not self.stuck:
                self.run(["kill $(jobs -p) 2>/dev/null; wait"])
                self.shell.stdin.close()
                self.shell.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(self.shell.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.stop_server()
        cluster = Path(f"/tmp/tabconfig-pg-{self.shell.pid}")  # what the docs name a scripts/postgres.sh cluster
        if cluster.exists():
            subprocess.run(["bash", REPO / "scripts/postgres.sh", "stop", cluster], stdout=subprocess.DEVNULL)


def check_block(chapter, block):
    """None when every step of the block gave what it shows, else the report of the first that did not."""
    if block.stop_server:
        chapter.stop_server()
    for step in block.steps:
        status, actual, stderr = chapter.run(step.code, compared=step.expected is not None)
        where = f"{block.file}:{step.line}"
        if step.expected is None:
            if status != 0:
                return f"{where}: exit status {status}, expected 0\n{stderr}"
            continue
        expected, got = [mask(line) for line in step.expected], [mask(line) for line in actual]
        if status is None or not matches(expected, got):
            diff = difflib.unified_diff(expected, got, "shown in the doc", "printed", lineterm="")
            return f"{where}: output differs (exit status {status})\n" + "\n".join(diff) + f"\n{stderr}"
    return None


def run_chapter(path, binary, root, totals):
    blocks = parse(path)
    if not blocks:
        return
    chapter = Chapter(binary, root, path.stem) if any(not b.skip for b in blocks) else None
    failed = False
    try:
        for block in blocks:
            where = f"{block.file}:{block.line}"
            if block.skip:
                totals["skipped"] += 1
                print(f"SKIP {where}: {block.skip}")
            elif failed:
                totals["not run"] += 1
                print(f"---- {where}: not run, an earlier block of this chapter failed")
            else:
                totals["checked"] += 1
                report = check_block(chapter, block)
                failed = report is not None
                totals["failed"] += failed
                print(f"FAIL {report}" if failed else f"PASS {where}", flush=True)
    finally:
        if chapter:
            chapter.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.environ.get("TABCONFIG_BINARY", REPO / ".build/debug/tabconfig"))
    parser.add_argument("--only", help="run only the chapters whose file name contains this")
    parser.add_argument("--keep", action="store_true", help="keep the chapters' directories and logs")
    args = parser.parse_args()
    binary = Path(args.binary).resolve()
    if not binary.is_file():
        raise SystemExit(f"no binary at {binary} (--binary, TABCONFIG_BINARY)")
    files = [REPO / "README.md"] + sorted(p for p in (REPO / "docs").glob("*.md") if p.name != "ARCHITECTURE.md")
    root = Path(tempfile.mkdtemp(prefix="tabconfig-docs-"))
    totals = {"checked": 0, "skipped": 0, "failed": 0, "not run": 0}
    try:
        for path in files:
            if not args.only or args.only in path.name:
                run_chapter(path, binary, root, totals)
    finally:
        if args.keep or totals["failed"]:
            print(f"directories and logs kept in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    not_run = f", {totals['not run']} not run" if totals["not run"] else ""
    print(f"{totals['checked']} blocks checked, {totals['skipped']} skipped, {totals['failed']} failed{not_run}")
    sys.exit(1 if totals["failed"] else 0)


if __name__ == "__main__":
    main()
