#!/usr/bin/env bash
# Runs every test of the package (installs libpcre2-dev, and ripgrep and pcre2grep for the
# differential count tests, when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/ensure-deps.sh ripgrep:rg pcre2-utils:pcre2grep
exec swift test "$@"
