#!/usr/bin/env bash
# A PostgreSQL 15 cluster of the project's own, for tests and benchmarks: never the system service. It runs as a
# non-root user (the `postgres` account Debian's package creates, when this runs as root), listens on 127.0.0.1 on
# a free port with its socket in its own directory, and trusts local connections (a test cluster holds test data).
#
#   scripts/postgres.sh start DIR [--stop-with PID]
#       creates the cluster in DIR (a new, empty or missing directory) and starts it; prints one line, the URL of
#       its `postgres` database (postgres://tabconfig@127.0.0.1:PORT/postgres). --stop-with: stops the cluster and
#       removes DIR once process PID has exited (a test run that starts a cluster and may be killed).
#   scripts/postgres.sh stop DIR
#       stops the cluster (fast shutdown) and removes DIR.
#   scripts/postgres.sh pause DIR / resume DIR
#       stops the cluster keeping its data, and starts it again on the same port (a database outage, for tests).
#
# Installs postgresql-15 from Debian when it is missing (scripts/install-deps.sh --postgres).
set -euo pipefail
cd "$(dirname "$0")/.."
# The server and the watcher below outlive this script: they must not keep the caller's descriptors open (Foundation's
# Process waits for its own end of a socket the child inherits to close, so a test would wait for ever).
for fd in /proc/$$/fd/*; do
  fd=${fd##*/}
  if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
done

usage() {
  echo "usage: scripts/postgres.sh start DIR [--stop-with PID] | stop DIR | pause DIR | resume DIR" >&2
  exit 2
}
[ $# -ge 2 ] || usage
command=$1
dir=$2
bin=/usr/lib/postgresql/15/bin

# run_as_owner COMMAND…: runs a PostgreSQL program as the cluster's owner (PostgreSQL refuses to run as root).
run_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# start_server DIR: starts the cluster in DIR on the port recorded there.
start_server() {
  local port
  port=$(cat "$1/port")
  # Durable as in production (fsync, synchronous_commit on); enough connections for several replicas' pools.
  run_as_owner "$bin/pg_ctl" -D "$1/data" -l "$1/server.log" -w -t 60 \
    -o "-p $port -k $1 -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=128MB" \
    start >/dev/null || { cat "$1/server.log" >&2; exit 1; }
}

case "$command" in
start)
  [ -x "$bin/initdb" ] || bash scripts/install-deps.sh --postgres >&2
  stop_with=
  if [ "${3:-}" = "--stop-with" ]; then
    [ -n "${4:-}" ] || usage
    stop_with=$4
  fi
  mkdir -p "$dir"
  [ -z "$(ls -A "$dir")" ] || { echo "postgres.sh: $dir is not empty" >&2; exit 1; }
  [ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  run_as_owner "$bin/initdb" -D "$dir/data" -U tabconfig --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  echo "$port" >"$dir/port"
  start_server "$dir"
  if [ -n "$stop_with" ]; then
    # Detached from the caller's output, so that a caller reading this script's output is not held open by it.
    nohup bash -c "while kill -0 $stop_with 2>/dev/null; do sleep 1; done; bash '$PWD/scripts/postgres.sh' stop '$dir'" \
      >/dev/null 2>&1 &
  fi
  echo "postgres://tabconfig@127.0.0.1:$port/postgres"
  ;;
pause)
  run_as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
  ;;
resume)
  start_server "$dir"
  ;;
stop)
  if [ -d "$dir/data" ]; then
    run_as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  ;;
*)
  usage
  ;;
esac
