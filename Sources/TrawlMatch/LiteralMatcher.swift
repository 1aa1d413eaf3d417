import TrawlNGram
/// Finds literal text: the needle as typed.
///
/// A case-sensitive needle without line breaks is found by scanning for its rarest byte with
/// `memchr` (or a SIMD set scan) and verifying around each hit, in place in the chunks. A
/// case-insensitive needle (Unicode simple case folding), or one containing a line feed (which then
/// also matches a CRLF line ending) or a CR (which never finds the CR of a CRLF), is matched by
/// PCRE2 on an escaped pattern, behind the same literal prefilter.
public struct LiteralMatcher: Matcher {
    /// The text to find.
    public let needle: String
    /// The options it was made with (syntax `.literal`).
    public let options: MatchOptions
    private let implementation: Implementation

    private enum Implementation: Sendable {
        case empty
        /// The literal, and whether two of its occurrences can overlap (worked out once, not per
        /// search: a whole-word search of a tree makes a cursor per file).
        case bytes(PrefilterLiteral, canOverlapItself: Bool)
        case regex(RegexMatcher)
    }

    /// A literal has no capture groups.
    public var captureCount: Int { 0 }
    /// None: a literal has no groups.
    public var groupNumbers: [String: Int] { [:] }

    /// A literal looks at nothing around it (but for a whole-word check); without a line feed it
    /// lies within a line.
    public var locality: MatchLocality {
        if case .regex(let regex) = implementation { return regex.locality }
        return MatchLocality(isLineBounded: !canMatchAcrossLines, lookbehind: 0, lookahead: 0, maxMatchLength: needle.utf8.count)
            .checkingWholeWords(options.wholeWord)
    }

    /// The needle itself (ASCII-caseless when matched so), or the query of its escaped pattern.
    public var literalQuery: LiteralQuery {
        switch implementation {
        case .empty: .all
        case .bytes(let literal, _): .literal(QueryLiteral(units: literal.units))
        case .regex(let regex): regex.literalQuery
        }
    }

    /// Whether a match can contain a line feed: when the needle has one.
    public var canMatchAcrossLines: Bool { needle.utf8.contains(0x0A) }

    /// Creates a matcher for `needle`; `options.syntax` is ignored. An empty needle matches nothing.
    /// - Throws: ``MatchError/invalidPattern(message:offset:)`` when a needle matched by PCRE2 (see
    ///   above) is too long for it to compile: tens of thousands of characters, caseless.
    public init(_ needle: String, options: MatchOptions = MatchOptions()) throws(MatchError) {
        self.needle = needle
        var options = options
        options.syntax = .literal
        self.options = options
        if needle.isEmpty {
            implementation = .empty
        } else if options.matchCase && !needle.utf8.contains(0x0A) && !needle.utf8.contains(0x0D) {
            let literal = PrefilterLiteral(bytes: needle.utf8)
            implementation = .bytes(literal, canOverlapItself: literal.canOverlapItself)
        } else if !options.matchCase, let folded = LiteralMatcher.asciiCaseless(needle) {
            implementation = .bytes(folded, canOverlapItself: folded.canOverlapItself)
        } else {
            var regexOptions = options
            regexOptions.syntax = .regex
            implementation = .regex(try RegexMatcher(LiteralMatcher.escapedPattern(needle), options: regexOptions))
        }
    }

    /// An ASCII needle whose letters fold only to their other ASCII case (every letter but k and s,
    /// which also match the Kelvin sign and long s), as a caseless literal; `nil` otherwise.
    static func asciiCaseless(_ needle: String) -> PrefilterLiteral? {
        var units: [UInt16] = []
        for byte in needle.utf8 {
            guard byte < 0x80, byte != 0x0A, byte != 0x0D else { return nil }
            let lower = byte | 0x20
            if (0x61...0x7A).contains(lower) {
                if lower == UInt8(ascii: "k") || lower == UInt8(ascii: "s") { return nil }
                units.append(PrefilterLiteral.caselessFlag | UInt16(lower))
            } else {
                units.append(UInt16(byte))
            }
        }
        return PrefilterLiteral(units: units)
    }

    /// The needle as a PCRE2 pattern matching it literally (a line feed written as `\n`).
    public static func escapedPattern(_ needle: String) -> String {
        var pattern = ""
        for scalar in needle.unicodeScalars {
            switch scalar {
            case "\n": pattern += "\\n"
            case "\r": pattern += "\\r"
            case "a"..."z", "A"..."Z", "0"..."9": pattern.unicodeScalars.append(scalar)
            default:
                if scalar.isASCII { pattern += "\\" }
                pattern.unicodeScalars.append(scalar)
            }
        }
        return pattern
    }

    /// A cursor over the needle's matches starting in `range`, reading no byte outside `context`.
    public func cursor(over text: some SearchableText, in range: Range<Int>, context: Range<Int>) -> MatchCursor {
        precondition(context.lowerBound >= 0 && context.upperBound <= text.utf8Count, "context out of bounds")
        precondition(context.lowerBound <= range.lowerBound && range.upperBound <= context.upperBound, "range outside its context")
        switch implementation {
        case .empty: return MatchCursor(engine: EmptySearch())
        case .regex(let matcher): return matcher.cursor(over: text, in: range, context: context)
        case .bytes(let literal, let canOverlapItself):
            let engine = LiteralSearch(literal: literal, text: text, range: range, context: context)
            guard options.wholeWord else { return MatchCursor(engine: engine) }
            return MatchCursor(engine: WholeWordFilter(base: engine, range: context, separators: options.wordSeparators,
                                                       matchesCanOverlap: canOverlapItself))
        }
    }
}
