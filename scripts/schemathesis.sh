#!/usr/bin/env bash
# Starts the given tabconfig binary on a free port over a temporary data directory, runs schemathesis against it
# with openapi.yaml, stops the server, and fails on any schemathesis failure or if the server did not exit 0.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:?usage: schemathesis.sh PATH-TO-tabconfig}
tools=.build-tools/venv/bin
source scripts/server.sh
data=$(mktemp -d)
token="schemathesis-admin-token"
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT
start_server "$binary" "$data" TABCONFIG_ADMIN_TOKEN=$token

# The event stream stays open by design; schemathesis reads whole bodies, so that one operation is left to the
# Swift tests (EventStreamTests). The generation health checks are off: the recursive config schema makes
# hypothesis filter many candidates, and on a busy 2-core machine it trips "filter_too_much" / "too_slow" at
# random; they say nothing about the server.
status=0
"$tools/schemathesis" run openapi.yaml \
  --exclude-path '/v1/clients/{client}/tabs/events' \
  --url "http://127.0.0.1:$port" \
  --header "Authorization: Bearer $token" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-100}" \
  --seed "${SCHEMATHESIS_SEED:-20261122}" \
  --workers 2 \
  --suppress-health-check filter_too_much,too_slow \
  --no-color || status=$?

if ! stop_server; then
  echo "schemathesis.sh: the server did not exit 0" >&2
  tail -n 50 "$data/server.log" >&2
  exit 1
fi
exit "$status"
