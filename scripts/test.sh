#!/usr/bin/env bash
# The whole test suite (scripts/test.py says what it runs, in which order and why): installs what is missing, builds
# once, runs every step, and ends with a table of each step's seconds. `scripts/test.sh --quick` is the inner loop
# (`make check`); `--list` prints the steps.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/test.py "$@"
