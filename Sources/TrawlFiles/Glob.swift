/// A glob as in `.gitignore` files and ripgrep's `-g`: `*` and `?` do not cross `/`, `**` does,
/// `[a-z]` / `[!a-z]` are classes, `{a,b}` are alternatives (nested too), and `\` escapes.
/// Matching works on bytes, in time proportional to the pattern times the path at worst
/// (``GlobAutomaton``): a hostile glob cannot hang a walk.
///
/// Written by hand: Foundation and glibc `fnmatch` have no `**`, and no package in reach does
/// gitignore globs.
public struct Glob: Hashable, Sendable {
    /// The pattern as written.
    let pattern: [UInt8]
    /// The pattern as one automaton, when it has `{...}` groups or several `**` (which the
    /// backtracking matcher below would take exponential time over); `nil`: matched directly.
    private let automaton: GlobAutomaton?

    /// Parses a glob.
    public init(_ pattern: String) {
        let bytes = Array(pattern.utf8)
        let globstars = bytes.indices.dropLast().filter { bytes[$0] == UInt8(ascii: "*") && bytes[$0 + 1] == UInt8(ascii: "*") }
        self.pattern = bytes
        automaton = bytes.contains(UInt8(ascii: "{")) || globstars.count > 1 ? GlobAutomaton(bytes) : nil
    }

    /// Globs are equal when their patterns are.
    public static func == (first: Glob, second: Glob) -> Bool { first.pattern == second.pattern }

    /// Hashes the pattern.
    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

    /// Whether the glob matches all of `path`.
    public func matches(_ path: some Collection<UInt8>) -> Bool {
        if let automaton { return automaton.matches(path) }
        let text = Array(path)
        return Glob.match(pattern[...], text[...])
    }

    /// Matches a pattern without `{...}` groups by backtracking (linear for single `*`s: only the
    /// last one is retried; a `**` retries the rest at each place).
    static func match(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex, t = text.startIndex
        // Backtracking point for the last single `*` (cannot cross '/').
        var starP = -1, starT = -1
        while t < text.endIndex || p < pattern.endIndex {
            if p < pattern.endIndex {
                let c = pattern[p]
                if c == UInt8(ascii: "*") {
                    if p + 1 < pattern.endIndex && pattern[p + 1] == UInt8(ascii: "*") {
                        // `**`: any run of characters, across directories. `**/` may match nothing.
                        var rest = p + 2
                        let slashAfter = rest < pattern.endIndex && pattern[rest] == UInt8(ascii: "/")
                        if slashAfter { rest += 1 }
                        var start = t
                        while true {
                            if match(pattern[rest...], text[start...]) { return true }
                            if slashAfter {
                                // `**/x` also matches `x` at the current level; otherwise skip to after the next '/'.
                                guard let slash = text[start...].firstIndex(of: UInt8(ascii: "/")) else { return false }
                                start = slash + 1
                            } else {
                                guard start < text.endIndex else { return false }
                                start += 1
                            }
                        }
                    }
                    starP = p
                    starT = t
                    p += 1
                    continue
                }
                if t < text.endIndex {
                    if c == UInt8(ascii: "?") && text[t] != UInt8(ascii: "/") {
                        p += 1; t += 1
                        continue
                    }
                    if c == UInt8(ascii: "[") , let (matched, next) = matchClass(pattern, p, text[t]) {
                        if matched {
                            p = next; t += 1
                            continue
                        }
                    } else if c == UInt8(ascii: "\\") && p + 1 < pattern.endIndex {
                        if pattern[p + 1] == text[t] {
                            p += 2; t += 1
                            continue
                        }
                    } else if c == text[t] && c != UInt8(ascii: "?") {
                        p += 1; t += 1
                        continue
                    }
                }
            }
            // Mismatch: let the last `*` absorb one more character (never a '/').
            if starP >= 0 && starT < text.endIndex && text[starT] != UInt8(ascii: "/") {
                starT += 1
                t = starT
                p = starP + 1
                continue
            }
            return false
        }
        return true
    }

