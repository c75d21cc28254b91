#!/usr/bin/env bash
# The whole test suite: installs what is missing, checks openapi.yaml and the Dockerfile, runs schemathesis
# against the live server (conformance, then every check with user auth on), drives headless Chromium against it
# (Tests/Browser: what a browser's HTTP cache shows, CORS, the admin console end to end, with screenshots in
# .build/screenshots), evaluates flags with OpenFeature's Python SDK (Tests/OpenFeature), has Prometheus scrape it
# (Tests/Metrics), revalidates
# both tab bars with OkHttp (Tests/Clients), builds the Swift client swift-openapi-generator makes of openapi.yaml and
# drives every operation through it against a server with max-age=60 (Tests/Clients/OpenAPIGenerated: each answer
# decodes, what URLSession's cache does), kills the server 200 times under concurrent writers
# (Benchmarks/crash-loop.py), runs three replicas on one PostgreSQL database behind haproxy through writes, races
# and faults (Tests/Replicas), then the Swift tests (unit, both stores' conformance, store crash tests, end-to-end
# over HTTP, fault injection, shutdown under load, slow clients).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --test-tools
tools=.build-tools/venv/bin

echo "== swift build --build-tests --traits PostgreSQL"
swift build --build-tests --traits PostgreSQL

echo "== openapi-spec-validator openapi.yaml"
"$tools/openapi-spec-validator" openapi.yaml

echo "== hadolint Dockerfile scripts/stand-ins/*/Dockerfile"
"$tools/hadolint" Dockerfile scripts/stand-ins/*/Dockerfile && echo "hadolint: no findings"

binary="$(swift build --traits PostgreSQL --show-bin-path)/tabconfig"
echo "== schemathesis against the live server: conformance"
bash scripts/schemathesis.sh "$binary"

echo "== schemathesis against the live server: every check, stateful, user JWTs required"
bash scripts/schemathesis.sh "$binary" --hostile

echo "== browser: headless Chromium against the live server: HTTP cache, CORS, admin console (Tests/Browser)"
SE_OFFLINE=true TABCONFIG_BINARY="$binary" "$tools/pytest" -q -p no:cacheprovider Tests/Browser

echo "== OpenFeature's Python SDK and OFREP provider against the live server, answers checked on OFREP's schema (Tests/OpenFeature)"
TABCONFIG_BINARY="$binary" "$tools/pytest" -q -p no:cacheprovider Tests/OpenFeature

echo "== Prometheus scraping the live server, promtool check metrics (Tests/Metrics)"
TABCONFIG_BINARY="$binary" "$tools/pytest" -q -p no:cacheprovider Tests/Metrics

echo "== OkHttp (Android's HTTP client) revalidating both tab bars against the live server (Tests/Clients)"
okhttp_data=$(mktemp -d)
source scripts/server.sh
start_server "$binary" "$okhttp_data"
okhttp_status=0
java -cp /usr/share/java/okhttp.jar:/usr/share/java/okio.jar Tests/Clients/OkHttpRevalidation.java \
  "http://127.0.0.1:$port" || okhttp_status=$?
stop_server || true
rm -rf "$okhttp_data"
[ "$okhttp_status" = 0 ]

echo "== README and docs examples (Tests/Docs)"
python3 Tests/Docs/doc_examples.py --binary "$binary"

echo "== the client swift-openapi-generator makes of openapi.yaml, every operation (Tests/Clients/OpenAPIGenerated)"
generated=Tests/Clients/OpenAPIGenerated
swift build --package-path "$generated"
generated_data=$(mktemp -d)
generated_token=openapi-client-check-token
start_server "$binary" "$generated_data" TABCONFIG_CACHE_MAX_AGE=60 TABCONFIG_ADMIN_TOKEN=$generated_token
generated_status=0
"$(swift build --package-path "$generated" --show-bin-path)/openapi-client-check" "http://127.0.0.1:$port" \
  "$generated_token" || generated_status=$?
stop_server || true
rm -rf "$generated_data"
[ "$generated_status" = 0 ]

echo "== crash loop: SIGKILL under concurrent writers"
python3 Benchmarks/crash-loop.py --binary "$binary" --cycles "${CRASH_LOOP_CYCLES:-200}"

echo "== replicas: three on one PostgreSQL database behind haproxy, writers, races, a SIGKILL, a database restart"
PATH="$PATH:/usr/sbin" python3 Tests/Replicas/replicas.py --binary "$binary" --duration "${REPLICA_RUN_SECONDS:-60}"

echo "== swift test (all but the Swift client against the real server)"
swift test --traits PostgreSQL --skip TabConfigClientServerTests

# The client's suites run their actors on Swift's cooperative pool (one thread a core) and wait on the client for up
# to two minutes; run beside the other suites, whose tests block pool threads on sockets and child processes, their
# 1,000-cycle fault tests saw no request at all on a 2-core machine. Alone they get the pool.
echo "== swift test: the Swift client against the real server (Tests/TabConfigClientServerTests)"
swift test --traits PostgreSQL --filter TabConfigClientServerTests

echo "== the Swift client's own tests (Clients/Swift, a package with no dependencies)"
swift test --package-path Clients/Swift

echo "== an app depending on the Swift client alone: no other package, none of the server's modules, the docs' examples"
python3 Tests/Clients/Consumer/check.py
