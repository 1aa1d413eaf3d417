import TrawlKernels
/// A position on the leaf level of a rope tree, with the path from the root, so that moving to the
/// next or previous leaf is amortized O(1).
///
/// The path holds unretained references: `root` keeps the whole tree alive, and a cursor never
/// outlives its tree, so walking leaves costs no reference counting.
struct LeafCursor {
    private let root: Node
    private var path: [(node: Unmanaged<Node>, index: Int)] = []
    private(set) var leaf: Unmanaged<Node>
    /// The UTF-8 offset of the leaf's first byte.
    private(set) var leafStart: Int

    /// Positions the cursor on the leaf holding byte `offset`; with `leftBias`, an offset on a
    /// boundary selects the leaf that ends there.
    init(root: Node, offset: Int, leftBias: Bool = false) {
        self.root = root
        var node = Unmanaged.passUnretained(root)
        var start = 0
        path.reserveCapacity(root.height)
        while node._withUnsafeGuaranteedRef({ $0.height }) > 0 {
            let (index, childStart) = node._withUnsafeGuaranteedRef { $0.childIndex(forUTF8: offset - start, leftBias: leftBias) }
            path.append((node, index))
            start += childStart
            node = node._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.children[index]) }
        }
        leaf = node
        leafStart = start
    }

    /// The number of bytes in the current leaf, read from its parent: a walk that runs ahead of
    /// its reads can then move without waiting for the leaf's own cache lines.
    var leafCount: Int {
        guard let parent = path.last else { return leaf._withUnsafeGuaranteedRef { $0.count } }
        return parent.node._withUnsafeGuaranteedRef { $0.childUTF8[parent.index] }
    }

    /// Moves to the next leaf; returns false (and stays) at the last one.
    mutating func moveToNextLeaf() -> Bool {
        var level = path.count - 1
        while level >= 0 && path[level].index + 1 >= path[level].node._withUnsafeGuaranteedRef({ $0.count }) { level -= 1 }
        guard level >= 0 else { return false }
        let end = leafStart + leafCount
        path[level].index += 1
        var node = path[level].node._withUnsafeGuaranteedRef { [index = path[level].index] in Unmanaged.passUnretained($0.children[index]) }
        for deeper in (level + 1)..<path.count {
            path[deeper] = (node, 0)
            node = node._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.children[0]) }
        }
        leaf = node
        leafStart = end
        return true
    }

    /// Moves to the previous leaf; returns false (and stays) at the first one.
    mutating func moveToPreviousLeaf() -> Bool {
        var level = path.count - 1
        while level >= 0 && path[level].index == 0 { level -= 1 }
        guard level >= 0 else { return false }
        path[level].index -= 1
        var node = path[level].node._withUnsafeGuaranteedRef { [index = path[level].index] in Unmanaged.passUnretained($0.children[index]) }
        for deeper in (level + 1)..<path.count {
            let last = node._withUnsafeGuaranteedRef { $0.count - 1 }
            path[deeper] = (node, last)
            node = node._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.children[last]) }
        }
        leaf = node
        leafStart -= leafCount
        return true
    }
}

extension Rope {
    /// A contiguous piece of a rope's text and its offset in the rope.
    ///
    /// A chunk keeps its storage alive, and the rope never mutates storage that a chunk can see, so
    /// its bytes stay valid and unchanged for the chunk's lifetime. A chunk never splits a Unicode
    /// scalar or a CRLF pair, unless the range it was cut to does.
    public struct Chunk: @unchecked Sendable { // nodes are immutable once shared (see `Node`)
        let leaf: Node
        let lower: Int
        /// The UTF-8 offset of the chunk's first byte in the rope.
        public let offset: Int
        /// The number of bytes in the chunk.
        public let count: Int

        init(leaf: Unmanaged<Node>, leafStart: Int, clampedTo range: Range<Int>) {
            let leaf = leaf.takeUnretainedValue()
            self.leaf = leaf
            let lower = max(range.lowerBound - leafStart, 0)
            let upper = min(range.upperBound - leafStart, leaf.count)
            self.lower = lower
            self.offset = leafStart + lower
            self.count = max(upper - lower, 0)
        }

