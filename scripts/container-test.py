#!/usr/bin/env python3
"""Container test: builds the image from the project's Dockerfile with podman and runs it the way an orchestrator
would — read-only root filesystem, the image's non-root user, a host directory as the /data volume, configuration
only through TABCONFIG_* environment variables — then checks: /healthz within 10 s of start, the sample tab bar,
a user's tab order surviving a new container on the same volume, `podman stop` (SIGTERM) exiting 0 within 10 s,
a non-zero uid, the image's own HEALTHCHECK, and compose.yaml with podman-compose; then compose.replicas.yaml
(PostgreSQL, two replicas, haproxy): a write through haproxy read on each replica, a publish reaching both, one
replica stopped while requests go on, and started again with everything. Prints the image size and what dominates
it, timings, and ends with a PASS/FAIL line (exit status 1 on any failure).

Run: `make container-test` (or `python3 scripts/container-test.py`), as root or as a user with sudo.
It installs podman, buildah, debootstrap, runc and podman-compose from Debian when missing.

Options:
  --binary PATH  build the image from an already built tabconfig (a release build on this machine) instead of
                 compiling it in the Dockerfile's build stage: the Dockerfile's `prebuilt` target, in a build
                 context of this program's own holding the Dockerfile and prebuilt/ — the binary stripped, the
                 tabconfig_TabBarAPI.resources folder found next to it, and the Swift runtime libraries it loads
                 from the toolchain (none when it was linked with --static-swift-stdlib; its RUNPATH has $ORIGIN,
                 so they go next to it). The swift base image is then neither needed nor pulled nor built.
  --bases-only   prepare the base images a run with the same options needs (pulled, or cached or new stand-ins)
                 and exit, so that a test suite can do it beside the Swift build; with --binary the binary need
                 not exist yet.

Base images: the official docker.io/library/swift:6.3-bookworm and debian:bookworm-slim are pulled when a
registry answers. When it does not (no registry is reachable on the project's build machines), local stand-ins
are built under the same names: debian:bookworm-slim by debootstrap from the Debian mirror this machine's apt uses,
and swift:6.3-bookworm as that plus the official image's build packages, using the host's Swift toolchain and
Swift package mirror, which are mounted into the build rather than copied. postgres:15-bookworm and
haproxy:2.6-bookworm (for compose.replicas.yaml) have stand-ins too: Debian's packages on the debian stand-in, from
scripts/stand-ins/. Stand-ins are built once and reused.

The base images, the image (and its build stage, tagged :build-stage, when built from source) stay for the next
run, which rebuilds only what changed; untagged leftovers of earlier builds are removed.

Environment: CONTAINER_TEST_IMAGE (default localhost/tabconfig:latest, the name compose.yaml uses) names the
image it builds.
"""

import argparse
import datetime
import glob
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests/Support"))
from tabconfig_server import hs256_token  # noqa: E402

SWIFT_BASE = "docker.io/library/swift:6.3-bookworm"
DEBIAN_BASE = "docker.io/library/debian:bookworm-slim"
POSTGRES_BASE = "docker.io/library/postgres:15-bookworm"
HAPROXY_BASE = "docker.io/library/haproxy:2.6-bookworm"
STAND_IN_LABEL = "org.tabconfig.stand-in"
# Cached stand-ins carry this in their label; a stand-in made by another recipe is rebuilt.
STAND_IN_RECIPE = "recipe2"
RESOURCES = "tabconfig_TabBarAPI.resources"
TEST_USER = "alice"
ORDER = '{"order": ["profile", "favorites", "search", "home"], "hidden": ["settings"]}'

# As in the recipe seen working on the project's machines: they refuse setrlimit and pid limits inside containers,
# and need the runc runtime (crun fails on their cgroup layout); containers share the host network unless they ask
# for another (compose.yaml's own network is exercised too). Short image names resolve on docker.io, as with Docker.
CONTAINERS_CONF = """[containers]
default_ulimits = []
pids_limit = 0
netns = "host"

[engine]
runtime = "runc"
"""
REGISTRIES_CONF = """unqualified-search-registries = ["docker.io"]
short-name-mode = "permissive"
"""
# Slim the debian stand-in the way the official -slim image is: no docs, man pages or locales, and apt keeps no caches.
DPKG_SLIM = """path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
"""
APT_CLEAN = """DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
"""
SWIFT_BUILD_PACKAGES = """binutils git gnupg2 libc6-dev libcurl4-openssl-dev libedit2 libgcc-12-dev libpython3-dev \\
    libpython3.11 libncurses6 libsqlite3-0 libstdc++-12-dev libxml2-dev libz3-dev pkg-config tzdata \\
    zlib1g-dev ca-certificates"""


class Stop(Exception):
    """Ends the test with the given exit status (after a failure that makes the rest meaningless)."""

    def __init__(self, status):
        super().__init__(status)
        self.status = status


class Terminated(BaseException):
    """SIGTERM, handled like Ctrl-C."""


# ---------------------------------------------------------------------------------------------------------------
# Small helpers without state.


def tab_ids(d):
    return [t["id"] for t in d["tabs"]]


def stop_with(message):
    print(message, file=sys.stderr)
    raise Stop(1)


def as_root(command):
    return command if os.geteuid() == 0 else ["sudo", *command]


def run(command, check=True, **options):
    """subprocess.run with text output captured unless stdout/stderr are given."""
    options.setdefault("stdout", subprocess.PIPE)
    options.setdefault("stderr", subprocess.PIPE)
    return subprocess.run(command, check=check, text=True, **options)


