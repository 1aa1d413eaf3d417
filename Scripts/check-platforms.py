#!/usr/bin/env python3
"""Checks from the sources what a Linux build cannot: that the package builds for the Apple
platforms it declares.

1. Every availability-gated standard library API the sources use is available on every platform
   Package.swift declares (a table of the APIs, with the first versions that have them).
2. Platform-specific calls sit in guarded code: `import Glibc` / `import Darwin` only under their
   `#if canImport(...)`, the platform's module named (`Glibc.read`) only in the one shim that
   names it (Sources/TrawlFiles/PlatformCalls.swift), and calls or fields only one C library
   has (inotify, O_TMPFILE, st_mtim... on Linux; st_mtimespec, renamex_np... on Apple platforms)
   only under a guard for that platform.

Exits 1, listing each place, when a check fails; prints what it checked otherwise.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHIM = "Sources/TrawlFiles/PlatformCalls.swift"

# API (a regex over a source line) -> first (macOS, iOS, visionOS) versions that have it.
GATED = {
    r"\bMutex<|\bAtomic<|^\s*import Synchronization\b": (15, 18, 2),
    r"String\(validating:": (15, 18, 2),
    r"\b(U?Int128)\b": (15, 18, 2),
    r"@Observable\b|^\s*import Observation\b|withObservationTracking": (14, 17, 1),
    r"withDiscardingTaskGroup|AsyncStream\.makeStream|AsyncThrowingStream\.makeStream": (14, 17, 1),
    r"\.firstRange\(of:|\.ranges\(of:|\bRegex<|\bContinuousClock\b|\bSuspendingClock\b|\bDuration\b|Task\.sleep\(for:": (13, 16, 1),
    r"\bInlineArray<|\b(MutableRawSpan|MutableSpan|RawSpan|OutputSpan|UTF8Span)\b|\bSpan<": (26, 26, 26),
}
PLATFORMS = ("macOS", "iOS", "visionOS")

LINUX_ONLY = r"\binotify_|\bIN_[A-Z_]+\b|\bO_TMPFILE\b|\bO_PATH\b|\bst_[amc]tim\b|\bl(list|get|set)xattr\b|\bSYS_\w+|\brenameat2\b|\bepoll_|\bmemfd_create\b|\bENODATA\b"
DARWIN_ONLY = r"\bst_[amc]timespec\b|\brenamex?_np\b|\brenameatx_np\b|\bO_NOFOLLOW_ANY\b|\bXATTR_NOFOLLOW\b|\bENOATTR\b|\bkqueue\b|\bkevent\b|\bFSEvent"


def declared_platforms():
    text = (ROOT / "Package.swift").read_text()
    found = {}
    for name in PLATFORMS:
        match = re.search(r"\." + name + r"\(\.v(\d+)", text)
        if match:
            found[name] = int(match.group(1))
    return found


def classify(condition):
    """Which platform a condition asserts: 'linux', 'darwin' or None."""
    if re.search(r"os\(Linux\)|canImport\(Glibc\)|canImport\(Musl\)", condition):
        return "linux"
    if re.search(r"canImport\(Darwin\)|os\((macOS|iOS|visionOS|tvOS|watchOS)\)", condition):
        return "darwin"
    return None


def scan(path, declared, problems):
    relative = str(path.relative_to(ROOT))
    stack = []  # per #if: (platform asserted by the live branch, platforms ruled out by earlier branches)
    for number, line in enumerate(path.read_text().splitlines(), 1):
        stripped = line.strip()
        where = f"{relative}:{number}"
        if stripped.startswith("#if "):
            stack.append((classify(stripped[4:]), set()))
            continue
        if stripped.startswith("#elseif "):
            asserted, ruled_out = stack[-1]
            if asserted:
                ruled_out.add(asserted)
            stack[-1] = (classify(stripped[8:]), ruled_out)
            continue
        if stripped.startswith("#else"):
            asserted, ruled_out = stack[-1]
            if asserted:
                ruled_out.add(asserted)
            # The #else of a two-way platform switch asserts the other platform.
            other = {"linux": "darwin", "darwin": "linux"}
            stack[-1] = (other[next(iter(ruled_out))] if len(ruled_out) == 1 else None, ruled_out)
            continue
        if stripped.startswith("#endif"):
            stack.pop()
            continue
        code = stripped.split("//", 1)[0]
        if not code:
            continue
        guards = {asserted for asserted, _ in stack if asserted}
        if re.match(r"import Glibc\b", code) and "linux" not in guards:
            problems.append(f"{where}: `import Glibc` outside `#if canImport(Glibc)`")
        if re.match(r"import Darwin\b", code) and "darwin" not in guards:
            problems.append(f"{where}: `import Darwin` outside `#if canImport(Darwin)`")
        if re.search(r"\b(Glibc|Darwin|Musl)\.\w", code) and relative != SHIM:
            problems.append(f"{where}: the platform's module named outside {SHIM}: call PlatformCalls instead")
        if re.search(LINUX_ONLY, code) and "linux" not in guards:
            problems.append(f"{where}: a Linux-only call or field outside `#if os(Linux)` / `canImport(Glibc)`: {code[:80]}")
        if re.search(DARWIN_ONLY, code) and "darwin" not in guards:
            problems.append(f"{where}: an Apple-only call or field outside `#if canImport(Darwin)`: {code[:80]}")
        for pattern, versions in GATED.items():
            if re.search(pattern, code):
                for name, version in zip(PLATFORMS, versions):
                    if name in declared and declared[name] < version:
                        problems.append(f"{where}: needs {name} {version}, Package.swift declares {name} {declared[name]}: {code[:80]}")
    if stack:
        problems.append(f"{relative}: an #if without its #endif")


def main():
    declared = declared_platforms()
    missing = [name for name in PLATFORMS if name not in declared]
    problems = [f"Package.swift declares no {name} version" for name in missing]
    files = sorted(p for folder in ("Sources", "Tests", "Bench/Sources") for p in (ROOT / folder).rglob("*.swift"))
    for path in files:
        scan(path, declared, problems)
    if problems:
        print("\n".join(problems))
        print(f"check-platforms: {len(problems)} problem(s) in {len(files)} files")
        return 1
    print(f"check-platforms: {len(files)} Swift files fit " + ", ".join(f"{n} {v}" for n, v in declared.items())
          + "; platform calls guarded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
