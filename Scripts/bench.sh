#!/usr/bin/env bash
# Runs Trawl's benchmarks (release builds) beside its peers, installing the peers that are missing
# on a Debian-like machine (set TRAWL_BENCH_NO_INSTALL=1 not to); a peer that cannot be had is
# skipped with a printed reason.
#
# Usage: Scripts/bench.sh [trawl-bench arguments...]
#   default: all groups, the tables to docs/bench/RESULTS.md and the charts to docs/bench/charts
#   (the README's Performance section shows them). Real data when given:
#     --corpus DIR        from ../shared/tools/make-corpus.sh DIR (swift100m.txt and tree/)
#     --trace FILE        editing traces (default: ../shared/traces/*.json.gz)
#     --catalog FILE --queries FILE --peers-work DIR    Debian's package list, as
#                         ../shared/tools/catalog-peers/README.md prepares it (Tantivy, FTS5, Xapian)
#   and deterministic generated data of the same shape otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${TRAWL_BENCH_NO_INSTALL:-0}" != 1 ]; then
  Scripts/ensure-deps.sh ripgrep:rg pcre2-utils:pcre2grep sd:sd ugrep:ugrep codesearch:cindex \
    || echo "bench: some peers could not be installed; their figures are skipped" >&2
fi
[ $# -gt 0 ] || set -- all --markdown docs/bench/RESULTS.md --charts docs/bench/charts
mkdir -p docs/bench
exec swift run -c release --package-path Bench trawl-bench "$@"
