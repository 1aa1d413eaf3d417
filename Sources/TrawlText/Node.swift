import TrawlKernels

/// Size limits of rope nodes.
///
/// Debug builds use tiny limits so that tests with modest texts exercise deep trees, splits and
/// merges (ropey does the same); release builds use limits tuned for scanning and editing speed.
@usableFromInline
enum NodeLimits {
    #if DEBUG
    static let maxLeafBytes = 64
    static let minLeafBytes = 16
    static let maxChildren = 4
    static let minChildren = 2
    #else
    static let maxLeafBytes = 2048
    static let minLeafBytes = 512
    static let maxChildren = 16
    static let minChildren = 4
    #endif
    /// The size leaves are filled to when a rope is built in bulk: room for a few edits before a split.
    static var buildLeafBytes: Int { maxLeafBytes - maxLeafBytes / 8 }
    /// The largest insertion handled by editing one leaf in place; larger ones are spliced in.
    static var maxInPlaceInsert: Int { maxLeafBytes / 2 }
}

let asciiLF: UInt8 = 0x0A
let asciiCR: UInt8 = 0x0D

@inline(__always)
func isContinuationByte(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

/// A node of the rope's B-tree: a leaf holding up to `maxLeafBytes` of UTF-8, or an inner node
/// holding up to `maxChildren` children and a copy of each child's summary (so that seeking reads
/// one contiguous array per level instead of touching every child).
///
/// Storage is one raw allocation addressed through pointers, which keeps hot paths free of array
/// bounds and exclusivity checks. Nodes are shared between ropes and mutated only when uniquely
/// referenced (copy on write), which is what makes the unchecked `Sendable` conformance sound.
@usableFromInline
final class Node: @unchecked Sendable {
    /// 0 for a leaf; every child of a node of height `h` has height `h - 1`.
    let height: Int
    /// Bytes in a leaf, or children in an inner node.
    @exclusivity(unchecked) var count: Int
    /// The measures of everything below this node.
    @exclusivity(unchecked) var summary: TextSummary
    private let storage: UnsafeMutableRawPointer

    private static let childrenOffset = NodeLimits.maxChildren * MemoryLayout<TextSummary>.stride

    /// Creates an empty leaf.
    init() {
        height = 0
        count = 0
        summary = .zero
        storage = .allocate(byteCount: NodeLimits.maxLeafBytes, alignment: 16)
        storage.bindMemory(to: UInt8.self, capacity: NodeLimits.maxLeafBytes)
    }

    /// Creates a leaf holding a copy of valid UTF-8 bytes.
    convenience init(leaf bytes: UnsafeBufferPointer<UInt8>, summary: TextSummary) {
        self.init()
        precondition(bytes.count <= NodeLimits.maxLeafBytes)
        if let base = bytes.baseAddress { self.bytes.update(from: base, count: bytes.count) }
        count = bytes.count
        self.summary = summary
    }

    /// Creates a leaf holding a copy of valid UTF-8 bytes, measuring them.
    convenience init(leaf bytes: UnsafeBufferPointer<UInt8>) {
        self.init(leaf: bytes, summary: TextSummary(validUTF8: bytes))
    }

    /// Creates an inner node over children of equal height.
    init(height: Int) {
        precondition(height > 0)
        self.height = height
        count = 0
        summary = .zero
        storage = .allocate(byteCount: Node.childrenOffset + NodeLimits.maxChildren * MemoryLayout<Node>.stride,
                            alignment: 16)
        storage.bindMemory(to: TextSummary.self, capacity: NodeLimits.maxChildren)
        (storage + Node.childrenOffset).bindMemory(to: Node.self, capacity: NodeLimits.maxChildren)
    }

    /// Creates an inner node over 1...maxChildren children of equal height.
    convenience init<C: Collection<Node>>(children: C) {
        let first = children.first!
        self.init(height: first.height + 1)
        for child in children { appendChild(child) }
    }

    deinit {
        if height > 0 { children.deinitialize(count: count) }
        storage.deallocate()
    }

    var isLeaf: Bool { height == 0 }

    /// The leaf's bytes (valid only for leaves).
    var bytes: UnsafeMutablePointer<UInt8> { storage.assumingMemoryBound(to: UInt8.self) }
    var leafBytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: count) }
    /// Each child's summary (valid only for inner nodes).
    var childSummaries: UnsafeMutablePointer<TextSummary> { storage.assumingMemoryBound(to: TextSummary.self) }
    /// The children (valid only for inner nodes).
    var children: UnsafeMutablePointer<Node> {
        (storage + Node.childrenOffset).assumingMemoryBound(to: Node.self)
    }
    var childBuffer: UnsafeMutableBufferPointer<Node> { UnsafeMutableBufferPointer(start: children, count: count) }

    /// Whether this node meets the fill bounds required of a non-root node.
    var isWellFilled: Bool {
        height == 0 ? count >= NodeLimits.minLeafBytes : count >= NodeLimits.minChildren
    }

    /// A shallow copy: a new node sharing this one's children (leaves copy their bytes).
    func copy() -> Node {
        if height == 0 {
            return Node(leaf: leafBytes, summary: summary)
        }
        let node = Node(height: height)
        node.childSummaries.update(from: childSummaries, count: count)
        node.children.initialize(from: children, count: count)
        node.count = count
        node.summary = summary
        return node
    }

    // MARK: Inner-node child management

    func appendChild(_ child: Node) {
        precondition(count < NodeLimits.maxChildren && child.height == height - 1)
        (children + count).initialize(to: child)
        childSummaries[count] = child.summary
        count += 1
        summary += child.summary
    }

    func insertChild(_ child: Node, at index: Int) {
        precondition(count < NodeLimits.maxChildren && child.height == height - 1)
        (children + index + 1).moveInitialize(from: children + index, count: count - index)
        (childSummaries + index + 1).update(from: childSummaries + index, count: count - index)
        (children + index).initialize(to: child)
        childSummaries[index] = child.summary
        count += 1
        summary += child.summary
    }

    @discardableResult
    func removeChild(at index: Int) -> Node {
        let child = (children + index).move()
        (children + index).moveInitialize(from: children + index + 1, count: count - index - 1)
        (childSummaries + index).update(from: childSummaries + index + 1, count: count - index - 1)
        count -= 1
        summary -= child.summary
        return child
    }

    /// Moves `n` children from the front of `other` to the end of `self`.
    func takeFront(_ n: Int, of other: Node) {
        (children + count).moveInitialize(from: other.children, count: n)
        (childSummaries + count).update(from: other.childSummaries, count: n)
        count += n
        other.children.moveInitialize(from: other.children + n, count: other.count - n)
        other.childSummaries.update(from: other.childSummaries + n, count: other.count - n)
        other.count -= n
        recomputeSummary()
        other.recomputeSummary()
    }

    /// Moves `n` children from the end of `self` to the front of `other`.
    func giveBack(_ n: Int, to other: Node) {
        (other.children + n).moveInitialize(from: other.children, count: other.count)
        (other.childSummaries + n).update(from: other.childSummaries, count: other.count)
        other.children.moveInitialize(from: children + count - n, count: n)
        other.childSummaries.update(from: childSummaries + count - n, count: n)
        other.count += n
        count -= n
        recomputeSummary()
        other.recomputeSummary()
    }

    func recomputeSummary() {
        var total = TextSummary.zero
        for i in 0..<count { total += childSummaries[i] }
        summary = total
    }

    /// Makes child `index` uniquely referenced, copying it if it is shared.
    @inline(__always)
    func makeChildUnique(_ index: Int) {
        if !isKnownUniquelyReferenced(&children[index]) {
            children[index] = children[index].copy()
        }
    }

    /// Finds the child holding `offset` (a UTF-8 offset into this node). With `leftBias`, an
    /// offset on a boundary between two children belongs to the left one.
    @inline(__always)
    func childIndex(forUTF8 offset: Int, leftBias: Bool) -> (index: Int, start: Int) {
        var index = 0
        var start = 0
        let last = count - 1
        if leftBias {
            while index < last {
                let end = start + childSummaries[index].utf8
                if offset <= end { break }
                start = end
                index += 1
            }
        } else {
            while index < last {
                let end = start + childSummaries[index].utf8
                if offset < end { break }
                start = end
                index += 1
            }
        }
        return (index, start)
    }
}

// MARK: - Leaf boundaries

/// Whether a chunk may end at `index` of `bytes`: not inside a scalar and not between CR and LF.
@inline(__always)
func isChunkBoundary(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
    if index <= 0 || index >= bytes.count { return true }
    let byte = bytes[index]
    return !isContinuationByte(byte) && !(byte == asciiLF && bytes[index - 1] == asciiCR)
}

/// The chunk boundary nearest after (or else before) `target`, strictly inside `bytes` when one exists.
func chunkBoundary(in bytes: UnsafeBufferPointer<UInt8>, near target: Int) -> Int {
    var forward = target
    while forward < bytes.count && !isChunkBoundary(bytes, forward) { forward += 1 }
    if forward < bytes.count { return forward }
    var backward = target
    while backward > 0 && !isChunkBoundary(bytes, backward) { backward -= 1 }
    return backward
}