        /// The byte range the chunk occupies in the rope.
        public var range: Range<Int> { offset..<(offset + count) }

        /// Calls `body` with the chunk's bytes.
        @inlinable
        public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
            try withExtendedLifetime(self) { () throws(E) -> R in try body(UnsafeRawBufferPointer(unsafeBytes)) }
        }

        /// The chunk's bytes; valid while the chunk is alive (use within `withExtendedLifetime`).
        @usableFromInline package var unsafeBytes: UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: leaf.bytes + lower, count: count)
        }

        /// An object whose lifetime keeps ``unsafeBytes`` valid.
        package var storageOwner: AnyObject { leaf }

        /// The chunk's text.
        public var string: String { String(decoding: unsafeBytes, as: UTF8.self) }

        /// A copy of the chunk's bytes.
        public var bytes: [UInt8] { withExtendedLifetime(leaf) { Array(unsafeBytes) } }
    }

    /// The chunks of a byte range, in order. A sequence that holds a snapshot of the rope.
    public struct Chunks: Sequence, @unchecked Sendable {
        let root: Node
        let range: Range<Int>

        /// Iterates over the sequence, holding its snapshot of the rope.
        public struct Iterator: IteratorProtocol {
            var cursor: LeafCursor?
            let range: Range<Int>

            /// The next chunk, or nil at the end.
            public mutating func next() -> Chunk? {
                while cursor != nil {
                    // Mutated in place: copying the cursor out would copy its path on every step.
                    let chunk = Chunk(leaf: cursor!.leaf, leafStart: cursor!.leafStart, clampedTo: range)
                    let reachedEnd = cursor!.leafStart + cursor!.leafCount >= range.upperBound
                    if reachedEnd || !cursor!.moveToNextLeaf() { cursor = nil }
                    if chunk.count > 0 { return chunk }
                }
                return nil
            }
        }

        /// An iterator from the start.
        public func makeIterator() -> Iterator {
            guard !range.isEmpty else { return Iterator(cursor: nil, range: range) }
            return Iterator(cursor: LeafCursor(root: root, offset: range.lowerBound), range: range)
        }
    }

    /// The chunks of a byte range, in reverse order (the last chunk first).
    public struct ReversedChunks: Sequence, @unchecked Sendable {
        let root: Node
        let range: Range<Int>

        /// Iterates over the sequence, holding its snapshot of the rope.
        public struct Iterator: IteratorProtocol {
            var cursor: LeafCursor?
            let range: Range<Int>

            /// The next chunk, or nil at the end.
            public mutating func next() -> Chunk? {
                while cursor != nil {
                    let chunk = Chunk(leaf: cursor!.leaf, leafStart: cursor!.leafStart, clampedTo: range)
                    let reachedStart = cursor!.leafStart <= range.lowerBound
                    if reachedStart || !cursor!.moveToPreviousLeaf() { cursor = nil }
                    if chunk.count > 0 { return chunk }
                }
                return nil
            }
        }

        /// An iterator from the start.
        public func makeIterator() -> Iterator {
            guard !range.isEmpty else { return Iterator(cursor: nil, range: range) }
            return Iterator(cursor: LeafCursor(root: root, offset: range.upperBound, leftBias: true), range: range)
        }
    }

    /// How much of a leaf ahead ``forEachChunk(in:_:)`` asks for: ten cache lines, about as many
    /// as a core keeps in flight. Asking for a whole 2 KB leaf at once made the prefetch
    /// instructions themselves wait for room (`perf` put nearly all of the walk's own time on
    /// them); 256 bytes or 1 KB measured slower than ten lines (HISTORY.md).
    static let prefetchedLeafBytes = 640

    /// Calls `body` with the offset and bytes of each chunk of `range`, in order, until it returns
    /// false. The bytes are valid during the call only.
    ///
    /// For long scans: unlike ``chunks(in:)``, the walk touches no reference count per chunk,
    /// which at a 2 KB leaf costs about as much as scanning the leaf.
    public func forEachChunk(in range: Range<Int>, _ body: (_ offset: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool) {
        precondition(range.lowerBound >= 0 && range.upperBound <= utf8Count, "range out of bounds")
        guard !range.isEmpty else { return }
        withExtendedLifetime(root) {
            var cursor = LeafCursor(root: root, offset: range.lowerBound)
            // Leaves are separate allocations, which the hardware prefetcher cannot guess: the
            // cursor runs two leaves ahead of the one handed over and asks for the first
            // `prefetchedLeafBytes` of each; the hardware prefetcher, seeing a scan read them in
            // order, streams the rest (within the leaf's 4 KB page; a scan kernel's own prefetch
            // ahead may cover it too).
            typealias Leaf = (start: Int, base: UnsafePointer<UInt8>, count: Int)
            // Nothing here reads a leaf ahead (its length comes from its parent): a read would
            // wait for the very cache miss the prefetch has just asked for.
            func leaf() -> Leaf { (cursor.leafStart, UnsafePointer(cursor.leaf._withUnsafeGuaranteedRef { $0.bytes }), cursor.leafCount) }
            func advance() -> Leaf? {
                guard cursor.leafStart + cursor.leafCount < range.upperBound, cursor.moveToNextLeaf() else { return nil }
                let next = leaf()
                trawl_prefetch(next.base, min(next.count, Rope.prefetchedLeafBytes))
                return next
            }
            var current: Leaf? = leaf()
            var ahead = advance()
            var further = ahead == nil ? nil : advance()
            while let (leafStart, base, count) = current {
                let lower = max(range.lowerBound - leafStart, 0), upper = min(range.upperBound - leafStart, count)
                if upper > lower, !body(leafStart + lower, UnsafeBufferPointer(start: base + lower, count: upper - lower)) { return }
                current = ahead
                ahead = further
                further = further == nil ? nil : advance()
            }
        }
    }

    /// The chunks of the whole text, or of a byte range, in order.
    public func chunks(in range: Range<Int>? = nil) -> Chunks {
        let range = range ?? 0..<utf8Count
        precondition(range.lowerBound >= 0 && range.upperBound <= utf8Count, "range out of bounds")
        return Chunks(root: root, range: range)
    }

    /// The chunks from a byte offset to the end, in order.
    public func chunks(from offset: Int) -> Chunks { chunks(in: offset..<utf8Count) }

    /// The chunks before a byte offset, from the one ending at `offset` back to the start.
    public func reversedChunks(upTo offset: Int) -> ReversedChunks {
        precondition(offset >= 0 && offset <= utf8Count, "offset out of bounds")
        return ReversedChunks(root: root, range: 0..<offset)
    }

    /// The chunks of a byte range, from the last to the first.
    public func reversedChunks(in range: Range<Int>) -> ReversedChunks {
        precondition(range.lowerBound >= 0 && range.upperBound <= utf8Count, "range out of bounds")
        return ReversedChunks(root: root, range: range)
    }
}

