#!/usr/bin/env bash
# Installs what a fresh Debian machine with Swift lacks: libmicrohttpd-dev, libbrotli-dev, zlib1g-dev and pkg-config
# (apt); with --postgres also PostgreSQL 15 (apt; its programs only: the project starts clusters of its own,
# scripts/postgres.sh); with --test-tools all of that and Chromium and its chromedriver, OkHttp, a JDK, haproxy and Prometheus (apt) and the
# Python test tools of requirements-dev.txt (in a virtualenv under .build-tools/).
# Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_packages=()
pkg-config --exists libmicrohttpd 2>/dev/null || apt_packages+=(libmicrohttpd-dev)
# Brotli and zlib: the compressed forms of prepared answers (Sources/CCompression).
pkg-config --exists libbrotlienc 2>/dev/null || apt_packages+=(libbrotli-dev)
pkg-config --exists zlib 2>/dev/null || apt_packages+=(zlib1g-dev)
command -v pkg-config >/dev/null 2>&1 || apt_packages+=(pkg-config)
if [ "${1:-}" = "--test-tools" ] || [ "${1:-}" = "--postgres" ]; then
  [ -x /usr/lib/postgresql/15/bin/initdb ] || apt_packages+=(postgresql-15)
fi
if [ "${1:-}" = "--test-tools" ]; then
  python3 -c 'import venv, ensurepip' 2>/dev/null || apt_packages+=(python3-venv)
  # The browser tests (Tests/Browser) drive Debian's Chromium through its chromedriver.
  command -v chromium >/dev/null 2>&1 || apt_packages+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || apt_packages+=(chromium-driver)
  # The OkHttp client test (Tests/Clients) runs Debian's OkHttp with a JDK's single-file source launcher.
  [ -f /usr/share/java/okhttp.jar ] || apt_packages+=(libokhttp-java)
  # The replica run (Tests/Replicas) puts haproxy in front of the replicas.
  command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || apt_packages+=(haproxy)
  command -v javac >/dev/null 2>&1 || apt_packages+=(default-jdk-headless)
  # The metrics test (Tests/Metrics) runs promtool and a Prometheus server that scrapes the service.
  [ -x /usr/bin/promtool ] || apt_packages+=(prometheus)
  # The docs' examples (Tests/Docs) run curl and jq as a reader would.
  command -v curl >/dev/null 2>&1 || apt_packages+=(curl)
  command -v jq >/dev/null 2>&1 || apt_packages+=(jq)
fi
if [ ${#apt_packages[@]} -gt 0 ]; then
  echo "install-deps: apt-get install ${apt_packages[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${apt_packages[@]}" >/dev/null
fi

if [ "${1:-}" = "--test-tools" ]; then
  venv=.build-tools/venv
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
  fi
  if ! cmp -s requirements-dev.txt "$venv/.installed" 2>/dev/null; then
    echo "install-deps: pip install -r requirements-dev.txt"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r requirements-dev.txt
    cp requirements-dev.txt "$venv/.installed"
  fi
fi
