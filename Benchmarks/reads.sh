#!/usr/bin/env bash
# Read scenarios of the benchmark suite: GET of the default tab bar and GET of a user's tab bar (merged per request)
# from a release tabconfig, and their revalidation (If-None-Match → 304, scenarios revalidate-default and
# revalidate-user, tabconfig only), and both GETs with a targeting context (scenarios context-default and context-user:
# Benchmarks/targeted-config.json, whose three conditions, rollout and experiment the context exercises; tabconfig, the
# ceiling and the floor only), and a user's tab bar with five tabs the user opened (scenario user-5-open, tabconfig, the
# ceiling and the floor only), and the default tab bar for an app build whose registered manifest holds 2,000 names
# (scenario manifest-default, tabconfig only: against the same GET naming a build that has no manifest, scenario
# no-manifest, measured in the same rounds on the same process), and the tab bars of 10,000 distinct users read
# round-robin (scenario users-10k: users u0 … u9999 as Tests/Tools/BenchmarkSeeder writes them, 4 to 7 tabs and 0 or 1
# hidden each, asked for in turn by Benchmarks/many-users.lua; tabconfig and the ceiling, which answers every such path
# with the bytes of the user of median size), and the default tab bar in brotli (scenario get-default-br:
# Accept-Encoding: br, the form prepared once with the answer; tabconfig only, against its identity GET of get-default
# measured back to back on the same process in every round) and its revalidation with the br form's tag (scenario
# revalidate-default-br, tabconfig only), against references serving the same bytes at the same paths: a minimal
# libmicrohttpd C program (Benchmarks/ceiling/, the ceiling of this stack; in get-default also the same program creating
# a response per request with tabconfig's header fields and an id of its own, as MicroHTTP must, "C, response per
# request"), tabconfig's own HTTP layer answering with prepared responses and nothing on top (Benchmarks/http-floor/,
# the floor: the most any handler on MicroHTTP can reach), nginx serving them as static files (Benchmarks/nginx/) and a
# minimal Hummingbird 2 app (Benchmarks/hummingbird-reference/). Every server gets the same number of worker threads
# (nproc - 1, at least 1: wrk's one thread holds a core) and the same wrk command; the servers all start first and the
# rounds are interleaved (each round measures every server in turn, one at a time), so that a slow stretch of a shared
# machine lands on all of them. tabconfig runs as shipped: access log (to a file) and metrics on. Prints a table of
# requests/s, p50/p99, the server's CPU per request of that run (user + system microseconds, from /proc: steadier than
# requests/s on a shared machine, since wrk and the server split two cores) and tabconfig ÷ reference, a FIGURE line
# per scenario and server (median requests/s, CPU per request), and lines
#   TARGET <name>: <measured> (required <op> <value>) PASS|FAIL
# for the ratio targets (Benchmarks/Thresholds/reads.txt) and for zero non-2xx responses and socket errors in every
# run, and, with the compressed scenarios, for the default tab bar's brotli and gzip bytes ÷ its identity bytes
# (bytes/br/identity, bytes/gzip/identity: curl's raw bytes, no --compressed). Exits 1 if any is FAIL. What it prints
# from the first server's start on is also written to Benchmarks/results/reads/<UTC date>-<commit>.md, its figures and
# targets to the .json beside it (Benchmarks/lib.sh, results_start).
#
#   Benchmarks/reads.sh          (usually run by Benchmarks/run.sh, which builds tabconfig once for every scenario)
#
# Environment: TABCONFIG_BINARY (a release tabconfig; built into .build-bench/ when unset), BENCH_DURATION
# (seconds per measured run, default 10), BENCH_ROUNDS (measured runs per server and scenario, default 5; the
# median one is reported), BENCH_SERVER_THREADS (every server's worker threads: tabconfig's TABCONFIG_THREADS, the
# ceiling's and the floor's pools, nginx's worker_processes, Hummingbird's event loops; default nproc - 1, at least 1),
# BENCH_MHD_MODE (poll|epoll|select|per-connection) and BENCH_MHD_TURBO=1 to run the ceiling otherwise than the
# service (by default it uses the mode and MHD_USE_TURBO read from the service's sources), BENCH_BASELINE_BINARY (a
# release tabconfig of another commit, measured in every round beside the others as "baseline": a before/after
# comparison under the same interleaving; in the targeting and open-tab scenarios too when it answers them with
# tabconfig's bytes, in manifest-default when it registers the manifest and answers with tabconfig's tabs),
# BENCH_BASELINE_ENV (NAME=VALUE words for the baseline only, e.g.
# TABCONFIG_ACCESS_LOG=false with the same binary as baseline to measure what the access log costs),
# BENCH_USERS (the users of users-10k, default 10000), BENCH_SCENARIOS (the scenarios to run, separated by spaces or
# commas, default all of get-default get-default-br get-user revalidate-default revalidate-default-br revalidate-user
# context-default context-user user-5-open manifest-default users-10k; only the servers and references those need are
# built and started, and
# only their TARGET lines are printed; e.g. BENCH_SCENARIOS=manifest-default runs tabconfig alone, manifest-default
# against no-manifest, and BENCH_SCENARIOS=get-default-br tabconfig alone, get-default-br against its get-default).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
repo=$(pwd)
duration=${BENCH_DURATION:-10}
rounds=${BENCH_ROUNDS:-5}
warmup=2
connections=64

# The scenarios to run (BENCH_SCENARIOS), in the table's order.
all_scenarios=(get-default get-default-br get-user revalidate-default revalidate-default-br revalidate-user
  context-default context-user user-5-open manifest-default users-10k)
IFS=$', \t' read -r -a requested <<<"${BENCH_SCENARIOS:-${all_scenarios[*]}}"
scenarios=()
for scenario in "${requested[@]}"; do
  [ -n "$scenario" ] || continue
  [[ " ${all_scenarios[*]} " == *" $scenario "* ]] ||
    { echo "reads: unknown scenario '$scenario' in BENCH_SCENARIOS (known: ${all_scenarios[*]})" >&2; exit 2; }
  scenarios+=("$scenario")
