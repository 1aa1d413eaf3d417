#!/usr/bin/env bash
# Prepares a work folder for the catalog peers (Tantivy, SQLite FTS5, Xapian) the way
# ../shared/tools/catalog-peers/README.md describes it: Debian's package list with its English long
# descriptions (debian.jsonl), a 1M-item synthetic catalog drawn from it (synthetic-1m.jsonl), the
# typed queries of each, a Python venv with tantivy, and python3-xapian. Steps whose output exists
# are skipped. Needs a Debian-like machine (apt) and the shared tools folder.
#
# Usage: Scripts/catalog-peers.sh DIR
#   then: Scripts/bench.sh catalog --catalog DIR/debian.jsonl --queries DIR/queries-debian.json --peers-work DIR
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
tools="$(cd "$(dirname "$0")/../.." && pwd)/shared/tools/catalog-peers"
[ -f "$tools/make_data.py" ] || { echo "catalog-peers: skipped: no $tools (the shared tools folder)" >&2; exit 1; }
command -v apt-get >/dev/null 2>&1 || { echo "catalog-peers: skipped: needs apt-get (Debian's package list)" >&2; exit 1; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
mkdir -p "$1" && cd "$1"
work=$PWD
export PEERS_WORK=$work

$sudo apt-get update -qq
python3 -c 'import xapian' 2>/dev/null \
  || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-xapian python3-venv >/dev/null
[ -x venv/bin/python ] || python3 -m venv venv
venv/bin/python -c 'import tantivy' 2>/dev/null || venv/bin/pip install -q tantivy
[ -s debian.txt ] || apt-cache dumpavail > debian.txt
if [ ! -s translation-en.txt ]; then
  # The long descriptions live in the Translation-en lists. Container images often turn them off
  # (Acquire::Languages "none" in apt.conf.d), so ask for English explicitly, into a lists folder
  # of our own that leaves the system's apt state alone.
  mkdir -p aptlists/partial
  $sudo apt-get -o Dir::State::Lists="$work/aptlists/" -o Acquire::Languages=en update -qq
  for list in aptlists/*Translation-en*; do
    [ -e "$list" ] || { echo "catalog-peers: no Translation-en list; items keep their one-line descriptions" >&2; break; }
    /usr/lib/apt/apt-helper cat-file "$list"; echo
  done > translation-en.txt
fi
[ -s debian.jsonl ] && [ -s synthetic-1m.jsonl ] || venv/bin/python "$tools/make_data.py"
for catalog in debian synthetic-1m; do
  [ -s "queries-$catalog.json" ] || venv/bin/python "$tools/make_queries.py" "$catalog"
done
ls -l "$work"/*.jsonl "$work"/queries-*.json
