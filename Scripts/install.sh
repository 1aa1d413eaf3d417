#!/usr/bin/env bash
# Builds the release `trawl` and installs it as PREFIX/bin/trawl (PREFIX defaults to ~/.local).
# On Linux the program is one static executable (nothing to load at start-up); on macOS it is the
# ordinary release build. Installs PCRE2 and zlib development files first when they are missing.
# Usage: Scripts/install.sh [PREFIX]
set -euo pipefail
prefix="${1:-$HOME/.local}"
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac # relative to where it was run
cd "$(dirname "$0")/.."
if [ -x Scripts/ensure-deps.sh ]; then
  Scripts/ensure-deps.sh
fi
if [ "$(uname)" = "Darwin" ]; then
  swift build -c release --product trawl
else
  swift build -c release --product trawl -Xswiftc -static-executable \
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
fi
mkdir -p "$prefix/bin"
cp .build/release/trawl "$prefix/bin/trawl"
echo "installed $prefix/bin/trawl"
