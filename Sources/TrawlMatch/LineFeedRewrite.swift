/// The one rewrite Trawl makes to a pattern before PCRE2 compiles it: a line feed the pattern asks
/// for (`\n`, or a raw line feed, outside classes and lookbehinds) becomes `(?:\r?\n)`, so it
/// matches a line ending whether the text uses LF or CRLF, as in VS Code.
///
/// Kept apart from the analysis (``PatternParser`` only notes the sites), with the map back to the
/// pattern as written for PCRE2's error offsets.
struct LineFeedRewrite {
    /// A line feed in the pattern: its bytes (`\n`, or one raw line feed), and whether it is inside
    /// a `\Q…\E` quote (then the quote is closed around the replacement).
    struct Site {
        var range: Range<Int>
        var isQuoted: Bool
    }

    /// The pattern handed to PCRE2.
    let pattern: [UInt8]
    /// After each replacement: its end in ``pattern`` and the matching offset in the original.
    private let offsetMap: [(compiled: Int, original: Int)]

    static let replacement = Array("(?:\\r?\\n)".utf8)

    init(_ original: [UInt8], sites: [Site]) {
        var output: [UInt8] = []
        output.reserveCapacity(original.count + sites.count * 12)
        var map: [(compiled: Int, original: Int)] = []
        var copied = 0
        for site in sites {
            output += original[copied..<site.range.lowerBound]
            output += site.isQuoted ? Array("\\E".utf8) + LineFeedRewrite.replacement + Array("\\Q".utf8) : LineFeedRewrite.replacement
            copied = site.range.upperBound
            map.append((output.count, copied))
        }
        output += original[copied...]
        pattern = output
        offsetMap = map
    }

    /// Maps an offset in the rewritten pattern back to the pattern as written.
    func originalOffset(ofCompiledOffset offset: Int) -> Int {
        var shift = 0
        for entry in offsetMap where entry.compiled <= offset {
            shift = entry.original - entry.compiled
        }
        return max(0, offset + shift)
    }
}
