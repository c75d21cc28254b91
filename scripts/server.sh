# Sourced by scripts and benchmarks: start_server BINARY DATA_DIR [ENV=VALUE…] starts `tabconfig serve` on a free
# port over DATA_DIR/store (log in DATA_DIR/server.log) and sets server_pid and port; stop_server sends SIGTERM and
# returns the server's exit status.
start_server() {
  local binary=$1 data=$2
  shift 2
  # Created here, not by the background job's redirection: the first sed below could run before that, fail, and
  # end a caller running under `set -eo pipefail` (seen once).
  : >"$data/server.log"
  env "$@" "$binary" serve --port 0 --data-dir "$data/store" 2>"$data/server.log" &
  server_pid=$!
  port=
  for _ in $(seq 1 200); do
    port=$(sed -n 's#.*listening on http://127.0.0.1:\([0-9]*\).*#\1#p' "$data/server.log" | head -n 1)
    [ -n "$port" ] && return 0
    sleep 0.05
  done
  cat "$data/server.log" >&2
  echo "the server did not start" >&2
  return 1
}

stop_server() {
  local status=0
  kill -TERM "$server_pid"
  wait "$server_pid" || status=$?
  server_pid=
  return "$status"
}