done
[ ${#scenarios[@]} -gt 0 ] || { echo "reads: BENCH_SCENARIOS names no scenario" >&2; exit 2; }
# selected SCENARIO…: whether any of them is to run.
selected() {
  local scenario
  for scenario in "$@"; do
    [[ " ${scenarios[*]} " == *" $scenario "* ]] && return 0
  done
  return 1
}
# The ceiling and the floor serve the context-free, targeting and open-tab bodies; nginx and Hummingbird the
# context-free ones.
need_references=0
selected get-default get-user context-default context-user user-5-open users-10k && need_references=1
need_static=0
selected get-default get-user && need_static=1
# The compressed scenarios: tabconfig (and a baseline answering as it does) alone, the identity GET of get-default
# their reference, and the byte-size targets.
need_compressed=0
selected get-default-br revalidate-default-br && need_compressed=1

# Tools: wrk, nginx, gcc, curl and python3 (free ports) from apt when missing; libmicrohttpd-dev and pkg-config
# through scripts/install-deps.sh.
missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
[ "$need_static" = 0 ] || command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
install_missing reads "${missing[@]}"
nginx=$(command -v nginx || echo /usr/sbin/nginx)

release_binary reads

# Everything of this run lives in one directory on disk (not tmpfs: the store fsyncs), removed at exit.
mkdir -p .build-bench
work=$(mktemp -d "$repo/.build-bench/reads.XXXXXX")
echo "reads: data on $(df --output=source,fstype "$work" | tail -n 1 | tr -s ' ') ($work)"
server_pids=()
cleanup() {
  local pid
  for pid in "${server_pids[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# The references the scenarios need, built before anything is measured.
if [ "$need_references" = 1 ]; then
  echo "reads: gcc -O2 Benchmarks/ceiling/ceiling.c"
  gcc -O2 -Wall -o "$work/ceiling" Benchmarks/ceiling/ceiling.c $(pkg-config --cflags --libs libmicrohttpd)
  echo "reads: swift build -c release --package-path Benchmarks/http-floor (MicroHTTP on its own)"
  build swift build -c release --package-path Benchmarks/http-floor --product HTTPFloor
  http_floor="$(swift build -c release --package-path Benchmarks/http-floor --show-bin-path)/HTTPFloor"
fi
if selected users-10k; then
  echo "reads: swift build -c release --scratch-path .build-bench --product BenchmarkSeeder"
  build swift build -c release --scratch-path .build-bench --product BenchmarkSeeder
  seeder="$(swift build -c release --scratch-path .build-bench --show-bin-path)/BenchmarkSeeder"
fi
if [ "$need_static" = 1 ]; then
  echo "reads: swift build -c release --package-path Benchmarks/hummingbird-reference (minutes the first time)"
  build swift build -c release --package-path Benchmarks/hummingbird-reference --product HummingbirdReference
  hummingbird="$(swift build -c release --package-path Benchmarks/hummingbird-reference --show-bin-path)"
  hummingbird+=/HummingbirdReference
fi
results_start

# The ceiling polls like the service: mode and turbo flag read from its sources unless overridden.
daemon_source=Sources/MicroHTTP/Daemon/Daemon.swift
if [ -z "${BENCH_MHD_MODE:-}" ]; then
  BENCH_MHD_MODE=poll
  if grep -q 'MHD_USE_THREAD_PER_CONNECTION' "$daemon_source"; then
    BENCH_MHD_MODE=per-connection
  elif grep -q 'MHD_USE_EPOLL' "$daemon_source" && ! grep -q 'MHD_USE_POLL\b' "$daemon_source"; then
    BENCH_MHD_MODE=epoll
  elif ! grep -q 'MHD_USE_POLL\b' "$daemon_source"; then
    BENCH_MHD_MODE=select
  fi
fi
if [ -z "${BENCH_MHD_TURBO:-}" ]; then
  BENCH_MHD_TURBO=0
  grep -q 'MHD_USE_TURBO' "$daemon_source" && BENCH_MHD_TURBO=1
fi
# wrk runs one thread on this machine, so every server gets the other cores. (On 2 cores, two libmicrohttpd threads
# split wrk's 64 connections between them at random, and a run's rate then depends on that split; one thread does
# not split. nginx and Hummingbird measured no slower with one worker than with two:
# Benchmarks/results/reads/unknown-unknown-threading.md.)
threads=${BENCH_SERVER_THREADS:-$(($(nproc) > 1 ? $(nproc) - 1 : 1))}
ceiling_flags=(--mode "$BENCH_MHD_MODE" --threads "$threads")
[ "$BENCH_MHD_TURBO" = 1 ] && ceiling_flags+=(--turbo)

# wait_ready URL LOG…: waits until URL answers 200, at most 20 s; else prints the server's logs and fails.
wait_ready() {
  local pid=${server_pids[-1]}
  for _ in $(seq 1 400); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$1" 2>/dev/null)" = 200 ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  cat "${@:2}" >&2 || true
  echo "reads: no 200 from $1" >&2
  return 1
}

default_path=/v1/clients/ios-phone/tabs
user_path=/v1/clients/ios-phone/users/bench-user/tabs
query='?locale=en'
# The targeting scenarios: their own client, and a context that keeps all three gated tabs, falls in the rollout
# (the device's bucket is below 0.5) and in the experiment.
context_default_path=/v1/clients/bench-targeted/tabs
context_user_path=/v1/clients/bench-targeted/users/bench-user/tabs
context_query='?locale=en&platform=ios&appVersion=5.2.0&osVersion=17.4&country=FR&deviceId=bench-device-3'
# Scenario user-5-open: a user with the same order and five tabs opened from the sample's templates.
opener_path=/v1/clients/ios-phone/users/bench-opener/tabs
# Scenario manifest-default: the default tab bar for build ios 5.2.0, whose registered manifest holds manifest_names
# names (every class, nib, storyboard and scheme the live config's tabs and templates need, the rest filler view
# controller classes); its reference no-manifest: the same GET for ios 5.3.0, which has no manifest.
manifest_names=2000
manifest_path=/v1/clients/ios-phone/builds/ios/5.2.0
manifest_query="$query&platform=ios&appVersion=5.2.0"
no_manifest_query="$query&platform=ios&appVersion=5.3.0"
www="$work/www"
mkdir -p "$(dirname "$www$default_path")" "$(dirname "$www$user_path")" "$(dirname "$www$context_default_path")" \
  "$(dirname "$www$context_user_path")" "$(dirname "$www$opener_path")"

# prepare_user BASE [CLIENT]: saves the benchmark user's tab order on a tabconfig at BASE.
prepare_user() {
  local status
  status=$(curl -s -o "$work/put.json" -w '%{http_code}' -X PUT -H 'Content-Type: application/json' \
    -d '{"order": ["profile","favorites","search","home"], "hidden": ["settings"]}' \
    "$1/v1/clients/${2:-ios-phone}/users/bench-user/tab-order")
  [ "$status" = 200 ] || { echo "reads: PUT tab-order answered $status: $(cat "$work/put.json")" >&2; exit 1; }
}

# prepare_opener BASE: saves bench-opener's tab order and opens five tabs for it (three documents, two web pages).
prepare_opener() {
  local status tab
  curl -sf -o /dev/null -X PUT -H 'Content-Type: application/json' \
    -d '{"order": ["profile","favorites","search","home"], "hidden": ["settings"]}' \
    "$1/v1/clients/ios-phone/users/bench-opener/tab-order"
  for tab in '"document","name":"q1-report","parameters":{"docId":"101"},"title":"Q1 report"' \
    '"document","name":"q2-report","parameters":{"docId":"102"},"title":"Q2 report"' \
    '"document","name":"q3-report","parameters":{"docId":"103"}' \
    '"web","name":"news","parameters":{"url":"https://example.com/news"},"title":"News"' \
    '"web","name":"docs","parameters":{"url":"https://example.com/docs"}'; do
    status=$(curl -s -o "$work/open.json" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
      -d "{\"template\":$tab}" "$1/v1/clients/ios-phone/users/bench-opener/dynamic-tabs")
    [ "$status" = 201 ] || { echo "reads: POST dynamic-tabs answered $status: $(cat "$work/open.json")" >&2; exit 1; }
  done
}

# publish_targeted BASE: publishes Benchmarks/targeted-config.json as client bench-targeted on a tabconfig at BASE.
publish_targeted() {
  local status
  status=$(curl -s -o "$work/publish.json" -w '%{http_code}' -X PUT -H 'Authorization: Bearer bench' \
    -H 'Content-Type: application/json' --data-binary @Benchmarks/targeted-config.json \
    "$1/v1/clients/bench-targeted/config")
  [ "$status" = 201 ] || [ "$status" = 200 ] ||
    { echo "reads: PUT config answered $status: $(cat "$work/publish.json")" >&2; exit 1; }
}

# manifest_of CONFIG COUNT [LEAVE_OUT…]: a build manifest of COUNT names (on stdout) holding every view controller
# class and nib, storyboard and URL scheme other than http(s) that a destination in CONFIG (the JSON of GET
# …/config, read anywhere in it: tabs, children, templates) names, but the LEAVE_OUT names, and filler view
# controller classes; on stderr, how many of each.
manifest_of() {
  python3 - "$@" <<'PYTHON'
import json, sys

config, count, leave_out = json.load(open(sys.argv[1])), int(sys.argv[2]), sys.argv[3:]
names = {"viewControllers": set(), "nibs": set(), "storyboards": set(), "urlSchemes": set()}

def walk(value):
    if isinstance(value, list):
        for element in value:
            walk(element)
    elif isinstance(value, dict):
        destination = value.get("destination")
        if isinstance(destination, dict):
            kind = destination.get("type")
            if kind == "viewController":
                names["viewControllers"].add(destination["name"])
                if destination.get("nib"):
                    names["nibs"].add(destination["nib"])
            elif kind == "storyboard":
                names["storyboards"].add(destination["name"])
            elif kind == "url":
                scheme = destination["url"].split(":", 1)[0].lower()
                if scheme not in ("http", "https"):
                    names["urlSchemes"].add(scheme)
        for member in value.values():
            walk(member)

walk(config)
for name in leave_out:
    for kind in names.values():
        kind.discard(name)
needed = sum(map(len, names.values()))
if needed == 0 or needed > count:
    sys.exit(f"reads: the config's destinations name {needed} classes, nibs, storyboards and schemes; {count} wanted")
filler = 0
while sum(map(len, names.values())) < count:
    names["viewControllers"].add(f"BenchFiller{filler:05d}ViewController")
    filler += 1
print(json.dumps({"buildNumber": "1", **{kind: sorted(values) for kind, values in names.items()}}))
print(f"{needed} names the config's destinations need: "
      + ", ".join(f"{len(values) - (filler if kind == 'viewControllers' else 0)} {kind}" for kind, values in names.items())
      + f"; {filler} filler view controllers", file=sys.stderr)
PYTHON
}

# tab_ids FILE: the ids of a tab bar's tabs, their children in parentheses, in order, on one line.
tab_ids() {
  python3 -c '
import json, sys
def ids(tabs):
    return [tab["id"] + ("(" + " ".join(ids(tab["children"])) + ")" if tab.get("children") else "") for tab in tabs]
print(" ".join(ids(json.load(open(sys.argv[1]))["tabs"])))' "$1"
}

# register_manifest BASE FILE: registers FILE as build ios 5.2.0's manifest on a tabconfig at BASE.
register_manifest() {
  local status
  status=$(curl -s -o "$work/build.json" -w '%{http_code}' -X PUT -H 'Authorization: Bearer bench' \
    -H 'Content-Type: application/json' --data-binary @"$2" "$1$manifest_path")
  [ "$status" = 201 ] || [ "$status" = 200 ] ||
    { echo "reads: PUT $manifest_path answered $status: $(head -c 600 "$work/build.json")" >&2; return 1; }
}

# prepare_manifest BASE: registers build ios 5.2.0's manifest on a tabconfig at BASE: first one lacking the search
# tab's storyboard, to see that manifest-default's GET resolves through it (the tab absent), then the one of
# manifest_names names with everything. Both GETs must then answer 200 with the same tabs, search among them.
prepare_manifest() {
  local ids
  curl -sf -o "$work/config.json" -H 'Authorization: Bearer bench' "$1/v1/clients/ios-phone/config" ||
    { echo "reads: no 200 from GET /v1/clients/ios-phone/config" >&2; return 1; }
  manifest_of "$work/config.json" "$manifest_names" SearchStoryboard >"$work/lacking.json" 2>/dev/null &&
    register_manifest "$1" "$work/lacking.json" || return 1
  curl -sf -o "$work/lacking-tabs.json" "$1$default_path$manifest_query" ||
    { echo "reads: no 200 from $default_path$manifest_query" >&2; return 1; }
  ids=$(tab_ids "$work/lacking-tabs.json")
  [[ " $ids " != *" search "* ]] ||
    { echo "reads: build ios 5.2.0 lacks SearchStoryboard, yet its tab bar has the search tab: $ids" >&2; return 1; }
  manifest_of "$work/config.json" "$manifest_names" >"$work/manifest.json" 2>"$work/manifest.txt" &&
    register_manifest "$1" "$work/manifest.json" || return 1
  grep -q "\"names\":$manifest_names[,}]" "$work/build.json" ||
    { echo "reads: the manifest registered is not of $manifest_names names: $(head -c 300 "$work/build.json")" >&2
      return 1; }
  curl -sf -o "$work/manifest-tabs.json" "$1$default_path$manifest_query" &&
    curl -sf -o "$work/no-manifest-tabs.json" "$1$default_path$no_manifest_query" ||
    { echo "reads: no 200 from $default_path with $manifest_query or $no_manifest_query" >&2; return 1; }
  ids=$(tab_ids "$work/manifest-tabs.json")
  [ "$ids" = "$(tab_ids "$work/no-manifest-tabs.json")" ] && [[ " $ids " == *" search "* ]] ||
    { echo "reads: the tab bars of ios 5.2.0 ($ids) and 5.3.0 ($(tab_ids "$work/no-manifest-tabs.json")) differ" >&2
      return 1; }
}

# etag_of URL: the ETag a GET of URL answers.
etag_of() {
  curl -sfI "$1" | tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p'
}

# coded_default BASE SERVER CODING: GETs the default tab bar from BASE with Accept-Encoding: CODING (identity: no
# Accept-Encoding), its raw bytes (no --compressed) into $work/SERVER-CODING.body and its head into
# $work/SERVER-CODING.head. Fails, saying why, unless the answer is a 200 whose Content-Encoding is CODING (none for
# identity), whose ETag is that of SERVER's identity form (asked first) with ";CODING", whose Vary names
# Accept-Encoding, and whose body curl decodes (--compressed) to tabconfig's identity bytes in $www.
coded_default() {
  local base=$1 coding=$3 name=$2-$3 accept=() status encoding tag want_encoding= want_tag
  [ "$coding" = identity ] || { accept=(-H "Accept-Encoding: $coding"); want_encoding=$coding; }
  status=$(curl -s "${accept[@]}" -D "$work/$name.head" -o "$work/$name.body" -w '%{http_code}' \
    "$base$default_path$query") || status="no answer"
  [ "$status" = 200 ] || { echo "reads: GET $default_path$query with coding $coding answered $status" >&2; return 1; }
  encoding=$(tr -d '\r' <"$work/$name.head" | sed -n 's/^[Cc]ontent-[Ee]ncoding: *//p')
  [ "$encoding" = "$want_encoding" ] ||
    { echo "reads: $name: Content-Encoding '$encoding', not '$want_encoding'" >&2; return 1; }
  tag=$(tr -d '\r' <"$work/$name.head" | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
  want_tag=$tag
  [ "$coding" = identity ] ||
    want_tag=$(tr -d '\r' <"$work/$2-identity.head" | sed -n 's/^[Ee][Tt][Aa][Gg]: \(.*\)"$/\1;'"$coding"'"/p')
  [ -n "$tag" ] && [ "$tag" = "$want_tag" ] ||
    { echo "reads: $name: ETag '$tag', not '$want_tag'" >&2; return 1; }
  tr -d '\r' <"$work/$name.head" | grep -qiE '^vary:.*accept-encoding' ||
    { echo "reads: $name: no Vary: Accept-Encoding ($(tr -d '\r' <"$work/$name.head" | grep -i '^vary:'))" >&2
      return 1; }
  curl -s --compressed "${accept[@]}" "$base$default_path$query" | cmp -s - "$www$default_path" ||
    { echo "reads: $name: the body does not decode to the identity bytes" >&2; return 1; }
}

# Each server's process (nginx's master, whose workers are its children), for its CPU per request.
declare -A server_pid_of

# tabconfig first: it answers the bodies every reference then serves.
source scripts/server.sh
# Scenario users-10k: the users are written into a tabconfig's store before it opens it (the seeder publishes the
# sample config on an empty one, as the first start does).
export BENCH_USERS=${BENCH_USERS:-10000}
seed_users() {
  selected users-10k || return 0
  "$seeder" "$1/store" --count "$BENCH_USERS" --samples 0 >"$1/seeder.log" 2>&1 ||
    { cat "$1/seeder.log" >&2; echo "reads: the seeder failed" >&2; exit 1; }
}
mkdir -p "$work/tabconfig"
seed_users "$work/tabconfig"
# As shipped: the access log (into server.log) and the metrics on.
start_server "$TABCONFIG_BINARY" "$work/tabconfig" TABCONFIG_ADMIN_TOKEN=bench TABCONFIG_THREADS="$threads"
server_pids+=("$server_pid")
server_pid_of[tabconfig]=$server_pid
base="http://127.0.0.1:$port"
curl -sf -o "$www$default_path" "$base$default_path$query"
prepare_user "$base"
curl -sf -o "$www$user_path" "$base$user_path$query"
default_bytes=$(wc -c <"$www$default_path")
user_bytes=$(wc -c <"$www$user_path")
publish_targeted "$base"
prepare_user "$base" bench-targeted
curl -sf -o "$www$context_default_path" "$base$context_default_path$context_query"
curl -sf -o "$www$context_user_path" "$base$context_user_path$context_query"
prepare_opener "$base"
curl -sf -o "$www$opener_path" "$base$opener_path$query"
[ "$(grep -o '"dynamic":' "$www$opener_path" | wc -l)" = 5 ] ||
  { echo "reads: bench-opener's tab bar lacks its five open tabs: $(cat "$www$opener_path")" >&2; exit 1; }
grep -q '"experiment":{"key":"bar-order"' "$www$context_default_path" &&
  grep -q '"id":"rewards"' "$www$context_default_path" && grep -q '"id":"shop"' "$www$context_default_path" ||
  { echo "reads: the targeted tab bar lacks the experiment or a gated tab: $(cat "$www$context_default_path")" >&2; exit 1; }
if selected manifest-default; then
  prepare_manifest "$base" || exit 1
  mv "$work/manifest-tabs.json" "$www/manifest-default.json"
  mv "$work/no-manifest-tabs.json" "$www/no-manifest.json"
fi
# Scenario users-10k: the sizes of the users' tab bars (every 100th user's), and the one of median size, which the
# ceiling serves for every user's path.
if selected users-10k; then
  users_line=$(python3 - "$port" "$BENCH_USERS" "$www/many-users.json" <<'PYTHON'
import http.client, sys

port, users, median_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
bodies = []
for user in range(0, users, 100):
    connection.request("GET", f"/v1/clients/ios-phone/users/u{user}/tabs?locale=en")
    answer = connection.getresponse()
    body = answer.read()
    if answer.status != 200:
        sys.exit(f"reads: GET of user u{user}'s tab bar answered {answer.status}: {body[:300]!r}")
    bodies.append(body)
bodies.sort(key=len)
median = bodies[len(bodies) // 2]
open(median_file, "wb").write(median)
print(f"{len(bodies)} of them read, {len(bodies[0])} to {len(bodies[-1])} bytes, "
      f"{sum(map(len, bodies)) / len(bodies):.0f} on average; the ceiling serves one of {len(median)} bytes")
PYTHON
) || exit 1
fi
# The default tab bar in each coding, raw: the byte-size targets, and the br form the compressed scenarios ask for.
if [ "$need_compressed" = 1 ]; then
  coded_default "$base" tabconfig identity && coded_default "$base" tabconfig gzip &&
    coded_default "$base" tabconfig br || exit 1
  identity_bytes=$(wc -c <"$work/tabconfig-identity.body")
  gzip_bytes=$(wc -c <"$work/tabconfig-gzip.body")
  br_bytes=$(wc -c <"$work/tabconfig-br.body")
  gzip_ratio=$(awk -v a="$gzip_bytes" -v b="$identity_bytes" 'BEGIN { printf "%.3f", a / b }')
  br_ratio=$(awk -v a="$br_bytes" -v b="$identity_bytes" 'BEGIN { printf "%.3f", a / b }')
fi

wrk_command="wrk -t1 -c$connections -d${duration}s --latency URL"
print_machine
echo "bodies: default tab bar $default_bytes bytes ($default_path$query)," \
  "user tab bar $user_bytes bytes ($user_path$query)"
echo "open tabs: user tab bar with five open tabs $(wc -c <"$www$opener_path") bytes ($opener_path$query)"
echo "targeting: default tab bar $(wc -c <"$www$context_default_path") bytes ($context_default_path$context_query)," \
  "user tab bar $(wc -c <"$www$context_user_path") bytes ($context_user_path$context_query)"
if selected users-10k; then
  echo "users: $BENCH_USERS users (u0 … u$((BENCH_USERS - 1)), seeded) read in turn (Benchmarks/many-users.lua);" \
    "$users_line"
fi
if selected manifest-default; then
  same=differ
  cmp -s "$www/manifest-default.json" "$www/no-manifest.json" && same="are byte-identical"
  echo "manifest: build ios 5.2.0 registered with a manifest of $manifest_names names ($(cat "$work/manifest.txt"));" \
    "default tab bar $(wc -c <"$www/manifest-default.json") bytes ($default_path$manifest_query), against" \
    "$(wc -c <"$www/no-manifest.json") bytes for ios 5.3.0, which has no manifest ($no_manifest_query): both 200," \
    "the same tabs ($(tab_ids "$www/manifest-default.json")), the bodies $same"
fi
if [ "$need_compressed" = 1 ]; then
  echo "compressed: default tab bar $identity_bytes bytes identity, $gzip_bytes gzip ($gzip_ratio)," \
    "$br_bytes br ($br_ratio) ($default_path$query, curl without --compressed); ETags" \
    "$(sed -n 's/^[Ee][Tt][Aa][Gg]: //p' "$work/tabconfig-identity.head" | tr -d '\r')," \
    "$(sed -n 's/^[Ee][Tt][Aa][Gg]: //p' "$work/tabconfig-gzip.head" | tr -d '\r')," \
    "$(sed -n 's/^[Ee][Tt][Aa][Gg]: //p' "$work/tabconfig-br.head" | tr -d '\r'); Content-Encoding none, gzip, br;" \
    "each decodes to the identity bytes"
fi
echo "$threads worker thread(s) per server; ${warmup}s warm-up, then $rounds rounds of $wrk_command against each" \
  "server in turn (the median run is reported)"
settings="tabconfig: TABCONFIG_THREADS=$threads"
[ "$need_references" = 0 ] || settings="ceiling: libmicrohttpd 0.9.75 ${ceiling_flags[*]}; $settings"
[ "$need_static" = 0 ] ||
  settings+="; nginx: worker_processes $threads; Hummingbird: NIO_SINGLETON_GROUP_LOOP_COUNT=$threads"
echo "$settings"
echo "scenarios: ${scenarios[*]}"

declare -A rps p50 p99 runs cpu

# measure SCENARIO SERVER URL ROUND [WRK OPTION…]: one measured wrk run, its output and the server's CPU per request
# (a last line "CPU USER SYSTEM", microseconds) kept for the summary.
measure() {
  local scenario=$1 server=$2 url=$3 round=$4 output before after processes
  mapfile -t processes < <(process_tree "${server_pid_of[$server]}")
  before=$(cpu_ticks "${processes[@]}")
  output=$(wrk -t1 -c"$connections" -d"${duration}s" --latency "${@:5}" "$url" 2>&1) || true
  after=$(cpu_ticks "${processes[@]}")
  if ! grep -q '^Requests/sec:' <<<"$output"; then
    printf '%s\n' "$output" >&2
  fi
  grep -E 'Non-2xx|Socket errors' <<<"$output" | sed "s#^ *#$scenario $server: #" >&2 || true
  printf '%s\nCPU %s\n' "$output" "$(cpu_per_request "$before" "$after" "$(wrk_requests <<<"$output")")" \
    >"$work/run.$scenario.$server.$round"
}

# summarize SCENARIO SERVER: records req/s, p50 and p99 of the run with the median req/s and every run's req/s,
# and checks the errors of every run.
summarize() {
  local scenario=$1 server=$2 output round all=() errors_total=0 median
  for ((round = 0; round < rounds; round++)); do
    output=$(cat "$work/run.$scenario.$server.$round")
    errors_total=$((errors_total + $(wrk_errors <<<"$output")))
    all+=("$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<<"$output" | grep . || echo 0) $round")
  done
  median=$(printf '%s\n' "${all[@]}" | sort -n | sed -n "$(((rounds + 1) / 2))p")
  output=$(cat "$work/run.$scenario.$server.${median#* }")
  rps[$scenario/$server]=${median% *}
  p50[$scenario/$server]=$(wrk_percentile 50 <<<"$output")
  p99[$scenario/$server]=$(wrk_percentile 99 <<<"$output")
  cpu[$scenario/$server]=$(sed -n 's/^CPU \([^ ]*\) \([^ ]*\)$/\1+\2/p' <<<"$output")
  runs[$scenario/$server]=$(printf '%s\n' "${all[@]}" | awk '{ printf "%s%.0f", (NR > 1 ? " " : ""), $1 }')
  target "errors/$scenario/$server" "$errors_total" "==" 0
}

# verify SERVER BASE TYPE: the server answers both paths with the same bytes as tabconfig, as TYPE.
verify() {
  local server=$1 base=$2 expected=$3 path type
  for path in "$default_path" "$user_path"; do
    type=$(curl -sf -o "$work/check.json" -w '%{content_type}' "$base$path$query") || type="no 200"
    if ! cmp -s "$work/check.json" "$www$path" || [ "$type" != "$expected" ]; then
      echo "reads: $server answers $path with other bytes or type ($type, $(wc -c <"$work/check.json") bytes)" >&2
      exit 1
    fi
  done
  echo "$server: both bodies byte-identical to tabconfig's ($default_bytes and $user_bytes bytes), $expected"
}

# verify_context SERVER BASE: whether the server answers both targeting paths and the open tabs' path with
# tabconfig's bytes (false, saying which path differs, if not).
verify_context() {
  local path
  for path in "$context_default_path" "$context_user_path"; do
    curl -sf -o "$work/check.json" "$2$path$context_query" && cmp -s "$work/check.json" "$www$path" ||
      { echo "reads: $1 answers $path with other bytes" >&2; return 1; }
  done
  curl -sf -o "$work/check.json" "$2$opener_path$query" && cmp -s "$work/check.json" "$www$opener_path" ||
    { echo "reads: $1 answers $opener_path with other bytes" >&2; return 1; }
}

declare -A bases=([tabconfig]="$base")
servers=(tabconfig)
services=(tabconfig)

if [ -n "${BENCH_BASELINE_BINARY:-}" ]; then
  mkdir -p "$work/baseline"
  seed_users "$work/baseline"
  # shellcheck disable=SC2086 # BENCH_BASELINE_ENV is a list of NAME=VALUE words.
  start_server "$BENCH_BASELINE_BINARY" "$work/baseline" TABCONFIG_ADMIN_TOKEN=bench TABCONFIG_THREADS="$threads" \
    ${BENCH_BASELINE_ENV:-}
  server_pids+=("$server_pid")
  server_pid_of[baseline]=$server_pid
  bases[baseline]="http://127.0.0.1:$port"
  prepare_user "${bases[baseline]}"
  servers=(tabconfig baseline)
  services=(tabconfig baseline)
fi
[ "$need_references" = 0 ] || servers+=(ceiling floor)
[ "$need_static" = 0 ] || servers+=(nginx hummingbird)

# The tags each tabconfig answers, for the revalidation scenarios.
declare -A tags
for server in "${services[@]}"; do
  tags[$server/default]=$(etag_of "${bases[$server]}$default_path$query")
  tags[$server/user]=$(etag_of "${bases[$server]}$user_path$query")
  for kind in default user; do
    path=$default_path
    [ "$kind" = user ] && path=$user_path
    code=$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: ${tags[$server/$kind]}" "${bases[$server]}$path$query")
    [ "$code" = 304 ] || { echo "reads: $server answers If-None-Match on $path with $code, not 304" >&2; exit 1; }
  done
done
# Scenarios get-default-br and revalidate-default-br: tabconfig, and a baseline that answers the default tab bar in
# brotli with tabconfig's bytes and header fields (a build from before compressed answers does not). The br form's
# tag must answer a 304 when the request asks for br.
br_servers=()
if [ "$need_compressed" = 1 ]; then
  br_servers=(tabconfig)
  if [ -n "${BENCH_BASELINE_BINARY:-}" ]; then
    if (coded_default "${bases[baseline]}" baseline identity && coded_default "${bases[baseline]}" baseline br) \
      >/dev/null 2>&1 && cmp -s "$work/baseline-br.body" "$work/tabconfig-br.body"; then
      br_servers=(tabconfig baseline)
      echo "baseline: the default tab bar's br form byte-identical to tabconfig's"
    else
      echo "baseline: left out of get-default-br and revalidate-default-br (it cannot answer them as tabconfig does)"
    fi
  fi
  for server in "${br_servers[@]}"; do
    tags[$server/default-br]=$(sed -n 's/^[Ee][Tt][Aa][Gg]: //p' "$work/$server-br.head" | tr -d '\r')
    code=$(curl -s -o "$work/check.json" -w '%{http_code}' -H 'Accept-Encoding: br' \
      -H "If-None-Match: ${tags[$server/default-br]}" "${bases[$server]}$default_path$query")
    [ "$code" = 304 ] && [ ! -s "$work/check.json" ] ||
      { echo "reads: $server answers br with If-None-Match: ${tags[$server/default-br]} with $code, not 304" >&2
        exit 1; }
  done
fi

if [ "$need_references" = 1 ]; then
  port=$(free_port)
  many_users_route=()
  selected users-10k && many_users_route=("/v1/clients/ios-phone/users/u*=$www/many-users.json")
  "$work/ceiling" --port "$port" "${ceiling_flags[@]}" "$default_path=$www$default_path" "$user_path=$www$user_path" \
    "$context_default_path=$www$context_default_path" "$context_user_path=$www$context_user_path" \
    "$opener_path=$www$opener_path" "${many_users_route[@]}" >"$work/ceiling.log" 2>&1 &
  server_pids+=($!)
  server_pid_of[ceiling]=$!
  wait_ready "http://127.0.0.1:$port$default_path" "$work/ceiling.log"
  bases[ceiling]="http://127.0.0.1:$port"

  # The floor answers every path with tabconfig's bytes and header fields.
  floor_routes=()
  for path in "$default_path" "$user_path" "$context_default_path" "$context_user_path" "$opener_path"; do
    case $path in
      "$context_default_path" | "$context_user_path") fields_of "$base$path$context_query" "$www$path.fields" ;;
      *) fields_of "$base$path$query" "$www$path.fields" ;;
    esac
    floor_routes+=("$path=$www$path,$www$path.fields")
  done
  port=$(free_port)
  "$http_floor" "$port" "$threads" "${floor_routes[@]}" >"$work/floor.log" 2>&1 &
  server_pids+=($!)
  server_pid_of[floor]=$!
  wait_ready "http://127.0.0.1:$port$default_path" "$work/floor.log"
  bases[floor]="http://127.0.0.1:$port"

  # get-default's third reference: the ceiling creating a response per request, with the default tab bar's header
  # fields and an X-Request-Id of its own, as MicroHTTP must (the floor's own C part).
  if selected get-default; then
    port=$(free_port)
    "$work/ceiling" --port "$port" "${ceiling_flags[@]}" --per-request "$www$default_path.fields" \
      "$default_path=$www$default_path" "$user_path=$www$user_path" >"$work/per-request.log" 2>&1 &
    server_pids+=($!)
    server_pid_of[per-request]=$!
    wait_ready "http://127.0.0.1:$port$default_path" "$work/per-request.log"
    bases[per-request]="http://127.0.0.1:$port"
  fi
fi

if [ "$need_static" = 1 ]; then
  port=$(free_port)
  user_line=
  [ "$(id -u)" -eq 0 ] && user_line='user root;'
  sed -e "s#@DIR@#$work#g" -e "s#@PORT@#$port#g" -e "s#@USER@#$user_line#g" -e "s#@WORKERS@#$threads#g" \
    Benchmarks/nginx/nginx.conf.template >"$work/nginx.conf"
  "$nginx" -e "$work/error.log" -c "$work/nginx.conf" -g 'daemon off;' >"$work/nginx.log" 2>&1 &
  server_pids+=($!)
  server_pid_of[nginx]=$!
  wait_ready "http://127.0.0.1:$port$default_path" "$work/nginx.log" "$work/error.log"
  bases[nginx]="http://127.0.0.1:$port"

  port=$(free_port)
  NIO_SINGLETON_GROUP_LOOP_COUNT=$threads "$hummingbird" "$port" "$default_path=$www$default_path" \
    "$user_path=$www$user_path" >"$work/hummingbird.log" 2>&1 &
  server_pids+=($!)
  server_pid_of[hummingbird]=$!
  wait_ready "http://127.0.0.1:$port$default_path" "$work/hummingbird.log"
  bases[hummingbird]="http://127.0.0.1:$port"
fi

# The references serve plain application/json; a baseline tabconfig and the floor answer as tabconfig does.
tabconfig_type=$(curl -sf -o /dev/null -w '%{content_type}' "$base$default_path$query")
per_request=()
[ -z "${bases[per-request]:-}" ] || per_request=(per-request)
for server in "${servers[@]}" "${per_request[@]}"; do
  case $server in
    tabconfig) ;;
    baseline | floor | per-request) verify "$server" "${bases[$server]}" "$tabconfig_type" ;;
    *) verify "$server" "${bases[$server]}" application/json ;;
  esac
