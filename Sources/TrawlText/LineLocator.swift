import TrawlKernels

/// Line arithmetic on one contiguous buffer: line starts and ends, and 1-based line numbers for
/// offsets visited in increasing order (counting line feeds incrementally, with the SIMD kernel).
public struct LineLocator {
    /// The text.
    public let bytes: UnsafeBufferPointer<UInt8>
    private var countedOffset = 0
    private var countedLine = 1

    /// A locator over `bytes`, which must stay valid while it is used.
    public init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The start of the line holding `offset`.
    public func lineStart(_ offset: Int) -> Int {
        guard offset > 0, let base = bytes.baseAddress else { return 0 }
        let found = trawl_find_last_byte(base, offset, 0x0A)
        return found == offset ? 0 : found + 1
    }

    /// The offset just past the line holding `offset` (past its LF, or the end of the text).
    public func lineEnd(_ offset: Int) -> Int {
        guard offset < bytes.count, let base = bytes.baseAddress else { return bytes.count }
        let found = trawl_find_byte(base + offset, bytes.count - offset, 0x0A)
        return found == bytes.count - offset ? bytes.count : offset + found + 1
    }

    /// The end of `line` (a range from a line start to a line end) without its line feed: a CR
    /// before it stays, as grep and ripgrep print it.
    public func contentEnd(of line: Range<Int>) -> Int {
        line.upperBound > line.lowerBound && bytes[line.upperBound - 1] == 0x0A ? line.upperBound - 1 : line.upperBound
    }

    /// The 1-based number of the line holding `offset`.
    public mutating func lineNumber(_ offset: Int) -> Int {
        if offset < countedOffset {
            countedOffset = 0
            countedLine = 1
        }
        if offset > countedOffset, let base = bytes.baseAddress {
            countedLine += trawl_count_newlines(base + countedOffset, offset - countedOffset)
            countedOffset = offset
        }
        return countedLine
    }
}
