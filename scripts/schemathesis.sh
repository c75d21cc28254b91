#!/usr/bin/env bash
# Starts the given tabconfig binary on a free port over a temporary data directory, runs schemathesis against it
# with openapi.yaml, stops the server, and fails on any schemathesis failure or if the server did not exit 0.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:?usage: schemathesis.sh PATH-TO-tabconfig}
tools=.build-tools/venv/bin
data=$(mktemp -d)
log="$data/server.log"
token="schemathesis-admin-token"
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT

TABCONFIG_ADMIN_TOKEN=$token "$binary" serve --port 0 --data-dir "$data/store" 2>"$log" &
server_pid=$!
port=
for _ in $(seq 1 200); do
  port=$(sed -n 's#.*listening on http://127.0.0.1:\([0-9]*\).*#\1#p' "$log" | head -n 1)
  [ -n "$port" ] && break
  sleep 0.05
done
if [ -z "$port" ]; then
  cat "$log"
  echo "schemathesis.sh: the server did not start" >&2
  exit 1
fi

status=0
"$tools/schemathesis" run openapi.yaml \
  --url "http://127.0.0.1:$port" \
  --header "Authorization: Bearer $token" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-100}" \
  --seed "${SCHEMATHESIS_SEED:-20261122}" \
  --workers 2 \
  --no-color || status=$?

kill -TERM "$server_pid"
server_status=0
wait "$server_pid" || server_status=$?
server_pid=
if [ "$server_status" -ne 0 ]; then
  echo "schemathesis.sh: the server exited with status $server_status" >&2
  tail -n 50 "$log" >&2
  exit 1
fi
exit "$status"
