/// How a pattern is interpreted and which matches count: the toggles of an editor's find widget.
public struct MatchOptions: Hashable, Sendable {
    /// Whether the pattern is literal text or a PCRE2 regular expression.
    public enum Syntax: Hashable, Sendable {
        /// The pattern is text to find as typed.
        case literal
        /// The pattern is a PCRE2 regular expression.
        case regex
    }

    /// Literal (the default) or regex.
    public var syntax: Syntax
    /// Whether letter case must match. When `false`, matching uses Unicode simple case folding.
    public var matchCase: Bool
    /// Whether a match must start and end at word boundaries (see ``WordSeparators``).
    public var wholeWord: Bool
    /// The characters that separate words, for ``wholeWord``.
    public var wordSeparators: WordSeparators
    /// Bounds on the work a regex may do before the search fails with an error instead of hanging.
    public var limits: RegexLimits
    /// Let every regex match across lines (ripgrep's `-U`): the whole text is one subject, so `\s`
    /// and `[^x]` can match line breaks. Otherwise only patterns with an explicit line break do.
    public var matchesAcrossLines: Bool = false
    /// Whether a line break at the very end ends the text (as in grep and ripgrep: `a\nb\n` has
    /// two lines, an empty text none) rather than starting an empty last line (as in an editor,
    /// the default). Only empty matches at the end of the text differ.
    public var finalLineBreakEndsText: Bool = false
    /// Whether an empty match is found where a non-empty match just ended: ripgrep's rule (never,
    /// the default) or an editor's (unless that match reached the end of its line); see
    /// ``EmptyMatchRule``. Only patterns that can match nothing differ.
    public var emptyMatchRule: EmptyMatchRule = .skippedWhereAMatchEnded

    /// Options with these settings; the rest as ``MatchOptions`` documents them.
    public init(syntax: Syntax = .literal, matchCase: Bool = true, wholeWord: Bool = false,
                wordSeparators: WordSeparators = .default, limits: RegexLimits = .default) {
        self.syntax = syntax
        self.matchCase = matchCase
        self.wholeWord = wholeWord
        self.wordSeparators = wordSeparators
        self.limits = limits
    }

    /// Regex syntax with the other options at their defaults.
    public static var regex: MatchOptions { MatchOptions(syntax: .regex) }
}

/// PCRE2's resource limits for one match attempt. A catastrophic pattern stops at one of them and
/// the search reports ``MatchError/limitExceeded(_:offset:)`` rather than hanging.
public struct RegexLimits: Hashable, Sendable {
    /// The most times PCRE2 may call its internal match function (backtracking steps).
    public var matchLimit: UInt32
    /// The deepest backtracking nesting.
    public var depthLimit: UInt32
    /// The most heap memory, in KiB, the interpreter may use for backtracking.
    public var heapLimitKiB: UInt32

    /// Limits on PCRE2's work for one match.
    public init(matchLimit: UInt32 = 10_000_000, depthLimit: UInt32 = 10_000_000, heapLimitKiB: UInt32 = 200_000) {
        self.matchLimit = matchLimit
        self.depthLimit = depthLimit
        self.heapLimitKiB = heapLimitKiB
    }

    /// PCRE2's own defaults: ten million steps, 200 MB of heap.
    public static let `default` = RegexLimits()
}

/// The characters that separate words for whole-word matching, as in VS Code's
/// `editor.wordSeparators`. Whitespace always separates; every other character — letters of any
/// script, digits, `_` — is a word character.
public struct WordSeparators: Hashable, Sendable {
    /// The separator characters besides whitespace.
    public var characters: Set<Unicode.Scalar> {
        Set(nonASCII).union((0..<128).filter { givenASCII[$0 >> 6] >> UInt64($0 & 63) & 1 != 0 }.map { Unicode.Scalar(UInt8($0)) })
    }
    /// Bit `b` is set when ASCII byte `b` separates words: the common case needs no decoding.
    private let asciiMask: (UInt64, UInt64)
    /// The ASCII separators given (whitespace only if given), bit `b` of word `b / 64` for byte `b`.
    private let givenASCII: [UInt64]
    /// The separators past ASCII, ascending and distinct: usually none. Arrays rather than a set,
    /// since hashing's first use (seeding, a set's type) was a visible part of every `trawl` run.
    private let nonASCII: [Unicode.Scalar]

    /// The separators among `characters`.
    public init(_ characters: String) {
        // Unicode's White_Space in ASCII is tab to carriage return and space: asking the property
        // tables instead costs every `trawl` run their first use (page faults).
        let whitespace: UInt64 = 0b11111 << 9 | 1 << 32
        var given: [UInt64] = [0, 0], nonASCII: [Unicode.Scalar] = []
        for scalar in characters.unicodeScalars {
            let value = Int(scalar.value)
            if value < 128 {
                given[value >> 6] |= 1 << UInt64(value & 63)
            } else {
                nonASCII.append(scalar)
            }
        }
        asciiMask = (whitespace | given[0], given[1])
        givenASCII = given
        nonASCII.sort()
        self.nonASCII = nonASCII.enumerated().filter { $0.offset == 0 || nonASCII[$0.offset - 1] != $0.element }.map(\.element)
    }

    /// Equal when they hold the same characters.
    public static func == (lhs: WordSeparators, rhs: WordSeparators) -> Bool {
        lhs.givenASCII == rhs.givenASCII && lhs.nonASCII == rhs.nonASCII
    }
    /// Hashes the characters.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(givenASCII)
        hasher.combine(nonASCII)
    }

    /// VS Code's default separators.
    public static let `default` = WordSeparators("`~!@#$%^&*()-=+[{]}\\|;:'\",.<>/?")

    /// Whether a scalar separates words.
    @inline(__always)
    public func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 64 { return asciiMask.0 & (1 << UInt64(value)) != 0 }
        if value < 128 { return asciiMask.1 & (1 << UInt64(value - 64)) != 0 }
        return scalar.properties.isWhitespace || nonASCII.contains(scalar)
    }
}
