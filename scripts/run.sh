#!/usr/bin/env bash
# Installs what is missing, then runs the service on its embedded defaults
# (127.0.0.1:8080, data in ./data, the sample config for client ios-phone). Extra arguments go to `tabconfig serve`.
# The default build: the file store only, without the PostgreSQL store and its TLS stack (about half the build);
# `make install` builds everything.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --product tabconfig
exec .build/release/tabconfig serve "$@"