done
context_servers=()
if [ "$need_references" = 1 ]; then
  verify_context ceiling "${bases[ceiling]}" || exit 1
  verify_context floor "${bases[floor]}" || exit 1
  context_servers=(tabconfig ceiling floor)
fi
# A baseline takes part in the targeting and open-tab scenarios when it answers them with the same bytes (a build
# from before targeting or open tabs does not).
if [ -n "${BENCH_BASELINE_BINARY:-}" ] && selected context-default context-user user-5-open; then
  if (publish_targeted "${bases[baseline]}" && prepare_user "${bases[baseline]}" bench-targeted &&
    prepare_opener "${bases[baseline]}") >/dev/null 2>&1 && verify_context baseline "${bases[baseline]}"; then
    context_servers=(tabconfig baseline ceiling floor)
    echo "baseline: the targeting and open-tab bodies byte-identical to tabconfig's"
  else
    echo "baseline: left out of the targeting and open-tab scenarios (it cannot answer them as tabconfig does)"
  fi
fi
# Scenario users-10k: tabconfig, a baseline that answers the users with tabconfig's bytes (every 100th compared)
# and the ceiling, which must answer any of them with the median one's.
users_servers=()
if selected users-10k; then
  users_servers=(tabconfig ceiling)
  curl -sf -o "$work/check.json" "${bases[ceiling]}/v1/clients/ios-phone/users/u4242/tabs$query" &&
    cmp -s "$work/check.json" "$www/many-users.json" ||
    { echo "reads: the ceiling does not answer a seeded user's path with the median user's bytes" >&2; exit 1; }
  if [ -n "${BENCH_BASELINE_BINARY:-}" ]; then
    same=1
    for ((user = 0; user < BENCH_USERS; user += 100)); do
      path=/v1/clients/ios-phone/users/u$user/tabs$query
      curl -sf -o "$work/check.json" "${bases[baseline]}$path" && curl -sf -o "$work/check-2.json" "$base$path" &&
        cmp -s "$work/check.json" "$work/check-2.json" || { same=0; break; }
    done
    if [ "$same" = 1 ]; then
      users_servers=(tabconfig baseline ceiling)
      echo "baseline: every 100th seeded user's tab bar byte-identical to tabconfig's"
    else
      echo "baseline: left out of users-10k (it cannot answer it as tabconfig does)"
    fi
  fi
