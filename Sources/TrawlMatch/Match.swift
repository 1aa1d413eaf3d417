/// One match: its UTF-8 byte range and the ranges of its capture groups.
public struct Match: Hashable, Sendable, CustomStringConvertible {
    /// The matched bytes.
    public var range: Range<Int>
    /// Capture groups 1...n; `nil` for a group that did not take part in the match. Empty for
    /// literal matches, and unless the cursor was asked for them (``MatchCursor/capturesGroups``).
    public var groups: [Range<Int>?]

    /// A match of `range`, with its groups' ranges.
    public init(range: Range<Int>, groups: [Range<Int>?] = []) {
        self.range = range
        self.groups = groups
    }

    /// Group `number`: 0 is the whole match.
    public subscript(group number: Int) -> Range<Int>? {
        number == 0 ? range : (number <= groups.count ? groups[number - 1] : nil)
    }

    /// The range and groups, for debugging.
    public var description: String { "Match(\(range)\(groups.isEmpty ? "" : ", groups: \(groups)"))" }
}

/// Why a search could not be completed.
public enum MatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The pattern does not compile: PCRE2's message and the offset in the pattern (in bytes).
    case invalidPattern(message: String, offset: Int)
    /// A match attempt exceeded a ``RegexLimits`` bound near this byte offset of the text.
    case limitExceeded(LimitKind, offset: Int)
    /// The surrounding task was cancelled.
    case cancelled
    /// PCRE2 reported an unexpected error.
    case engine(message: String)

    /// Which bound a match attempt hit.
    public enum LimitKind: String, Hashable, Sendable {
        case matchLimit = "match limit"
        case depthLimit = "depth limit"
        case heapLimit = "heap limit"
        case jitStack = "JIT stack"
    }

    /// What went wrong, for a message.
    public var description: String {
        switch self {
        case .invalidPattern(let message, let offset):
            "invalid pattern at offset \(offset): \(message)"
        case .limitExceeded(let kind, let offset):
            "the pattern exceeded the regex \(kind.rawValue) near byte \(offset) (catastrophic backtracking?)"
        case .cancelled:
            "the search was cancelled"
        case .engine(let message):
            "regex engine error: \(message)"
        }
    }
}
