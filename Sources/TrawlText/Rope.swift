import TrawlKernels

/// A text buffer for editors: UTF-8 text in a persistent B-tree of chunks.
///
/// `Rope` is a value type: copying one is O(1) and shares the whole tree, and a mutation copies only
/// the nodes on its path that are shared, so a snapshot handed to a background search stays valid
/// while editing goes on. Offsets are UTF-8 byte offsets; conversions to UTF-16, scalars and lines
/// run in O(log n). Every edit returns a ``TextEdit`` record.
///
/// ```swift
/// var rope = Rope("hello\nworld")
/// let edit = rope.replace(0..<5, with: "goodbye")
/// rope.lineCount                     // 2
/// rope.utf8Offset(ofLine: 1)         // 8
/// ```
public struct Rope: @unchecked Sendable { // nodes are immutable once shared (see `Node`)
    @usableFromInline var root: Node

    init(root: Node) { self.root = root }

    /// Creates an empty rope.
    public init() { root = Node.make() }

    /// Creates a rope holding a string.
    public init(_ string: String) {
        var string = string
        root = string.withUTF8 { Node.build(validUTF8: $0) }
    }

    /// Creates a rope from bytes, validating that they are UTF-8.
    ///
    /// - Throws: ``InvalidUTF8Error`` naming the offset of the first ill-formed byte; no repair is
    ///   attempted.
    public init(validating bytes: UnsafeRawBufferPointer) throws(InvalidUTF8Error) {
        let buffer = bytes.bindMemory(to: UInt8.self)
        try InvalidUTF8Error.check(buffer)
        root = Node.build(validUTF8: buffer)
    }

    /// Creates a rope from a sequence of bytes, validating that they are UTF-8.
    public init(validating bytes: some Sequence<UInt8>) throws(InvalidUTF8Error) {
        let built: Result<Node, InvalidUTF8Error> = Array(bytes).withUnsafeBufferPointer { buffer in
            if let offset = InvalidUTF8Error.firstInvalidOffset(in: buffer) { return .failure(InvalidUTF8Error(offset: offset)) }
            return .success(Node.build(validUTF8: buffer))
        }
        root = try built.get()
    }

    /// The measures of the whole text.
    public var summary: TextSummary { root.summary }
    /// The number of UTF-8 bytes.
    public var utf8Count: Int { root.summary.utf8 }
    /// The number of UTF-16 code units.
    public var utf16Count: Int { root.summary.utf16 }
    /// The number of Unicode scalars.
    public var scalarCount: Int { root.summary.scalars }
    /// The number of lines: line breaks plus one (an empty text has one empty line).
    public var lineCount: Int { root.summary.newlines + 1 }
    /// Whether the text is empty.
    public var isEmpty: Bool { root.summary.utf8 == 0 }

    // MARK: Editing

    /// Replaces a UTF-8 byte range with a string.
    ///
    /// Runs in O(log n) plus the size of one chunk when the range lies in one chunk and the insertion
    /// is small, and in O(log n + inserted) otherwise.
    /// - Precondition: `range` lies within the text and both its ends are on scalar boundaries.
    @discardableResult
    public mutating func replace(_ range: Range<Int>, with string: String) -> TextEdit {
        var string = string
        return string.withUTF8 { replace(range, withValidUTF8: $0, summary: TextSummary(validUTF8: $0)) }
    }

    /// Replaces a UTF-8 byte range with a substring or other string-like text.
    @discardableResult
    public mutating func replace(_ range: Range<Int>, with string: some StringProtocol) -> TextEdit {
        replace(range, with: String(string))
    }

    /// Replaces a UTF-8 byte range with bytes, validating that they are UTF-8.
    /// - Throws: ``InvalidUTF8Error`` (with the offset into `bytes`); the rope is then unchanged.
    @discardableResult
    public mutating func replace(_ range: Range<Int>, withValidating bytes: UnsafeRawBufferPointer)
        throws(InvalidUTF8Error) -> TextEdit {
        let buffer = bytes.bindMemory(to: UInt8.self)
        try InvalidUTF8Error.check(buffer)
        return replace(range, withValidUTF8: buffer, summary: TextSummary(validUTF8: buffer))
    }