fi
# Scenario manifest-default: tabconfig, and a baseline that registers the manifest and answers both GETs with
# tabconfig's bytes (a build from before manifests does not).
manifest_servers=()
if selected manifest-default; then
  manifest_servers=(tabconfig)
  if [ -n "${BENCH_BASELINE_BINARY:-}" ]; then
    if prepare_manifest "${bases[baseline]}" >/dev/null 2>&1 &&
      cmp -s "$work/manifest-tabs.json" "$www/manifest-default.json" &&
      cmp -s "$work/no-manifest-tabs.json" "$www/no-manifest.json"; then
      manifest_servers=(tabconfig baseline)
      echo "baseline: both manifest bodies byte-identical to tabconfig's"
    else
      echo "baseline: left out of manifest-default (it cannot answer it as tabconfig does)"
    fi
  fi
fi

# All servers stay up; idle ones wait in poll/epoll while the one under wrk runs.
if selected get-default get-default-br get-user revalidate-default revalidate-default-br revalidate-user; then
  for server in "${servers[@]}"; do
    for path in "$default_path" "$user_path"; do
      wrk -t1 -c"$connections" -d"${warmup}s" "${bases[$server]}$path$query" >/dev/null 2>&1 || true
    done
  done
fi
for server in "${per_request[@]}"; do
  wrk -t1 -c"$connections" -d"${warmup}s" "${bases[$server]}$default_path$query" >/dev/null 2>&1 || true
