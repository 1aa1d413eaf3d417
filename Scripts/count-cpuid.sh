#!/usr/bin/env bash
# Counts the cpuid instructions a program executes, by site, from its start to its exit:
#   Scripts/count-cpuid.sh BINARY [ARGUMENTS...]
# On a virtual machine each cpuid traps to the hypervisor (8-12 µs on the Intel VM this project
# is measured on), so a process's start cost depends on how many its C library or runtime asks:
# glibc's static start asks 68 on that host, a Go program's 8. Needs gdb and objdump (installed if missing).
# Only the binary's own instructions are counted: for a dynamically linked one, the dynamic
# loader's start (where glibc asks) is not.
set -euo pipefail
if [ $# -lt 1 ]; then echo "usage: $0 BINARY [ARGUMENTS...]" >&2; exit 2; fi
binary=$(command -v "$1" || true)
if [ -z "$binary" ]; then echo "$0: $1: no such program" >&2; exit 2; fi
shift
if ! "$(dirname "$0")/ensure-deps.sh" gdb:gdb binutils:objdump; then
    echo "$0: gdb or objdump is missing and could not be installed" >&2; exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
objdump -d "$binary" | awk '/\tcpuid/ { sub(":", "", $1); print $1 }' > "$work/sites"
if [ ! -s "$work/sites" ]; then echo "0 cpuid executed (none in $binary itself)"; exit 0; fi
{
    echo "set pagination off"
    echo "set confirm off"
    while read -r address; do echo "break *0x$address"; done < "$work/sites"
    # Arguments are passed through gdb's own quoting: keep them simple (no quotes or spaces).
    echo "run $* > /dev/null 2>&1"
    cat <<'PYTHON'
python
import gdb
counts = {}
while gdb.selected_inferior().pid:
    pc = int(gdb.parse_and_eval("$pc"))
    # A stop for another reason (a signal) is not counted.
    if "cpuid" in gdb.execute("x/i $pc", to_string=True):
        counts[pc] = counts.get(pc, 0) + 1
    try:
        gdb.execute("continue", to_string=True)
    except gdb.error:
        break
print("%d cpuid executed" % sum(counts.values()))
for pc, count in sorted(counts.items(), key=lambda item: -item[1]):
    print("%6d  %s" % (count, gdb.execute("info symbol %d" % pc, to_string=True).strip()))
end
PYTHON
} > "$work/commands.gdb"
gdb -q -batch -x "$work/commands.gdb" "$binary" 2>/dev/null | grep -E "cpuid executed|^ +[0-9]+  "
