import TrawlText

/// A contiguous piece of a text being searched: its offset and bytes. The bytes stay valid while
/// the chunk value is alive (it keeps their storage alive).
public struct TextChunk {
    /// The offset of the chunk's first byte in the text.
    public let offset: Int
    /// The chunk's bytes.
    public let bytes: UnsafeBufferPointer<UInt8>
    let owner: AnyObject?

    /// A chunk of `bytes` at `offset`, kept valid by `owner`.
    public init(offset: Int, bytes: UnsafeBufferPointer<UInt8>, owner: AnyObject?) {
        self.offset = offset
        self.bytes = bytes
        self.owner = owner
    }

    /// The offset just past the chunk.
    public var end: Int { offset + bytes.count }
}

/// Text a matcher can search: a sequence of byte chunks of valid UTF-8 (a rope's chunks, or one
/// contiguous buffer such as a file read into memory).
///
/// Matchers read chunks in place; results never depend on where the chunk boundaries fall (each
/// chunk must hold whole scalars).
public protocol SearchableText: Sendable {
    associatedtype ForwardChunks: IteratorProtocol<TextChunk>
    associatedtype BackwardChunks: IteratorProtocol<TextChunk>

    /// The length of the text in UTF-8 bytes.
    var utf8Count: Int { get }

    /// The chunks covering `range`, in order, each clipped to `range`.
    func chunks(forwardIn range: Range<Int>) -> ForwardChunks

    /// The chunks covering `range`, from the last to the first, each clipped to `range`.
    func chunks(backwardIn range: Range<Int>) -> BackwardChunks

    /// Calls `body` with the whole text when it is stored contiguously (enabling zero-copy
    /// matching), and returns `nil` otherwise.
    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R?

    /// Calls `body` with the offset and bytes of each chunk covering `range`, in order, each
    /// clipped to `range`, until it returns false. The bytes are valid during the call only.
    /// Long scans use it; the default goes through ``chunks(forwardIn:)``.
    func forEachChunk(forwardIn range: Range<Int>, _ body: (_ offset: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool)
}

extension SearchableText {
    /// Calls `body` with each chunk of `range`, in order.
    public func forEachChunk(forwardIn range: Range<Int>, _ body: (_ offset: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool) {
        var iterator = chunks(forwardIn: range)
        while let chunk = iterator.next() {
            guard withExtendedLifetime(chunk.owner, { body(chunk.offset, chunk.bytes) }) else { return }
        }
    }

    /// Copies the bytes of `range` into `destination`.
    func copyBytes(in range: Range<Int>, to destination: UnsafeMutablePointer<UInt8>) {
        var written = 0
        var iterator = chunks(forwardIn: range)
        while let chunk = iterator.next() {
            (destination + written).update(from: chunk.bytes.baseAddress!, count: chunk.bytes.count)
            written += chunk.bytes.count
        }
    }

    /// The bytes of a small range, as an array.
    func bytes(in range: Range<Int>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: range.count) { buffer, count in
            if range.count > 0 { copyBytes(in: range, to: buffer.baseAddress!) }
            count = range.count
        }
    }

    /// The byte at `offset`.
    func byte(at offset: Int) -> UInt8 {
        var iterator = chunks(forwardIn: offset..<(offset + 1))
        return iterator.next()!.bytes[0]
    }
}

extension Rope: SearchableText {
    /// The rope's chunks of a range, in order, as text chunks.
    public struct ForwardTextChunks: IteratorProtocol {
        var base: Rope.Chunks.Iterator
        /// The next chunk, or nil at the end.
        public mutating func next() -> TextChunk? {
            base.next().map { TextChunk(offset: $0.offset, bytes: $0.unsafeBytes, owner: $0.storageOwner) }
        }
    }

    /// The rope's chunks of a range, last first, as text chunks.
    public struct BackwardTextChunks: IteratorProtocol {
        var base: Rope.ReversedChunks.Iterator
        /// The next chunk, or nil at the end.
        public mutating func next() -> TextChunk? {
            base.next().map { TextChunk(offset: $0.offset, bytes: $0.unsafeBytes, owner: $0.storageOwner) }
        }
    }