def section(title):
    print(f"\n== {title}")


def indent(text, prefix="  | "):
    return "\n".join(prefix + line for line in text.splitlines())


def tail(text, lines):
    return "\n".join(text.splitlines()[-lines:])


def tail_file(path, lines, prefix="  | "):
    print(indent(tail(Path(path).read_text(errors="replace"), lines), prefix))


def seconds_since(start):
    return f"{time.monotonic() - start:.1f}"


def ms_since(start):
    return int((time.monotonic() - start) * 1000)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def json_get(body, expression):
    """expression(parsed body) as compact JSON, or None when the body is not JSON or lacks it."""
    try:
        return json.dumps(expression(json.loads(body)), separators=(",", ":"))
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def process_ids(pid):
    """The real uid and gid of a process, as strings; empty when it is gone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return "", ""
    field = {line.split(":")[0]: line.split()[1:2] for line in lines if ":" in line}
    return (field.get("Uid") or [""])[0], (field.get("Gid") or [""])[0]


def split_status(response):
    """A response printed by curl -w '\\n%{http_code}': (status, body)."""
    body, newline, status = response.rpartition("\n")
    return status, (body if newline else response)


def debian_mirror():
    """The Debian mirror this machine's apt uses for bookworm (not the security archive)."""
    uris = []
    sources_list = Path("/etc/apt/sources.list")
    if sources_list.is_file():
        for line in sources_list.read_text().splitlines():
            fields = re.sub(r"\[[^]]*\] *", "", line, count=1).split()
            if len(fields) >= 3 and fields[0] == "deb" and fields[2] == "bookworm":
                uris.append(fields[1])
    for file in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        for stanza in re.split(r"\n\s*\n", Path(file).read_text()):
            if re.search(r"(^|\n)Suites:[^\n]*bookworm( |$|\n)", stanza) and re.search(
                r"(^|\n)Types:[^\n]*deb( |$|\n)", stanza
            ):
                uris += [line.split()[1] for line in stanza.splitlines() if line.startswith("URIs:")]
    uris = [uri for uri in uris if "-security" not in uri]
    if not uris:
        stop_with("cannot find a Debian bookworm mirror in /etc/apt")
    return uris[0]


def git_rewrites():
    """The host's git URL rewrites (the Swift package mirror), as (base, insteadOf) pairs."""
    output = run(["git", "config", "--get-regexp", r"^url\..*\.insteadof$"], check=False).stdout
    pairs = []
    for line in output.splitlines():
        key, _, value = line.partition(" ")
        pairs.append((key.removeprefix("url.").removesuffix(".insteadof"), value.strip()))
    return pairs


def swift_toolchain():
    """The host toolchain's usr directory (the parent of the bin directory holding swift)."""
    swift = shutil.which("swift")
    if not swift:
        stop_with("no swift on PATH: cannot find the Swift toolchain")
    return Path(os.path.realpath(swift)).parent.parent


def toolchain_libraries(binary):
    """(soname, path) of every shared library the binary loads from the Swift toolchain's lib directory."""
    lib = swift_toolchain() / "lib"
    libraries = []
    for line in run(["ldd", str(binary)], check=False).stdout.splitlines():
        match = re.match(r"\s*(\S+) => (/\S+)", line)
        if match and Path(match[2]).resolve().is_relative_to(lib.resolve()):
            libraries.append((match[1], Path(match[2])))
    return lib, libraries


# ---------------------------------------------------------------------------------------------------------------


