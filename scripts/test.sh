#!/usr/bin/env bash
# The whole test suite: installs what is missing, checks openapi.yaml and the Dockerfile, runs schemathesis
# against the live server, then the Swift tests (unit, store crash tests, end-to-end over HTTP).
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

echo "== schemathesis against the live server"
bash scripts/schemathesis.sh "$(swift build --show-bin-path)/tabconfig"

echo "== swift test"
swift test