    /// Replaces a range with another rope's text, sharing its chunks.
    @discardableResult
    public mutating func replace(_ range: Range<Int>, with other: Rope) -> TextEdit {
        checkEditRange(range)
        root = Node.concat(Node.concat(root.prefix(upTo: range.lowerBound), other.root), root.suffix(from: range.upperBound))
        return TextEdit(replacedRange: range, insertedCount: other.utf8Count)
    }

    /// Inserts a string at a UTF-8 offset.
    @discardableResult
    public mutating func insert(_ string: String, at offset: Int) -> TextEdit {
        replace(offset..<offset, with: string)
    }

    /// Inserts a substring or other string-like text at a UTF-8 offset.
    @discardableResult
    public mutating func insert(_ string: some StringProtocol, at offset: Int) -> TextEdit {
        replace(offset..<offset, with: String(string))
    }

    /// Deletes a UTF-8 byte range.
    @discardableResult
    public mutating func delete(_ range: Range<Int>) -> TextEdit {
        replace(range, withValidUTF8: UnsafeBufferPointer(start: nil, count: 0), summary: .zero)
    }

    /// Appends another rope's text, sharing its chunks. O(log n).
    public mutating func append(_ other: Rope) {
        root = Node.concat(root, other.root)
    }

    /// Appends a string.
    public mutating func append(_ string: some StringProtocol) {
        replace(utf8Count..<utf8Count, with: string)
    }

    /// The concatenation of two ropes.
    public static func + (lhs: Rope, rhs: Rope) -> Rope {
        var result = lhs
        result.append(rhs)
        return result
    }

    /// The text of a byte range as a rope that shares this rope's chunks. O(log n).
    /// - Precondition: both ends of `range` are on scalar boundaries.
    public func slice(_ range: Range<Int>) -> Rope {
        checkEditRange(range)
        return Rope(root: root.prefix(upTo: range.upperBound).suffix(from: range.lowerBound))
    }

    /// Splits the text at a byte offset into the text before and the text after. O(log n).
    public func split(at offset: Int) -> (Rope, Rope) {
        checkEditRange(offset..<offset)
        return (Rope(root: root.prefix(upTo: offset)), Rope(root: root.suffix(from: offset)))
    }

    @usableFromInline
    mutating func replace(_ range: Range<Int>, withValidUTF8 inserted: UnsafeBufferPointer<UInt8>,
                          summary insertedSummary: TextSummary) -> TextEdit {
        precondition(range.lowerBound >= 0 && range.upperBound <= utf8Count, "edit range out of bounds")
        let edit = TextEdit(replacedRange: range, insertedCount: inserted.count)
        if inserted.count <= NodeLimits.maxInPlaceInsert {
            if !isKnownUniquelyReferenced(&root) { root = root.copy() }
            let outcome = root.editInPlace(lower: range.lowerBound, upper: range.upperBound,
                                           inserted: inserted, insertedSummary: insertedSummary)
            if case .applied(let split, _, let touchedEdge) = outcome {
                if let split {
                    root = Node.make(children: [root, split])
                } else {
                    collapseRoot()
                }
                if touchedEdge {
                    joinCRLFSplit(at: range.lowerBound)
                    joinCRLFSplit(at: range.lowerBound + inserted.count)
                }
                return edit
            }
        }
        checkEditRange(range)
        var result = root.prefix(upTo: range.lowerBound)
        if !inserted.isEmpty { result = Node.concat(result, Node.build(validUTF8: inserted)) }
        root = Node.concat(result, root.suffix(from: range.upperBound))
        return edit
    }

    /// Removes inner roots with a single child, left behind when merges empty a level.
    private mutating func collapseRoot() {
        while root.height > 0 && root.count == 1 { root = root.children[0] }
    }

    /// If a chunk ends with CR at `offset` and the next starts with LF, moves the LF into the first
    /// chunk, so that no chunk boundary splits a CRLF pair.
    private mutating func joinCRLFSplit(at offset: Int) {
        guard offset > 0 && offset < utf8Count else { return }
        let (leaf, start) = leaf(containing: offset)
        guard start == offset, leaf.bytes[0] == asciiLF, byte(at: offset - 1) == asciiCR else { return }
        for (lower, upper, text) in [(offset, offset + 1, [UInt8]()), (offset, offset, [asciiLF])] {
            text.withUnsafeBufferPointer { bytes in
                if !isKnownUniquelyReferenced(&root) { root = root.copy() }
                let outcome = root.editInPlace(lower: lower, upper: upper, inserted: bytes,
                                               insertedSummary: TextSummary(validUTF8: bytes))
                guard case .applied(let split, _, _) = outcome else { preconditionFailure("one-byte edit spans leaves") }
                if let split { root = Node.make(children: [root, split]) } else { collapseRoot() }
            }
        }
    }

