#!/usr/bin/env bash
# Installs what is missing (scripts/install-deps.sh), builds the release binary with everything (the PostgreSQL
# store too: the package trait PostgreSQL) and copies it to $PREFIX/bin (PREFIX defaults to ~/.local), so that
# `tabconfig validate …`, `tabconfig import-plist …`, `tabconfig store …` and `--store postgres://…` work from any
# directory. The first build compiles the service and its dependencies: several minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${PREFIX:-$HOME/.local}"
bash scripts/install-deps.sh
swift build -c release --traits PostgreSQL --product tabconfig
install -d "$prefix/bin"
install -m 0755 .build/release/tabconfig "$prefix/bin/tabconfig"
echo "installed $prefix/bin/tabconfig ($("$prefix/bin/tabconfig" --version))"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on your PATH; add it with: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
