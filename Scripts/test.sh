#!/usr/bin/env bash
# Runs every test of the package (installs libpcre2-dev and the peer tools first if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/ensure-deps.sh
exec swift test "$@"