done
for server in "${br_servers[@]}"; do
  wrk -t1 -c"$connections" -d"${warmup}s" -H 'Accept-Encoding: br' "${bases[$server]}$default_path$query" \
    >/dev/null 2>&1 || true
done
if selected context-default context-user user-5-open; then
  for server in "${context_servers[@]}"; do
    for path in "$context_default_path" "$context_user_path"; do
      wrk -t1 -c"$connections" -d"${warmup}s" "${bases[$server]}$path$context_query" >/dev/null 2>&1 || true
    done
    wrk -t1 -c"$connections" -d"${warmup}s" "${bases[$server]}$opener_path$query" >/dev/null 2>&1 || true
  done
fi
for server in "${users_servers[@]}"; do
  wrk -t1 -c"$connections" -d"${warmup}s" -s Benchmarks/many-users.lua "${bases[$server]}" >/dev/null 2>&1 || true
done
for server in "${manifest_servers[@]}"; do
  for manifest_or_not in "$manifest_query" "$no_manifest_query"; do
    wrk -t1 -c"$connections" -d"${warmup}s" "${bases[$server]}$default_path$manifest_or_not" >/dev/null 2>&1 || true
  done
done
for ((round = 0; round < rounds; round++)); do
  for server in "${servers[@]}"; do
    # get-default-br and its reference, the identity GET of get-default, back to back on the same process, which
    # first alternating by round.
    if selected get-default-br && [[ " ${br_servers[*]} " == *" $server "* ]]; then
      if ((round % 2 == 0)); then
        measure get-default "$server" "${bases[$server]}$default_path$query" "$round"
        measure get-default-br "$server" "${bases[$server]}$default_path$query" "$round" -H 'Accept-Encoding: br'
      else
        measure get-default-br "$server" "${bases[$server]}$default_path$query" "$round" -H 'Accept-Encoding: br'
        measure get-default "$server" "${bases[$server]}$default_path$query" "$round"
      fi
    else
      selected get-default && measure get-default "$server" "${bases[$server]}$default_path$query" "$round"
    fi
    selected get-user && measure get-user "$server" "${bases[$server]}$user_path$query" "$round"
    [[ " ${services[*]} " == *" $server "* ]] || continue
    selected revalidate-default && measure revalidate-default "$server" "${bases[$server]}$default_path$query" \
      "$round" -H "If-None-Match: ${tags[$server/default]}"
    selected revalidate-default-br && [[ " ${br_servers[*]} " == *" $server "* ]] &&
      measure revalidate-default-br "$server" "${bases[$server]}$default_path$query" "$round" \
        -H 'Accept-Encoding: br' -H "If-None-Match: ${tags[$server/default-br]}"
    selected revalidate-user && measure revalidate-user "$server" "${bases[$server]}$user_path$query" "$round" \
      -H "If-None-Match: ${tags[$server/user]}"
  done
  for server in "${per_request[@]}"; do
    measure get-default "$server" "${bases[$server]}$default_path$query" "$round"
  done
  for server in "${context_servers[@]}"; do
    selected context-default &&
      measure context-default "$server" "${bases[$server]}$context_default_path$context_query" "$round"
    selected context-user && measure context-user "$server" "${bases[$server]}$context_user_path$context_query" "$round"
    selected user-5-open && measure user-5-open "$server" "${bases[$server]}$opener_path$query" "$round"
  done
  for server in "${users_servers[@]}"; do
    measure users-10k "$server" "${bases[$server]}" "$round" -s Benchmarks/many-users.lua
  done
  # With and without the manifest back to back on the same process, which first alternating by round.
  for server in "${manifest_servers[@]}"; do
    if ((round % 2 == 0)); then
      measure manifest-default "$server" "${bases[$server]}$default_path$manifest_query" "$round"
      measure no-manifest "$server" "${bases[$server]}$default_path$no_manifest_query" "$round"
    else
      measure no-manifest "$server" "${bases[$server]}$default_path$no_manifest_query" "$round"
      measure manifest-default "$server" "${bases[$server]}$default_path$manifest_query" "$round"
    fi
  done
