#!/usr/bin/env bash
# The quick-start demo: edits a text from Fixtures in a rope and shows what the rope tracks.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/ensure-deps.sh
swift build --product trawl-rope-demo >&2
exec .build/debug/trawl-rope-demo Fixtures/rope/sample.txt
