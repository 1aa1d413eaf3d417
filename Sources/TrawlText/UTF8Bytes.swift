/// Facts about single UTF-8 bytes, in one place for every module.
public enum UTF8Bytes {
    /// The length of the scalar whose first byte is `lead`: 1 for ASCII, 2, 3 or 4 by the lead's
    /// high bits (a stray continuation byte counts as 2, so that a scan always moves forward).
    @inlinable @inline(__always)
    public static func scalarLength(lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    /// Whether `byte` continues a scalar (0b10xxxxxx) rather than starting one.
    @inlinable @inline(__always)
    public static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
}

/// Line breaks, as the whole engine sees them: a line ends at a line feed, and a carriage return
/// just before it belongs to the break (CRLF), not to the line's content. A lone CR is content.
public enum LineBreaks {
    /// The end of a line's content: `lineFeed` (the offset of the line's LF, or the end of the text
    /// when the line has none) less a CR right before that LF. `byte` reads the text.
    @inlinable
    public static func contentEnd(lineStart: Int, lineFeed: Int, textEnd: Int, byte: (Int) -> UInt8) -> Int {
        lineFeed < textEnd && lineFeed > lineStart && byte(lineFeed - 1) == 0x0D ? lineFeed - 1 : lineFeed
    }
}