done

# servers_of SCENARIO: the servers that scenario measured.
servers_of() {
  case $1 in
    get-default)
      if selected get-default; then echo "${servers[@]}" "${per_request[@]}"; else echo "${br_servers[@]}"; fi ;;
    get-default-br | revalidate-default-br) echo "${br_servers[@]}" ;;
    get-*) echo "${servers[@]}" ;;
    revalidate-*) echo "${services[@]}" ;;
    context-* | user-5-open) echo "${context_servers[@]}" ;;
    manifest-default | no-manifest) echo "${manifest_servers[@]}" ;;
    users-10k) echo "${users_servers[@]}" ;;
  esac
}

# The scenarios measured, in the table's order: get-default also as get-default-br's reference, no-manifest after
# manifest-default.
measured=()
for scenario in "${all_scenarios[@]}"; do
  if [ "$scenario" = get-default ]; then
    selected get-default get-default-br || continue
  else
    selected "$scenario" || continue
  fi
  measured+=("$scenario")
  [ "$scenario" != manifest-default ] || measured+=(no-manifest)
done
for scenario in "${measured[@]}"; do
  for server in $(servers_of "$scenario"); do
    summarize "$scenario" "$server"
  done
done

ratio() {
  awk -v a="${rps[$1/tabconfig]}" -v b="${rps[$1/$2]}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'
}