class ContainerTest:
    def __init__(self, options):
        self.options = options
        self.image = os.environ.get("CONTAINER_TEST_IMAGE", "localhost/tabconfig:latest")
        self.run_id = f"tabconfig-ct-{os.getpid()}"
        self.start = time.monotonic()
        self.passed = 0
        self.failed = 0
        self.work = None
        self.started_containers = []
        self.compose_project = ""
        self.compose_file = "compose.yaml"
        self.port = 0
        self.secret = self.jwt = self.admin_token = self.postgres_password = ""
        self.container = ""
        self.data_dir = None
        self.base_used = []
        self.built_from = ""

    # --- results --------------------------------------------------------------------------------------------------

    def ok(self, message):
        self.passed += 1
        print(f"  ok    {message}")

    def not_ok(self, message):
        self.failed += 1
        print(f"  FAIL  {message}")

    def check(self, condition, good, bad):
        if condition:
            self.ok(good)
        else:
            self.not_ok(bad)

    # --- podman and podman-compose ----------------------------------------------------------------------------------

    def podman_env(self):
        return ["env", f"CONTAINERS_CONF={self.work}/containers.conf",
                f"CONTAINERS_REGISTRIES_CONF={self.work}/registries.conf"]

    def podman(self, *args, limit=None):
        """The command line of podman with this program's containers.conf and registries.conf, as root (given up
        after limit seconds, status 124)."""
        return as_root([*(["timeout", str(limit)] if limit else []), *self.podman_env(), "podman", *args])

    def pm(self, *args, check=True, log=None, quiet=False):
        """Runs podman: stdout captured (or appended to log with stderr), stderr shown unless quiet."""
        if log:
            with open(log, "a") as out:
                return run(self.podman(*args), check=check, stdout=out, stderr=subprocess.STDOUT)
        return run(self.podman(*args), check=check, stderr=subprocess.DEVNULL if quiet else None)

    def pm_combined(self, *args, limit=None):
        """Runs podman with stdout and stderr together in the result's stdout, never raising."""
        return run(self.podman(*args, limit=limit), check=False, stderr=subprocess.STDOUT)

    def pm_out(self, *args):
        """podman's output, empty when it fails."""
        result = self.pm(*args, check=False, quiet=True)
        return result.stdout.strip() if result.returncode == 0 else ""

    def pm_without_timer_errors(self, *args):
        """Runs podman, leaving out the error podman without systemd logs for every HEALTHCHECK timer it cannot make
        or remove."""
        result = run(self.podman(*args), check=False)
        errors = [line for line in result.stderr.splitlines() if "unable to get systemd connection" not in line]
        if errors:
            print("\n".join(errors), file=sys.stderr)
        if result.returncode != 0:
            raise subprocess.CalledProcessError(result.returncode, ["podman", *args])
        return result.stdout

    def compose(self, *args):
        """podman-compose on the current project and file, with the image this program built (TABCONFIG_IMAGE):
        (succeeded, its output)."""
        command = as_root([
            *self.podman_env(), f"TABCONFIG_IMAGE={self.image}", f"TABCONFIG_PORT={self.port}",
            f"TABCONFIG_JWT_HS256_SECRET={self.secret}", f"TABCONFIG_ADMIN_TOKEN={self.admin_token}",
            f"POSTGRES_PASSWORD={self.postgres_password}",
            "podman-compose", "--project-name", self.compose_project, "-f", self.compose_file, *args])
        result = run(command, check=False, stderr=subprocess.STDOUT)
        return result.returncode == 0, result.stdout

    def compose_volumes(self):
        """The volumes the project's containers mount. podman-compose 1.0.3's down --volumes removes the named ones
        only, not the anonymous /data volumes of the replicas."""
        label = f"label=io.podman.compose.project={self.compose_project}"
        containers = self.pm_out("ps", "--all", "--quiet", "--filter", label).split()
        template = '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}'
        return self.pm_out("inspect", "--format", template, *containers).split() if containers else []

    def compose_down(self):
        """podman-compose down --volumes, then removes what it leaves: the network, the anonymous volumes."""
        volumes = self.compose_volumes()
        succeeded, output = self.compose("down", "--volumes")
        self.pm("network", "rm", f"{self.compose_project}_default", check=False, quiet=True)
        for volume in {*volumes, f"{self.compose_project}_postgres-data"}:
            self.pm("volume", "rm", volume, check=False, quiet=True)
        if succeeded:
            self.compose_project = ""
        return succeeded, output

    def container_logs(self, name):
        print(f"  --- logs of {name}")
        print(indent(tail(self.pm_combined("logs", name).stdout, 15)))

    def finish(self, status):
        """Removes what this run started (containers, compose projects with their volumes and networks, the work
        directory), whatever ended it."""
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if self.work:
            for container in self.started_containers:
                self.pm("rm", "--force", "--time", "0", container, check=False, quiet=True)
            if self.compose_project:
                self.compose_down()
            run(as_root(["rm", "-rf", self.work]), check=False)
        if status != 0 and self.failed == 0:
            print(f"\ncontainer-test: FAIL (stopped with status {status}, see above)")

    # --- setup ------------------------------------------------------------------------------------------------------

    def setup(self):
        section("setup")
        missing = [tool for tool in ("podman", "buildah", "debootstrap", "runc", "podman-compose")
                   if not shutil.which(tool)]
        if missing:
            print(f"apt-get install {' '.join(missing)}")
            run(as_root(["apt-get", "update", "-qq"]), stdout=None, stderr=None)
            run(as_root(["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", *missing]),
                stdout=subprocess.DEVNULL, stderr=None)
        self.work = tempfile.mkdtemp(prefix="tabconfig-container-test.", dir="/tmp")
        os.chmod(self.work, 0o755)
        Path(self.work, "containers.conf").write_text(CONTAINERS_CONF)
        Path(self.work, "registries.conf").write_text(REGISTRIES_CONF)
        compose_version = re.search(r"podman-composer? version\s+(\S+)",
                                    run(["podman-compose", "--version"], check=False).stdout)
        print(f"  {run(['podman', '--version']).stdout.strip()}, {run(['runc', '--version']).stdout.splitlines()[0]}, "
              f"podman-compose {compose_version[1] if compose_version else ''}")

    # --- base images ------------------------------------------------------------------------------------------------

    def stand_in_of(self, name):
        """The stand-in label of an image: empty for an official image, "recipeN:what" for a stand-in."""
        return self.pm_out("image", "inspect", "--format", f'{{{{index .Config.Labels "{STAND_IN_LABEL}"}}}}', name)

    def try_pull(self, name, limit):
        """Pulls an official base image, giving up after limit seconds."""
        result = self.pm_combined("pull", "-q", name, limit=limit)
        if result.returncode == 0:
            return True
        if result.returncode == 124:
            reason = f"no answer within {limit} s"
        else:
            reason = tail(result.stdout.rstrip("\n"), 1).rpartition(": ")[2]
        print(f"  pull {name} failed: {reason}")
        return False

    def ensure_base(self, name, limit, builder, rebuild=False):
        """Makes sure the image exists locally: official when it can be pulled, else the cached or a newly built
        stand-in (rebuild forces a new stand-in). Returns (pulled, built)."""
        label = self.stand_in_of(name)
        if self.try_pull(name, limit):
            self.base_used.append(f"{name}: official (pulled)")
            return True, False
        if label.split(":")[0] == STAND_IN_RECIPE and not rebuild:
            self.base_used.append(f"{name}: stand-in (cached, built earlier by this script)")
            return False, False
        if not label and self.pm("image", "exists", name, check=False).returncode == 0:
            self.base_used.append(f"{name}: official (cached, the registry did not answer)")
            return False, False
        start = time.monotonic()
        old_id = self.pm_out("image", "inspect", "--format", "{{.Id}}", name)
        print(f"  building the stand-in for {name}")
        builder()
        self.base_used.append(f"{name}: stand-in (built now in {seconds_since(start)} s)")
        if old_id:
            self.pm("rmi", old_id, check=False, quiet=True)
        return False, True

    def prepare_bases(self):
        section("base images (official when a registry answers, else local stand-ins)")
        debian_pulled, debian_built = self.ensure_base(DEBIAN_BASE, 60, self.build_debian_stand_in)
        # The swift image is large: give its pull time only when the registry answered for debian. The other stand-ins
        # are built on the debian one, so a new debian stand-in means new ones.
        limit = 1200 if debian_pulled else 30
        bases = [(POSTGRES_BASE, lambda: self.build_stand_in(POSTGRES_BASE, "postgres", "postgres-15-from-debian")),
                 (HAPROXY_BASE, lambda: self.build_stand_in(HAPROXY_BASE, "haproxy", "haproxy-from-debian"))]
        if not self.options.binary:
            bases.insert(0, (SWIFT_BASE, self.build_swift_stand_in))
        for name, builder in bases:
            self.ensure_base(name, limit, builder, rebuild=debian_built)
        for line in self.base_used:
            print(f"  used {line}")

    def write_root_file(self, path, text):
        run(as_root(["tee", str(path)]), input=text, stdout=subprocess.DEVNULL)

    def build_debian_stand_in(self):
        mirror = debian_mirror()
        rootfs = f"{self.work}/debian-rootfs"
        log = f"{self.work}/debootstrap.log"
        print(f"  debootstrap --variant=minbase bookworm from {mirror}")
        with open(log, "w") as out:
            result = run(as_root(["debootstrap", "--variant=minbase", "bookworm", rootfs, mirror]), check=False,
                         stdout=out, stderr=subprocess.STDOUT)
        if result.returncode != 0:
            tail_file(log, 20, prefix="")
            raise Stop(1)
        self.write_root_file(f"{rootfs}/etc/dpkg/dpkg.cfg.d/slim", DPKG_SLIM)
        self.write_root_file(f"{rootfs}/etc/apt/apt.conf.d/docker-clean", APT_CLEAN)
        self.write_root_file(f"{rootfs}/etc/apt/apt.conf.d/docker-no-languages", 'Acquire::Languages "none";\n')
        self.write_root_file(f"{rootfs}/etc/apt/sources.list",
                             f"deb {mirror} bookworm main\ndeb {mirror} bookworm-updates main\n")
        run(as_root(["find", f"{rootfs}/usr/share/doc", "-mindepth", "1", "!", "-name", "copyright", "!", "-type", "d",
                     "-delete"]))
        run(as_root(["find", f"{rootfs}/usr/share/locale", "-mindepth", "1", "-maxdepth", "1", "!", "-name",
                     "locale.alias", "-exec", "rm", "-rf", "{}", "+"]))
        leftovers = [path for pattern in ("usr/share/man/*", "usr/share/info/*", "var/cache/apt/archives/*.deb",
                                          "var/lib/apt/lists/*", "var/log/*.log", "var/cache/debconf/*-old")
                     for path in glob.glob(f"{rootfs}/{pattern}")]
        run(as_root(["rm", "-rf", *leftovers]))
        tar = subprocess.Popen(as_root(["tar", "-C", rootfs, "-c", "."]), stdout=subprocess.PIPE)
        imported = subprocess.run(
            self.podman("import", "--quiet", "--change", 'CMD ["bash"]', "--change",
                        f"LABEL {STAND_IN_LABEL}={STAND_IN_RECIPE}:debootstrap-bookworm-minbase", "-", DEBIAN_BASE),
            stdin=tar.stdout, stdout=subprocess.DEVNULL)
        tar.stdout.close()
        if tar.wait() != 0 or imported.returncode != 0:
            raise subprocess.CalledProcessError(tar.returncode or imported.returncode, "tar | podman import")
        run(as_root(["rm", "-rf", rootfs]))

    def stand_in_mounts(self):
        """Mount options for the host's toolchain and package mirror, which the swift stand-in uses in place."""
        directories = [str(swift_toolchain())]
        bases = sorted({base for base, _ in git_rewrites()})
        directories += [base.rstrip("/") for base in bases if Path(base).is_dir()]
        return [option for directory in directories for option in ("-v", f"{directory}:{directory}:ro")]

    def build_swift_stand_in(self):
        toolchain = swift_toolchain()
        directory = Path(self.work, "swift-stand-in")
        directory.mkdir()
        lines = [f"FROM {DEBIAN_BASE}",
                 "RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \\",
                 f"    {SWIFT_BUILD_PACKAGES} && rm -rf /var/lib/apt/lists/*"]
        lines += [f"RUN git config --system --add 'url.{base}.insteadOf' '{value}'" for base, value in git_rewrites()]
        lines += [f"ENV PATH={toolchain}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                  f"LABEL {STAND_IN_LABEL}={STAND_IN_RECIPE}:debian-with-host-toolchain-{toolchain}"]
        (directory / "Dockerfile").write_text("\n".join(lines) + "\n")
        self.build_or_show_log(f"{self.work}/swift-stand-in.log", "build", "--isolation", "chroot", "--network",
                               "host", "--pull=never", "-t", SWIFT_BASE, str(directory))

    def build_stand_in(self, name, stand_in, what):
        """The stand-ins of the images compose.replicas.yaml runs beside tabconfig's: Debian's packages on the debian
        base, from scripts/stand-ins/."""
        self.build_or_show_log(f"{self.work}/{stand_in}-stand-in.log", "build", "--isolation", "chroot", "--network",
                               "host", "--pull=never", "--format", "docker", "--label",
                               f"{STAND_IN_LABEL}={STAND_IN_RECIPE}:{what}", "-t", name,
                               f"scripts/stand-ins/{stand_in}")

    def build_or_show_log(self, log, *args):
        if self.pm(*args, check=False, log=log).returncode != 0:
            tail_file(log, 30, prefix="")
            raise Stop(1)

    # --- the image ----------------------------------------------------------------------------------------------------

    def prebuilt_context(self):
        """A build context of the Dockerfile and prebuilt/: the stripped binary, its resource bundle and the Swift
        runtime libraries it loads from the toolchain. Returns (context, what was put in it)."""
        binary = Path(self.options.binary).absolute()
        context = Path(self.work, "context")
        prebuilt = context / "prebuilt"
        prebuilt.mkdir(parents=True)
        shutil.copy(ROOT / "Dockerfile", context / "Dockerfile")
        run(["strip", "-o", str(prebuilt / "tabconfig"), str(binary)])
        shutil.copytree(binary.parent / RESOURCES, prebuilt / RESOURCES)
        lib, libraries = toolchain_libraries(binary)
        for soname, path in libraries:
            shutil.copy(path, prebuilt / soname)
        if libraries:
            sizes = sum((prebuilt / soname).stat().st_size for soname, _ in libraries)
            runtime = f"{len(libraries)} Swift runtime libraries from {lib} ({sizes // 1000 // 1000} MB)"
        else:
            runtime = "no Swift runtime libraries (linked with --static-swift-stdlib)"
        return context, f"the prebuilt binary {binary} (stripped), its {RESOURCES} and {runtime}"

    def build_image(self):
        section("podman build (the project's Dockerfile)")
        # The docker format keeps the HEALTHCHECK (the OCI format has no field for it and podman would drop it).
        build_args = ["--format", "docker", "--isolation", "chroot", "--network", "host", "--pull=never"]
        log = f"{self.work}/build.log"
        if self.options.binary:
            context, what = self.prebuilt_context()
            self.built_from = f"from {what} (the Dockerfile's prebuilt target, no Swift build)"
            steps = [["--target", "prebuilt", "-t", self.image, str(context)]]
        else:
            self.built_from = "from source (the Dockerfile's build stage: swift build in the swift image)"
            if self.stand_in_of(SWIFT_BASE):
                mounts = self.stand_in_mounts()
                build_args += mounts
                print(f"  stand-in swift image: mounting {' '.join(mounts)}")
            # The build stage gets a tag of its own so that its layers stay cached for the next run while the
            # untagged leftovers of earlier builds (close to 1 GB each) are removed.
            build_stage = f"{self.image.rpartition(':')[0] or self.image}:build-stage"
            steps = [["--target", "build", "-t", build_stage, "."], ["-t", self.image, "."]]
        print(f"  building the image {self.built_from}")
        build_start = time.monotonic()
        build_started_at = datetime.datetime.now(datetime.timezone.utc)
        if all(self.pm("build", *build_args, *step, check=False, log=log).returncode == 0 for step in steps):
            self.ok(f"image {self.image} built in {seconds_since(build_start)} s")
            until = build_started_at.strftime("%Y-%m-%dT%H:%M:%SZ")
            pruned = self.pm("image", "prune", "--force", "--filter", f"until={until}").stdout.splitlines()
            print(f"  removed {len(pruned)} untagged images left by earlier builds")
        else:
            tail_file(log, 40)
            self.not_ok(f"podman build failed after {seconds_since(build_start)} s")
            raise Stop(1)

    def report_size(self):
        section("image size")
        size = int(self.pm("image", "inspect", "--format", "{{.Size}}", self.image).stdout)
        print(f"  image size: {size // 1000 // 1000} MB ({size} bytes)")
        print("  layers with content (podman history), share of the image:")
        for layer in json.loads(self.pm("history", "--format", "json", self.image).stdout):
            if layer["size"] > 0:
                step = re.sub(r"^/bin/sh -c (#\(nop\) )?", "", layer["CreatedBy"])[:80]
                print(f"    {layer['size'] / 1e6:6.1f} MB {100 * layer['size'] / size:3.0f}%  {step}")
        print("  largest paths in the image (du -sk, KiB):")
        du = self.pm("run", "--rm", "--no-healthcheck", "--entrypoint", "/bin/sh", self.image, "-c",
                     "du -xsk /opt/tabconfig/* /usr/lib/x86_64-linux-gnu /usr/bin /usr/share /var /etc 2>/dev/null"
                     " | sort -rn").stdout
        print(indent(du, "    "))

    # --- HTTP -------------------------------------------------------------------------------------------------------

    def request(self, method, path, body="", token=None, timeout=5):
        """(status, headers, body) of a request to the published port with the user's token, another bearer token,
        or none (token ""); status "000" and the error as body when there was no answer."""
        token = self.jwt if token is None else token
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if body:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=body.encode() or None,
                                         headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return str(response.status), response.headers, response.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            return str(error.code), error.headers, error.read().decode(errors="replace")
        except (OSError, urllib.error.URLError) as error:
            return "000", {}, f"no answer: {getattr(error, 'reason', error)}"

    def http(self, method, path, body="", token=None):
        status, _, text = self.request(method, path, body, token)
        return status, text

    def wait_healthy(self, start):
        """Milliseconds from start until /healthz answered, None when it did not within 10 s of start."""
        while time.monotonic() < start + 10:
            if self.request("GET", "/healthz", timeout=1)[0].startswith("2"):
                return ms_since(start)
            time.sleep(0.05)
        return None

    # --- single containers --------------------------------------------------------------------------------------------

    def start_container(self, name):
        """Starts a container of the image on the data directory; returns its start time."""
        self.container = f"{self.run_id}-{name}"
        self.started_containers.append(self.container)
        start = time.monotonic()
        self.pm_without_timer_errors(
            "run", "--detach", "--name", self.container, "--read-only", "--read-only-tmpfs=false", "--cap-drop", "all",
            "--security-opt", "no-new-privileges", "--volume", f"{self.data_dir}:/data",
            "--env", f"TABCONFIG_PORT={self.port}", "--env", f"TABCONFIG_JWT_HS256_SECRET={self.secret}", self.image)
        return start

    def start_and_await_health(self, name):
        """Starts the container and checks that /healthz answers within 10 s; stops the test (with the container's
        logs) when it does not."""
        healthy_ms = self.wait_healthy(self.start_container(name))
        if healthy_ms is None:
            self.not_ok("/healthz did not answer within 10 s")
            self.container_logs(self.container)
            raise Stop(1)
        self.ok(f"/healthz answered {healthy_ms} ms after podman run")

    def stop_container(self):
        """Stops the container with SIGTERM (SIGKILL after 10 s) and checks it exited 0 in time."""
        start = time.monotonic()
        self.pm_without_timer_errors("stop", "--time", "10", self.container)
        ms = ms_since(start)
        code = self.pm("inspect", "--format", "{{.State.ExitCode}}", self.container).stdout.strip()
        if code == "0" and ms < 10000:
            self.ok(f"podman stop (SIGTERM): exit code {code} after {ms} ms")
        else:
            self.not_ok(f"podman stop (SIGTERM): exit code {code} after {ms} ms (want 0 within 10000 ms)")
            self.container_logs(self.container)

    def healthcheck(self, container):
        """(passed, what podman healthcheck run said)."""
        result = self.pm_combined("healthcheck", "run", container)
        return result.returncode == 0, result.stdout.strip()

    def admin_token_file(self):
        """("mode uid", sha256 prefix) of the generated admin token on the volume, empty strings when it is missing."""
        path = f"{self.data_dir}/admin-token"
        mode = run(as_root(["stat", "-c", "%a %u", path]), check=False).stdout.strip()
        digest = run(as_root(["sha256sum", path]), check=False).stdout[:16]
        return mode, digest

    def test_single_container(self):
        section("run read-only, non-root, /data from the host, configuration by TABCONFIG_* only")
        if not os.path.isdir("/run/systemd/system"):
            print("  no systemd here: podman cannot time the HEALTHCHECK, so the script runs it with podman "
                  "healthcheck run")
        self.data_dir = Path(self.work, "data")
        self.data_dir.mkdir()
        run(as_root(["chown", "10001:10001", str(self.data_dir)]))
        self.port = free_port()
        self.secret = secrets.token_hex(32)
        self.jwt = hs256_token(self.secret, TEST_USER, 900)
        print(f"  port {self.port} (host network), data {self.data_dir} (owner uid 10001), "
              "TABCONFIG_JWT_HS256_SECRET set")
        self.start_and_await_health("first")

        pid = self.pm("inspect", "--format", "{{.State.Pid}}", self.container).stdout.strip()
        uid, gid = process_ids(pid)
        self.check(uid not in ("", "0"), f"server process runs as uid {uid} (gid {gid})",
                   f"server process uid is '{uid}' (want non-zero)")

        status, body = self.http("GET", "/v1/clients/ios-phone/tabs")
        self.check(status == "200", f"sample tab bar served: {json_get(body, tab_ids)}",
                   f"GET /v1/clients/ios-phone/tabs: {status} {body}")

        status, body = self.http("GET", "/openapi.yaml")
        self.check(status == "200" and body.split("\n", 1)[0] == "openapi: 3.1.0",
                   "openapi.yaml served from the resource bundle next to the binary",
                   f"GET /openapi.yaml: {status} {body[:200]}")

        status, headers, body = self.request("GET", "/admin/", token="")
        head = f"HTTP/1.1 {status}\n" + "".join(f"{k}: {v}\n" for k, v in headers.items()) if headers else body
        policy = str(headers.get("Content-Security-Policy", ""))
        self.check(status == "200" and policy.startswith("default-src 'none';"),
                   "admin console served from the resource bundle, with its Content-Security-Policy",
                   f"GET /admin/: {head[:300]}")

        status, body = self.http("PUT", f"/v1/clients/ios-phone/users/{TEST_USER}/tab-order", ORDER)
        self.check(status == "200", f"PUT tab order of {TEST_USER} with a HS256 JWT: {body}",
                   f"PUT tab order: {status} {body}")
        status, body = self.http("GET", f"/v1/clients/ios-phone/users/{TEST_USER}/tabs")
        before = json_get(body, tab_ids) or body
        self.check(status == "200" and before == '["home","profile","library","favorites","search","downloads"]',
                   f"user tab bar reflects the order: {before}", f"user tab bar: {status} {before}")

        health_cmd = self.pm("inspect", "--format", "{{json .Config.Healthcheck.Test}}", self.container).stdout.strip()
        passed, said = self.healthcheck(self.container)
        self.check(passed, f"image HEALTHCHECK {health_cmd}: podman healthcheck run says '{said or 'healthy'}'",
                   f"image HEALTHCHECK {health_cmd} failed: {said}")

        mode, token_hash = self.admin_token_file()
        self.check(mode == "600 10001", "generated admin token on the volume: mode 600, owner uid 10001",
                   f"admin token on the volume: '{mode}' (want mode 600, owner 10001)")
        self.stop_container()

        section("restart: a new container on the same volume")
        self.start_and_await_health("second")
        status, body = self.http("GET", f"/v1/clients/ios-phone/users/{TEST_USER}/tabs")
        after = json_get(body, tab_ids) or body
        self.check(status == "200" and after == before,
                   f"restart survival: {TEST_USER}'s tab bar after the restart is the same: {after}",
                   f"restart survival: {status} {after} (before: {before})")
        status, body = self.http("GET", f"/v1/clients/ios-phone/users/{TEST_USER}/tab-order")
        stored = json_get(body, lambda d: [d["order"], d["hidden"], d["revision"]])
        self.check(status == "200" and stored == '[["profile","favorites","search","home"],["settings"],1]',
                   f"restart survival: stored order, hidden tabs and revision unchanged: {body}",
                   f"restart survival: stored tab order {status} {body}")
        self.check(token_hash and self.admin_token_file()[1] == token_hash,
                   f"restart survival: the generated admin token is the same (sha256 {token_hash}...)",
                   "restart survival: the admin token changed or is missing")
        self.stop_container()

    # --- compose ----------------------------------------------------------------------------------------------------

    def compose_containers(self, *filters):
        names = self.pm_out("ps", "--filter", f"label=io.podman.compose.project={self.compose_project}",
                            *[option for label in filters for option in ("--filter", f"label={label}")],
                            "--format", "{{.Names}}")
        return names.splitlines()[0] if names else ""

    def check_compose_down(self, what):
        succeeded, output = self.compose_down()
        if succeeded:
            self.ok(f"{what} down --volumes")
        else:
            self.not_ok(f"{what} down --volumes")
            print(indent(tail(output, 10)))

    def test_compose(self):
        section("compose.yaml with podman-compose")
        self.compose_project = self.run_id
        succeeded, output = self.compose("config")
        if succeeded:
            self.ok("podman-compose config accepts compose.yaml")
        elif "invalid choice: 'config'" in output:
            print("  this podman-compose has no config command: up -d below is what checks compose.yaml")
        else:
            self.not_ok(f"podman-compose config: {tail(output, 5)}")
        start = time.monotonic()
        succeeded, output = self.compose("up", "-d")
        if succeeded:
            container = self.compose_containers()
            healthy_ms = self.wait_healthy(start) if container else None
            if healthy_ms is not None:
                self.ok(f"podman-compose up -d: {container} healthy {healthy_ms} ms after up")
                passed, said = self.healthcheck(container)
                self.check(passed, f"compose healthcheck: podman healthcheck run says '{said or 'healthy'}'",
                           f"compose healthcheck failed: {said}")
            else:
                self.not_ok("podman-compose up -d: no healthy container within 10 s")
                print(indent(tail(output, 20)))
                if container:
                    self.container_logs(container)
        else:
            self.not_ok("podman-compose up -d failed")
            print(indent(tail(output, 20)))
        self.check_compose_down("podman-compose")

    def replica_container(self, service):
        return self.compose_containers(f"com.docker.compose.service={service}")

    def replica_get(self, replica, path, token=None):
        """GET path on a replica from inside its container (the replicas publish no port): (status, body)."""
        result = self.pm_combined("exec", self.replica_container(replica), "curl", "-sS", "-m", "5", "-w",
                                  "\n%{http_code}", "-H", f"Authorization: Bearer {token or self.jwt}",
                                  f"http://127.0.0.1:8080{path}")
        return split_status(result.stdout.rstrip("\n"))

    def both_ready(self, limit):
        """Waits up to limit seconds until both replicas answer /readyz through haproxy."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            seen = {str(self.request("GET", "/readyz", timeout=2)[1].get("X-Replica", "")).strip() for _ in range(4)}
            if seen - {""} == {"tabconfig-1", "tabconfig-2"}:
                return True
            time.sleep(0.5)
        return False

    def test_replicas(self):
        section("compose.replicas.yaml: PostgreSQL, two replicas, haproxy")
        self.compose_project = f"{self.run_id}-replicas"
        self.compose_file = "compose.replicas.yaml"
        self.admin_token = secrets.token_hex(32)
        self.postgres_password = secrets.token_hex(16)
        self.port = free_port()
        start = time.monotonic()
        succeeded, output = self.compose("up", "-d")
        if succeeded and self.both_ready(90):
            self.ok(f"podman-compose up -d: both replicas ready behind haproxy {seconds_since(start)} s after up")
        else:
            self.not_ok("podman-compose -f compose.replicas.yaml up -d: the replicas were not ready behind haproxy "
                        "within 90 s")
            print(indent(tail(output, 20)))
            for service in ("postgres", "tabconfig-1", "tabconfig-2", "haproxy"):
                if name := self.replica_container(service):
                    self.container_logs(name)

        status, body = self.http("PUT", f"/v1/clients/ios-phone/users/{TEST_USER}/tab-order", ORDER)
        self.check(status == "200", f"PUT tab order through haproxy: {body}",
                   f"PUT tab order through haproxy: {status} {body}")
        for replica in ("tabconfig-1", "tabconfig-2"):
            status, body = self.replica_get(replica, f"/v1/clients/ios-phone/users/{TEST_USER}/tab-order")
            self.check(status == "200" and json_get(body, lambda d: d["revision"]) == "1",
                       f"{replica} serves the write: {body}", f"{replica}: {status} {body} (want revision 1)")

        _, body = self.http("GET", "/v1/clients/ios-phone/config", token=self.admin_token)
        status, body = self.http("PUT", "/v1/clients/ios-phone/config", json_get(body, lambda d: d["config"]) or "",
                                 token=self.admin_token)
        self.check(status == "201", f"publish through haproxy: version {json_get(body, lambda d: d['version']) or ''}",
                   f"publish through haproxy: {status} {body[:200]}")
        for replica in ("tabconfig-1", "tabconfig-2"):
            shown = ""
            for _ in range(20):
                shown = json_get(self.replica_get(replica, "/v1/clients/ios-phone/config", self.admin_token)[1],
                                 lambda d: d["version"]) or ""
                if shown == "2":
                    break
                time.sleep(0.1)
            self.check(shown == "2", f"{replica} serves version 2", f"{replica}: live version '{shown}' (want 2)")

        stopped = self.replica_container("tabconfig-1")
        self.pm_without_timer_errors("stop", "--time", "10", stopped)
        statuses = [self.http("GET", f"/v1/clients/ios-phone/users/{TEST_USER}/tabs")[0] for _ in range(40)]
        answered = statuses.count("200")
        status, body = self.http("PUT", f"/v1/clients/ios-phone/users/{TEST_USER}/tab-order",
                                 '{"order": ["search"], "hidden": []}')
        self.check(answered == 40 and status == "200",
                   f"tabconfig-1 stopped: 40 reads through haproxy answered 200, the write too: {body}",
                   f"tabconfig-1 stopped: {answered} reads answered, {40 - answered} failed; write {status} {body}")
        self.pm_without_timer_errors("start", stopped)
        if self.both_ready(60):
            status, body = self.replica_get("tabconfig-1", f"/v1/clients/ios-phone/users/{TEST_USER}/tab-order")
            self.check(json_get(body, lambda d: d["revision"]) == "2",
                       "tabconfig-1 started again: serves the write made while it was away (revision 2)",
                       f"tabconfig-1 started again: {status} {body} (want revision 2)")
        else:
            self.not_ok("tabconfig-1 was not ready again within 60 s")
            self.container_logs(stopped)
        self.check_compose_down("podman-compose -f compose.replicas.yaml")

    # --- the whole run --------------------------------------------------------------------------------------------

    def run(self):
        self.setup()
        self.prepare_bases()
        if self.options.bases_only:
            print(f"\ncontainer-test: base images ready in {seconds_since(self.start)} s (--bases-only)")
            return 0
        self.build_image()
        self.report_size()
        self.test_single_container()
        self.test_compose()
        self.test_replicas()
        section("summary")
        for line in self.base_used:
            print(f"  base image {line}")
        print(f"  image built {self.built_from}")
        print(f"  total time {seconds_since(self.start)} s")
        print(f"container-test: {self.passed} passed, {self.failed} failed")
        print(f"container-test: {'PASS' if self.failed == 0 else 'FAIL'}")
        return 0 if self.failed == 0 else 1


def parse_options():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", metavar="PATH",
                        help=f"build the image from this tabconfig binary (with {RESOURCES} next to it) instead of "
                             "compiling it in the Dockerfile's build stage")
    parser.add_argument("--bases-only", action="store_true",
                        help="prepare the base images the run needs (no swift image with --binary), then exit")
    options = parser.parse_args()
    if options.binary and not options.bases_only:
        binary = Path(options.binary)
        if not binary.is_file():
            parser.error(f"--binary {binary}: no such file")
        if not (binary.absolute().parent / RESOURCES).is_dir():
            parser.error(f"--binary {binary}: no {RESOURCES} folder next to it")
    return options


def main():
    options = parse_options()
    os.chdir(ROOT)
    sys.stdout.reconfigure(line_buffering=True)

    def terminate(signum, frame):
        raise Terminated()

    # Ctrl-C (also when started in the background, where SIGINT comes ignored) and SIGTERM end the test with cleanup.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, terminate)
    test = ContainerTest(options)
    status = 1
    try:
        status = test.run()
    except Stop as stop:
        status = stop.status
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        status = 130
    except Terminated:
        print("\nterminated", file=sys.stderr)
        status = 143
    except subprocess.CalledProcessError as error:
        command = error.cmd if isinstance(error.cmd, str) else shlex.join(error.cmd)
        print(f"{command}: exit status {error.returncode}", file=sys.stderr)
        if error.stderr:
            print(error.stderr.rstrip(), file=sys.stderr)
        status = error.returncode if 0 < error.returncode < 256 else 1
    except Exception:  # noqa: BLE001 (any other error stops the test the same way, with its traceback)
        traceback.print_exc()
    finally:
        test.finish(status)
    return status


if __name__ == "__main__":
    sys.exit(main())
