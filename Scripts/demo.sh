#!/usr/bin/env bash
# The quick-start demo: a batch replace preview (a unified diff and a summary) over the sample
# project in Fixtures/tree. Nothing is written; add --write to apply.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/ensure-deps.sh
swift build --product trawl >&2
exec .build/debug/trawl replace 'EventLoop\b' 'RunLoop' Fixtures/tree "$@"
