/// The rewrites Trawl makes to a pattern before PCRE2 compiles it, so that what users of VS Code
/// type in its find box means the same here:
///
/// - a line feed the pattern asks for (`\n`, or a raw line feed, outside classes and lookbehinds)
///   becomes `(?:\r?\n)`, so it matches a line ending whether the text uses LF or CRLF (inside a
///   `\Q…\E` quote, the quote is closed around it);
/// - JavaScript's `\uHHHH` (a surrogate pair too) and `\u{H…}` become PCRE2's `\x{H…}`.
///
/// Kept apart from the analysis (``PatternParser`` only notes the sites), with the map back to the
/// pattern as written for PCRE2's error offsets.
struct PatternRewrite {
    /// A stretch of the pattern and what replaces it.
    struct Site {
        var range: Range<Int>
        var replacement: [UInt8]

        /// A line feed, quoted or not.
        static func lineFeed(_ range: Range<Int>, quoted: Bool) -> Site {
            let lineEnding = Array("(?:\\r?\\n)".utf8)
            return Site(range: range, replacement: quoted ? Array("\\E".utf8) + lineEnding + Array("\\Q".utf8) : lineEnding)
        }

        /// A character given by its code.
        static func codePoint(_ range: Range<Int>, _ scalar: Unicode.Scalar) -> Site {
            Site(range: range, replacement: Array("\\x{\(String(scalar.value, radix: 16))}".utf8))
        }
    }

    /// The pattern handed to PCRE2.
    let pattern: [UInt8]
    /// After each replacement: its end in ``pattern`` and the matching offset in the original.
    private let offsetMap: [(compiled: Int, original: Int)]

    init(_ original: [UInt8], sites: [Site]) {
        var output: [UInt8] = []
        output.reserveCapacity(original.count + sites.count * 12)
        var map: [(compiled: Int, original: Int)] = []
        var copied = 0
        for site in sites.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            output += original[copied..<site.range.lowerBound]
            output += site.replacement
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
