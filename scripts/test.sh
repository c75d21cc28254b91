#!/usr/bin/env bash
# The whole test suite: installs what is missing, checks openapi.yaml and the Dockerfile, runs schemathesis
# against the live server (conformance, then every check with user auth on), drives headless Chromium against it
# (Tests/Browser: what a browser's HTTP cache shows), kills the server 200 times under concurrent writers
# (Benchmarks/crash-loop.py), then the Swift tests (unit, store crash tests, end-to-end over HTTP, fault
# injection, shutdown under load, slow clients).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --test-tools
tools=.build-tools/venv/bin

echo "== swift build --build-tests"
swift build --build-tests

echo "== openapi-spec-validator openapi.yaml"
"$tools/openapi-spec-validator" openapi.yaml

echo "== hadolint Dockerfile"
"$tools/hadolint" Dockerfile && echo "hadolint: no findings"

binary="$(swift build --show-bin-path)/tabconfig"
echo "== schemathesis against the live server: conformance"
bash scripts/schemathesis.sh "$binary"

echo "== schemathesis against the live server: every check, stateful, user JWTs required"
bash scripts/schemathesis.sh "$binary" --hostile

echo "== browser: headless Chromium's HTTP cache against the live server (Tests/Browser)"
SE_OFFLINE=true TABCONFIG_BINARY="$binary" "$tools/pytest" -q -p no:cacheprovider Tests/Browser

echo "== crash loop: SIGKILL under concurrent writers"
python3 Benchmarks/crash-loop.py --binary "$binary" --cycles "${CRASH_LOOP_CYCLES:-200}"

echo "== swift test"
swift test