    /// Matches a `[...]` class at `pattern[start]` against `byte`; returns the result and the index
    /// after the class, or `nil` when the bracket is not a well-formed class (then it is literal).
    private static func matchClass(_ pattern: ArraySlice<UInt8>, _ start: Int, _ byte: UInt8) -> (Bool, Int)? {
        var i = start + 1
        var negated = false
        if i < pattern.endIndex && (pattern[i] == UInt8(ascii: "!") || pattern[i] == UInt8(ascii: "^")) {
            negated = true
            i += 1
        }
        var matched = false
        var first = true
        while i < pattern.endIndex {
            var c = pattern[i]
            if c == UInt8(ascii: "]") && !first { return (matched != negated && byte != UInt8(ascii: "/"), i + 1) }
            first = false
            if c == UInt8(ascii: "\\") && i + 1 < pattern.endIndex { i += 1; c = pattern[i] }
            if i + 2 < pattern.endIndex && pattern[i + 1] == UInt8(ascii: "-") && pattern[i + 2] != UInt8(ascii: "]") {
                let high = pattern[i + 2]
                if c <= byte && byte <= high { matched = true }
                i += 3
            } else {
                if c == byte { matched = true }
                i += 1
            }
        }
        return nil
    }
}

/// One rule of an ignore file (or a `-g` glob).
struct IgnoreRule: Sendable {
    let glob: Glob
    /// `!pattern`: re-includes what an earlier rule excluded.
    let negated: Bool
    /// `pattern/`: applies to directories only.
    let directoryOnly: Bool
    /// Contains a `/` (other than at the end): matched against the path relative to the ignore
    /// file's directory; otherwise against the name at any depth.
    let anchored: Bool

    /// Parses a `.gitignore` line; `nil` for blank lines and comments.
    init?(line: Substring) {
        var text = String(line)
        if text.hasSuffix("\r") { text.removeLast() }
        // Trailing spaces are ignored unless escaped.
        while text.hasSuffix(" ") && !text.hasSuffix("\\ ") { text.removeLast() }
        if text.isEmpty || text.hasPrefix("#") { return nil }
        var negated = false
        if text.hasPrefix("!") {
            negated = true
            text.removeFirst()
        } else if text.hasPrefix("\\!") || text.hasPrefix("\\#") {
            text.removeFirst()
        }
        var directoryOnly = false
        if text.hasSuffix("/") {
            directoryOnly = true
            text.removeLast()
        }
        guard !text.isEmpty else { return nil }
        let anchored = text.contains("/")
        if text.hasPrefix("/") { text.removeFirst() }
        self.glob = Glob(text)
        self.negated = negated
        self.directoryOnly = directoryOnly
        self.anchored = anchored
    }

    /// Whether the rule matches a path relative to the rule's base directory.
    func matches(relativePath: ArraySlice<UInt8>, name: ArraySlice<UInt8>, isDirectory: Bool) -> Bool {
        if directoryOnly && !isDirectory { return false }
        return anchored ? glob.matches(relativePath) : glob.matches(name)
    }
}

/// The rules of one ignore file, applying below its directory.
struct IgnoreFile: Sendable {
    /// The directory the rules are relative to, as a path prefix ending in `/` (or empty for the root).
    let base: [UInt8]
    /// For an ignore file in a folder above the walk's root: the root's path relative to that
    /// folder, ending in `/`, put before walked paths to match them against its rules.
    let rootPrefix: [UInt8]
    let rules: [IgnoreRule]

    init(base: [UInt8], rootPrefix: [UInt8] = [], contents: [UInt8]) {
        self.base = base
        self.rootPrefix = rootPrefix
        rules = contents.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).compactMap {
            IgnoreRule(line: Substring(decoding: $0, as: UTF8.self))
        }
    }

    /// `true` (ignore), `false` (explicitly kept by a negation), or `nil` (no rule matched).
    func decision(for path: [UInt8], name: ArraySlice<UInt8>, isDirectory: Bool) -> Bool? {
        let full = rootPrefix.isEmpty ? path : rootPrefix + path
        guard full.starts(with: base) else { return nil }
        let relative = full[base.count...]
        for rule in rules.reversed() where rule.matches(relativePath: relative, name: name, isDirectory: isDirectory) {
            return !rule.negated
        }
        return nil
    }
}