    /// The chunks of `range`, in order.
    public func chunks(forwardIn range: Range<Int>) -> ForwardTextChunks {
        ForwardTextChunks(base: chunks(in: range).makeIterator())
    }

    /// The chunks of `range`, last first.
    public func chunks(backwardIn range: Range<Int>) -> BackwardTextChunks {
        BackwardTextChunks(base: reversedChunks(in: range).makeIterator())
    }

    /// Calls `body` with the bytes when they are contiguous; nil otherwise.
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        nil
    }

    /// Calls `body` with each chunk of `range`, in order.
    public func forEachChunk(forwardIn range: Range<Int>, _ body: (_ offset: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool) {
        forEachChunk(in: range, body)
    }
}

/// Text held in one contiguous, immutable buffer of valid UTF-8, such as a file read whole.
///
/// Matching it needs no copying: regex matching runs on the buffer itself.
public struct ContiguousText: SearchableText, @unchecked Sendable { // the storage is never mutated
    private let storage: Storage

    final class Storage {
        let base: UnsafePointer<UInt8>
        let count: Int
        let release: @Sendable () -> Void
        init(base: UnsafePointer<UInt8>, count: Int, release: @escaping @Sendable () -> Void) {
            self.base = base
            self.count = count
            self.release = release
        }
        deinit { release() }
    }

    /// Wraps bytes that are valid UTF-8, copying them.
    /// - Throws: ``InvalidUTF8Error`` when they are not.
    public init(validating bytes: some Collection<UInt8>) throws(InvalidUTF8Error) {
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = UnsafeMutableBufferPointer(start: base, count: bytes.count).initialize(from: bytes)
        storage = Storage(base: base, count: bytes.count, release: ContiguousText.deallocator(base))
        if let offset = InvalidUTF8Error.firstInvalidOffset(in: UnsafeBufferPointer(start: base, count: bytes.count)) {
            throw InvalidUTF8Error(offset: offset)
        }
    }

    /// Wraps a string's UTF-8.
    public init(_ string: String) {
        try! self.init(validating: Array(string.utf8))
    }

    /// Takes ownership of memory allocated with `UnsafeMutablePointer.allocate` holding valid
    /// UTF-8; it is deallocated with the last copy of the text.
    public init(adoptingValidUTF8 base: UnsafeMutablePointer<UInt8>, count: Int) {
        storage = Storage(base: base, count: count, release: ContiguousText.deallocator(base))
    }

    private static func deallocator(_ base: UnsafeMutablePointer<UInt8>) -> @Sendable () -> Void {
        let address = UInt(bitPattern: base)
        return { UnsafeMutablePointer<UInt8>(bitPattern: address)?.deallocate() }
    }

    /// Wraps memory holding valid UTF-8 that stays valid and unchanged until `release` is called
    /// (with the last copy of the text), such as a memory-mapped file.
    public init(unsafeValidUTF8 base: UnsafePointer<UInt8>, count: Int, release: @escaping @Sendable () -> Void) {
        storage = Storage(base: base, count: count, release: release)
    }

    /// The text's length in bytes.
    public var utf8Count: Int { storage.count }

    /// A range of a contiguous text, as one chunk.
    public struct SingleChunk: IteratorProtocol {
        var chunk: TextChunk?
        /// The next chunk, or nil at the end.
        public mutating func next() -> TextChunk? {
            defer { chunk = nil }
            return chunk
        }
    }

    /// The chunks of `range`, in order.
    public func chunks(forwardIn range: Range<Int>) -> SingleChunk {
        precondition(range.lowerBound >= 0 && range.upperBound <= storage.count, "range out of bounds")
        guard !range.isEmpty else { return SingleChunk(chunk: nil) }
        return SingleChunk(chunk: TextChunk(offset: range.lowerBound,
                                            bytes: UnsafeBufferPointer(start: storage.base + range.lowerBound, count: range.count),
                                            owner: storage))
    }

    /// The chunks of `range`, last first.
    public func chunks(backwardIn range: Range<Int>) -> SingleChunk { chunks(forwardIn: range) }

    /// Calls `body` with the bytes when they are contiguous; nil otherwise.
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: storage.base, count: storage.count)) }
    }
}
