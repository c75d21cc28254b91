#!/usr/bin/env bash
# Requests/s of a full GET of the default tab bar against If-None-Match revalidation (304) of the same tab bar,
# measured with wrk in one invocation against one release build of tabconfig on loopback.
#   Benchmarks/revalidation.sh [DURATION_SECONDS] [CONNECTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10}
connections=${2:-32}

command -v wrk >/dev/null 2>&1 || {
  [ "$(id -u)" -eq 0 ] && apt-get install -y -qq wrk >/dev/null || sudo apt-get install -y -qq wrk >/dev/null
}
bash scripts/install-deps.sh
swift build -c release --product tabconfig >/dev/null
binary="$(swift build -c release --show-bin-path)/tabconfig"

source scripts/server.sh
data=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT
start_server "$binary" "$data" TABCONFIG_ADMIN_TOKEN=bench

url="http://127.0.0.1:$port/v1/clients/ios-phone/tabs?locale=en"
etag=$(curl -sfI "$url" | tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
bytes=$(curl -sf "$url" | wc -c)
status304=$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$url")
[ "$status304" = 304 ] || { echo "expected 304 for If-None-Match, got $status304" >&2; exit 1; }

run() {
  wrk -t 1 -c "$connections" -d "${duration}s" --latency "$@" "$url" 2>&1
}
rps() { sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p'; }
check() {
  if grep -qE 'Non-2xx|Socket errors' <<<"$1"; then
    grep -E 'Non-2xx|Socket errors' <<<"$1" >&2
  fi
}

echo "nproc: $(nproc); wrk -t1 -c$connections -d${duration}s; body $bytes bytes; ETag $etag"
full=$(run)
check "$full"
revalidate=$(run -H "If-None-Match: $etag")
full_rps=$(rps <<<"$full")
revalidate_rps=$(rps <<<"$revalidate")
p99() { awk '/Latency Distribution/{f=1} f && $1=="99%"{print $2; exit}'; }
printf '%-28s %12s %10s\n' scenario requests/s p99
printf '%-28s %12s %10s\n' "GET full (200)" "$full_rps" "$(p99 <<<"$full")"
printf '%-28s %12s %10s\n' "If-None-Match (304)" "$revalidate_rps" "$(p99 <<<"$revalidate")"
awk -v a="$revalidate_rps" -v b="$full_rps" 'BEGIN { printf "ratio 304/full: %.2f\n", a / b }'