# scenario_ratio SERVER A B: the server's median requests/s of scenario A ÷ that of scenario B, to three decimals
# (a target's 0.952 needs them).
scenario_ratio() {
  awk -v a="${rps[$2/$1]}" -v b="${rps[$3/$1]}" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'
}

echo
printf '%-21s %-26s %12s %9s %9s %11s %20s  %s\n' scenario server req/s p50-ms p99-ms cpu-us/req "tabconfig ÷ server" \
  "every run"
declare -A label=(
  [tabconfig]="tabconfig"
  [baseline]="tabconfig baseline"
  [ceiling]="C libmicrohttpd (ceiling)"
  [floor]="MicroHTTP only (floor)"
  [per-request]="C, response per request"
  [nginx]="nginx static"
  [hummingbird]="Hummingbird 2"
)
for scenario in "${measured[@]}"; do
  for server in $(servers_of "$scenario"); do
    shown=-
    [ "$server" = tabconfig ] || shown=$(ratio "$scenario" "$server")
    printf '%-21s %-26s %12s %9s %9s %11s %20s  %s\n' "$scenario" "${label[$server]}" "${rps[$scenario/$server]}" \
      "${p50[$scenario/$server]}" "${p99[$scenario/$server]}" "${cpu[$scenario/$server]}" "$shown" \
      "${runs[$scenario/$server]}"
  done
