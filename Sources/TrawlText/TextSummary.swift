import TrawlKernels

/// The measures of a run of text: UTF-8 bytes, UTF-16 code units, Unicode scalars and line breaks.
///
/// A line break is a line feed; a CRLF pair therefore counts once and a lone carriage return does
/// not count. Summaries add, so a rope node's summary is the sum of its children's.
public struct TextSummary: Hashable, Sendable, CustomStringConvertible {
    /// The number of UTF-8 code units (bytes).
    public var utf8: Int
    /// The number of UTF-16 code units.
    public var utf16: Int
    /// The number of Unicode scalars.
    public var scalars: Int
    /// The number of line breaks (LF, with CRLF counted once).
    public var newlines: Int

    /// Creates a summary from its measures.
    public init(utf8: Int = 0, utf16: Int = 0, scalars: Int = 0, newlines: Int = 0) {
        self.utf8 = utf8
        self.utf16 = utf16
        self.scalars = scalars
        self.newlines = newlines
    }

    /// Measures bytes that are known to be valid UTF-8.
    public init(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            self.init()
            return
        }
        var counts = trawl_text_counts()
        trawl_count_text(base, bytes.count, &counts)
        self.init(utf8: bytes.count, utf16: counts.utf16, scalars: counts.scalars, newlines: counts.newlines)
    }

    /// Measures a string.
    public init(_ string: String) {
        var string = string
        self = string.withUTF8 { TextSummary(validUTF8: $0) }
    }

    /// The summary with every measure zero.
    public static let zero = TextSummary()

    /// The summary of two texts back to back.
    public static func + (lhs: TextSummary, rhs: TextSummary) -> TextSummary {
        TextSummary(utf8: lhs.utf8 &+ rhs.utf8, utf16: lhs.utf16 &+ rhs.utf16,
                    scalars: lhs.scalars &+ rhs.scalars, newlines: lhs.newlines &+ rhs.newlines)
    }

    /// The summary of what is left when `rhs`'s text is taken off `lhs`'s end or start.
    public static func - (lhs: TextSummary, rhs: TextSummary) -> TextSummary {
        TextSummary(utf8: lhs.utf8 &- rhs.utf8, utf16: lhs.utf16 &- rhs.utf16,
                    scalars: lhs.scalars &- rhs.scalars, newlines: lhs.newlines &- rhs.newlines)
    }

    /// Adds `rhs`'s text after `lhs`'s.
    public static func += (lhs: inout TextSummary, rhs: TextSummary) { lhs = lhs + rhs }
    /// Takes `rhs`'s text off `lhs`'s.
    public static func -= (lhs: inout TextSummary, rhs: TextSummary) { lhs = lhs - rhs }

    /// The value of one measure.
    public subscript(metric: TextMetric) -> Int {
        switch metric {
        case .utf8: utf8
        case .utf16: utf16
        case .scalars: scalars
        case .newlines: newlines
        }
    }

    /// The counts, for debugging.
    public var description: String {
        "TextSummary(utf8: \(utf8), utf16: \(utf16), scalars: \(scalars), newlines: \(newlines))"
    }
}

/// A measure of text by which a rope can be indexed and sought.
public enum TextMetric: Sendable, CaseIterable {
    /// UTF-8 code units (bytes): the unit of every offset in Trawl's API.
    case utf8
    /// UTF-16 code units, as used by `NSString`, AppKit/UIKit and LSP by default.
    case utf16
    /// Unicode scalars (code points), as used by many editing traces and ropey.
    case scalars
    /// Line breaks: seeking to `n` finds the start of line `n` (zero-based).
    case newlines
}
