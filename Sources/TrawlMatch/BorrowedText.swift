import TrawlText

/// Valid UTF-8 in memory the caller owns, searched in place: no copy and no allocation, for hosts
/// that already hold the text contiguously (an editor's buffer, a `[UInt8]`, a mapped file).
///
/// The text does not keep the memory alive: the caller guarantees it stays valid and unchanged
/// while the text, its cursors and its chunks are in use (the scope of
/// ``withBorrowedText(validating:_:)``). Use ``ContiguousText`` when the text must outlive that.
public struct BorrowedText: SearchableText, @unchecked Sendable { // read-only view of memory the caller keeps unchanged
    /// The bytes.
    public let bytes: UnsafeBufferPointer<UInt8>

    /// Views `bytes`, which must be valid UTF-8 (not checked: see ``withBorrowedText(validating:_:)``).
    public init(unsafeValidUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The text's length in bytes.
    public var utf8Count: Int { bytes.count }

    /// The bytes of `range`, as one chunk.
    public func chunks(forwardIn range: Range<Int>) -> ContiguousText.SingleChunk {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range out of bounds")
        guard !range.isEmpty, let base = bytes.baseAddress else { return ContiguousText.SingleChunk(chunk: nil) }
        return ContiguousText.SingleChunk(chunk: TextChunk(offset: range.lowerBound,
                                                           bytes: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count),
                                                           owner: nil))
    }

    /// The bytes of `range`, as one chunk.
    public func chunks(backwardIn range: Range<Int>) -> ContiguousText.SingleChunk { chunks(forwardIn: range) }

    /// Calls `body` with the bytes: they are contiguous.
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try body(bytes)
    }
}

/// Checks that `bytes` are valid UTF-8 and calls `body` with a ``BorrowedText`` over them, valid
/// only inside `body`.
/// - Throws: ``InvalidUTF8Error`` when the bytes are not valid UTF-8 (`body` is not called), or
///   what `body` throws.
public func withBorrowedText<R, E: Error>(validating bytes: UnsafeBufferPointer<UInt8>,
                                          _ body: (BorrowedText) throws(E) -> R) throws -> R {
    if let offset = InvalidUTF8Error.firstInvalidOffset(in: bytes) { throw InvalidUTF8Error(offset: offset) }
    return try body(BorrowedText(unsafeValidUTF8: bytes))
}