done
echo "cpu-us/req: the server's user + system CPU per request in the reported run, in microseconds (/proc)"
echo
for kind in default user; do
  selected "revalidate-$kind" && selected "get-$kind" || continue
  awk -v a="${rps[revalidate-$kind/tabconfig]}" -v b="${rps[get-$kind/tabconfig]}" -v k="$kind" \
    'BEGIN { printf "tabconfig revalidate-%s ÷ get-%s (304 ÷ 200 requests/s): %.2f\n", k, k, a / b }'
done
if selected user-5-open && selected get-user; then
  awk -v a="${rps[user-5-open/tabconfig]}" -v b="${rps[get-user/tabconfig]}" \
    'BEGIN { printf "tabconfig user-5-open ÷ get-user (five open tabs over none, requests/s): %.2f\n", a / b }'
fi
# pair_line SERVER A B WHAT: A ÷ B of a pair of scenarios measured back to back on SERVER: of the medians (the
# target), of the CPU per request of those runs, and of each round's pair.
pair_line() {
  local server=$1 a=$2 b=$3 per_round
  per_round=$(for ((round = 0; round < rounds; round++)); do
    awk -v a="$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$work/run.$a.$server.$round")" \
      -v b="$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$work/run.$b.$server.$round")" \
      'BEGIN { if (b > 0) printf "%.3f\n", a / b; else print "n/a" }'
  done | paste -sd' ')
  awk -v s="${label[$server]}" -v r="$(scenario_ratio "$server" "$a" "$b")" -v ca="${cpu[$a/$server]}" \
    -v cb="${cpu[$b/$server]}" -v each="$per_round" -v pa="$a" -v pb="$b" -v what="$4" \
    'BEGIN { split(ca, x, "+"); split(cb, y, "+")
      printf "%s %s ÷ %s (%s, requests/s): %s;", s, pa, pb, what, r
      printf " CPU per request %.1f us against %.1f us; each round: %s\n", x[1] + x[2], y[1] + y[2], each }'
}
for server in "${manifest_servers[@]}"; do
  pair_line "$server" manifest-default no-manifest "a $manifest_names-name manifest over none"
done
if selected get-default-br; then
  for server in "${br_servers[@]}"; do
    pair_line "$server" get-default-br get-default "brotli over identity"
  done
fi
if selected revalidate-default-br; then
  for server in "${br_servers[@]}"; do
    selected get-default-br && awk -v a="${rps[revalidate-default-br/$server]}" \
      -v b="${rps[get-default-br/$server]}" -v s="${label[$server]}" \
      'BEGIN { printf "%s revalidate-default-br ÷ get-default-br (304 ÷ 200 in br, requests/s): %.2f\n", s, a / b }'
    selected revalidate-default && awk -v a="${rps[revalidate-default-br/$server]}" \
      -v b="${rps[revalidate-default/$server]}" -v s="${label[$server]}" \
      'BEGIN { printf "%s revalidate-default-br ÷ revalidate-default (br 304 ÷ identity 304, requests/s): %.2f\n",
        s, a / b }'
  done
fi
# The floor against the ceiling: the most a handler on MicroHTTP could reach of each ratio target (one whose target
# is above it cannot pass without making MicroHTTP itself cheaper); and for get-default, the most a server can reach
# that gives each response its own X-Request-Id, as MicroHTTP does (the ceiling creating a response per request).
if [ ${#per_request[@]} -gt 0 ]; then
  awk -v a="${rps[get-default/per-request]}" -v b="${rps[get-default/ceiling]}" -v f="${rps[get-default/floor]}" \
    -v ca="${cpu[get-default/per-request]}" -v cb="${cpu[get-default/ceiling]}" -v cf="${cpu[get-default/floor]}" \
    'BEGIN { split(ca, p, "+"); split(cb, c, "+"); split(cf, m, "+")
      printf "get-default: a response per request (C) ÷ ceiling %.2f, floor ÷ it %.2f; CPU per request over the",
        a / b, f / a
      printf " ceiling: a response per request %.1f us, MicroHTTP %.1f us more\n", p[1] + p[2] - c[1] - c[2],
        m[1] + m[2] - p[1] - p[2] }'
fi
for scenario in get-default get-user context-default context-user user-5-open; do
  selected "$scenario" || continue
  awk -v s="$scenario" -v a="${rps[$scenario/floor]}" -v b="${rps[$scenario/ceiling]}" \
    -v ca="${cpu[$scenario/floor]}" -v cb="${cpu[$scenario/ceiling]}" -v ct="${cpu[$scenario/tabconfig]}" \
    'BEGIN { split(ca, f, "+"); split(cb, c, "+"); split(ct, t, "+")
      printf "%s: floor ÷ ceiling %.2f; CPU per request over the ceiling: MicroHTTP %.1f us, tabconfig %.1f us\n",
        s, a / b, f[1] + f[2] - c[1] - c[2], t[1] + t[2] - c[1] - c[2] }'
done
if [ -n "${BENCH_BASELINE_BINARY:-}" ]; then
  echo "baseline: $BENCH_BASELINE_BINARY (the tabconfig ÷ server column of its rows is tabconfig ÷ baseline)"
fi
echo
# Every median as a figure (Benchmarks/lib.sh): SCENARIO_rps for tabconfig (what scripts/scaling.py reads),
# SCENARIO_SERVER_rps for the others, and each one's CPU per request.
for scenario in "${measured[@]}"; do
  for server in $(servers_of "$scenario"); do
    name=${scenario//-/_}
    [ "$server" = tabconfig ] || name+=_$server
    figure "${name}_rps" "${rps[$scenario/$server]}" requests/s
    figure "${name}_cpu_us" "$(awk -v c="${cpu[$scenario/$server]}" \
      'BEGIN { split(c, x, "+"); printf "%.1f", x[1] + x[2] }')" "us/request"
  done
done
echo

# The ratio targets of the scenarios run, from Benchmarks/Thresholds/reads.txt.
if selected get-default; then
  target get-default/ceiling "$(ratio get-default ceiling)"
  target floor/ceiling "$(awk -v a="${rps[get-default/floor]}" -v b="${rps[get-default/ceiling]}" \
    'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
  target get-default/nginx "$(ratio get-default nginx)"
  target get-default/hummingbird "$(ratio get-default hummingbird)"
fi
selected get-user && target get-user/ceiling "$(ratio get-user ceiling)"
selected context-default && target context-default/ceiling "$(ratio context-default ceiling)"
selected context-user && target context-user/ceiling "$(ratio context-user ceiling)"
selected user-5-open && target user-5-open/ceiling "$(ratio user-5-open ceiling)"
selected users-10k && target users-10k/ceiling "$(ratio users-10k ceiling)"
selected manifest-default &&
  target manifest-default/no-manifest "$(scenario_ratio tabconfig manifest-default no-manifest)"
selected get-default-br && target get-default-br/get-default "$(scenario_ratio tabconfig get-default-br get-default)"
if [ "$need_compressed" = 1 ]; then
  target bytes/br/identity "$br_ratio"
  target bytes/gzip/identity "$gzip_ratio"
fi
printf '%s\n' "${targets[@]}"
results_save
exit "$failed"