    /// Checks that both ends of a range are inside the text and on scalar boundaries.
    func checkEditRange(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= utf8Count, "range \(range) out of bounds 0...\(utf8Count)")
        precondition(isScalarBoundary(range.lowerBound) && isScalarBoundary(range.upperBound),
                     "range \(range) splits a Unicode scalar")
    }

    // MARK: Reading

    /// Whether a UTF-8 offset falls on a scalar boundary (the ends of the text included).
    public func isScalarBoundary(_ offset: Int) -> Bool {
        offset <= 0 || offset >= utf8Count || !isContinuationByte(byte(at: offset))
    }

    /// The byte at a UTF-8 offset. O(log n).
    public func byte(at offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < utf8Count, "offset \(offset) out of bounds")
        let (leaf, start) = leaf(containing: offset)
        return leaf.bytes[offset - start]
    }

    /// The leaf holding byte `offset` (the last leaf for the end offset), and its start.
    func leaf(containing offset: Int) -> (Node, start: Int) {
        var node = Unmanaged.passUnretained(root) // the tree holds every node: no retain per level
        var start = 0
        while node._withUnsafeGuaranteedRef({ $0.height > 0 }) {
            node = node._withUnsafeGuaranteedRef { node in
                let (index, childStart) = node.childIndex(forUTF8: offset - start, leftBias: false)
                start += childStart
                return Unmanaged.passUnretained(node.children[index])
            }
        }
        return (node.takeUnretainedValue(), start)
    }

    /// The text of a byte range, as a string. Meant for small ranges.
    public subscript(range: Range<Int>) -> String {
        checkEditRange(range)
        return String(unsafeUninitializedCapacity: range.count) { buffer in
            var written = 0
            for chunk in chunks(in: range) {
                withExtendedLifetime(chunk) {
                    (buffer.baseAddress! + written).initialize(from: chunk.unsafeBytes.baseAddress!, count: chunk.count)
                }
                written += chunk.count
            }
            return written
        }
    }
}

extension Rope: Equatable {
    /// Ropes are equal when their texts are byte-for-byte equal, however they are chunked.
    public static func == (lhs: Rope, rhs: Rope) -> Bool {
        if lhs.root === rhs.root { return true }
        guard lhs.summary == rhs.summary else { return false }
        var leftChunks = lhs.chunks().makeIterator(), rightChunks = rhs.chunks().makeIterator()
        var left = leftChunks.next(), right = rightChunks.next()
        var leftIndex = 0, rightIndex = 0
        while let a = left, let b = right {
            let n = min(a.count - leftIndex, b.count - rightIndex)
            let equal = withExtendedLifetime((a, b)) {
                UnsafeBufferPointer(rebasing: a.unsafeBytes[leftIndex..<(leftIndex + n)])
                    .elementsEqual(UnsafeBufferPointer(rebasing: b.unsafeBytes[rightIndex..<(rightIndex + n)]))
            }
            if !equal { return false }
            leftIndex += n
            rightIndex += n
            if leftIndex == a.count { left = leftChunks.next(); leftIndex = 0 }
            if rightIndex == b.count { right = rightChunks.next(); rightIndex = 0 }
        }
        return left == nil && right == nil
    }
}

extension Rope: CustomStringConvertible, CustomDebugStringConvertible, ExpressibleByStringLiteral {
    /// A rope of the literal's text.
    public init(stringLiteral value: String) { self.init(value) }

    /// The whole text.
    public var description: String { self[0..<utf8Count] }

    /// The text, quoted, in `Rope(...)`.
    public var debugDescription: String { "Rope(\(description.debugDescription))" }
}

extension String {
    /// Creates a string holding a rope's text.
    public init(_ rope: Rope) { self = rope.description }
}