extension Rope {
    /// The bytes of a range, one at a time.
    public struct Bytes: Sequence, @unchecked Sendable {
        let chunks: Chunks

        /// Iterates over the sequence, holding its snapshot of the rope.
        public struct Iterator: IteratorProtocol {
            var chunks: Chunks.Iterator
            var current: Chunk?
            var index = 0

            /// The next byte, or nil at the end.
            public mutating func next() -> UInt8? {
                while true {
                    if let chunk = current, index < chunk.count {
                        defer { index += 1 }
                        return chunk.leaf.bytes[chunk.lower + index]
                    }
                    guard let next = chunks.next() else { return nil }
                    current = next
                    index = 0
                }
            }
        }

        /// An iterator from the start.
        public func makeIterator() -> Iterator { Iterator(chunks: chunks.makeIterator()) }
    }

    /// The bytes of the whole text or of a range.
    public func bytes(in range: Range<Int>? = nil) -> Bytes { Bytes(chunks: chunks(in: range)) }

    /// The text of each line from line `first` on, without its line break (LF or CRLF).
    public func lines(from first: Int = 0) -> some Sequence<String> {
        let rope = self
        return (first..<max(first, lineCount)).lazy.map { line in
            rope[rope.utf8Range(ofLine: line, includingLineBreak: false)]
        }
    }
}
