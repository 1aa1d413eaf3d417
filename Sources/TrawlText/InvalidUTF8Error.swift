import TrawlKernels

/// Bytes that are not well-formed UTF-8, with the offset of the first ill-formed or truncated
/// sequence. Trawl never repairs such input silently.
public struct InvalidUTF8Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// The byte offset of the first ill-formed sequence, from the start of the input.
    public var offset: Int

    /// The error for a bad byte at `offset`.
    public init(offset: Int) { self.offset = offset }

    /// The offset, for a message.
    public var description: String { "invalid UTF-8 at byte offset \(offset)" }

    /// Returns the offset of the first ill-formed sequence in `bytes`, or `nil` when they are valid.
    public static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let end = trawl_utf8_validate(base, bytes.count)
        return end == bytes.count ? nil : end
    }

    static func check(_ bytes: UnsafeBufferPointer<UInt8>, base: Int = 0) throws(InvalidUTF8Error) {
        if let offset = firstInvalidOffset(in: bytes) { throw InvalidUTF8Error(offset: base + offset) }
    }
}
