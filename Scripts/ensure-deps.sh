#!/usr/bin/env bash
# Installs what building and testing Trawl needs on a Debian-like machine, only when it is missing.
# Usage: Scripts/ensure-deps.sh [extra Debian packages whose command is missing...]
#   e.g. Scripts/ensure-deps.sh ripgrep:rg pcre2-utils:pcre2grep
set -euo pipefail
want=()
pkg-config --exists libpcre2-8 2>/dev/null || want+=(pkg-config libpcre2-dev)
pkg-config --exists zlib 2>/dev/null || want+=(pkg-config zlib1g-dev)
for spec in "$@"; do
  package=${spec%%:*}; command=${spec#*:}
  command -v "$command" >/dev/null 2>&1 || want+=("$package")
done
[ ${#want[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if command -v apt-get >/dev/null 2>&1; then
  echo "installing: ${want[*]}" >&2
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${want[@]}" >&2
elif command -v brew >/dev/null 2>&1; then
  brew install pcre2 zlib >&2
else
  echo "please install: ${want[*]} (PCRE2 8-bit and zlib development files)" >&2
  exit 2
fi
