#!/usr/bin/env bash
# Runs every test of the package (installs libpcre2-dev, and ripgrep, pcre2grep and sd for the
# differential tests, and git, patch and diff to check the preview diffs, when missing), after the
# source check of the Apple platforms the package declares (Scripts/check-platforms.py) and of the
# module layers (Scripts/check-layers.py).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/ensure-deps.sh ripgrep:rg pcre2-utils:pcre2grep sd:sd git:git patch:patch diffutils:diff
# What a Linux build cannot check: the declared Apple platforms fit the sources.
python3 Scripts/check-platforms.py
# The module layers (ARCHITECTURE.md): no dependency points up; the catalog links no walker or PCRE2.
python3 Scripts/check-layers.py
# Every public declaration of the library products has a DocC comment.
python3 Scripts/check-doc-comments.py
exec swift test "$@"
