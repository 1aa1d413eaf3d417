#!/usr/bin/env bash
# Runs every test of the package (installs libpcre2-dev, and ripgrep, pcre2grep and sd for the
# differential count tests, when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/ensure-deps.sh ripgrep:rg pcre2-utils:pcre2grep sd:sd
exec swift test "$@"
