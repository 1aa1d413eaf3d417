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
    // Measured with `trawl-bench rope` (2 vCPUs): 64-way nodes keep a 100 MB rope at 3 inner
    // levels, which is what random edits and line lookups pay for in cache misses.
    static let maxLeafBytes = 2048
    static let minLeafBytes = 512
    static let maxChildren = 64
    static let minChildren = 16
    #endif
    /// The size leaves are filled to when a rope is built in bulk: room for a few edits before a split.
    static var buildLeafBytes: Int { maxLeafBytes - maxLeafBytes / 8 }
    /// The largest insertion handled by editing one leaf in place; larger ones are spliced in.
    static var maxInPlaceInsert: Int { maxLeafBytes / 2 }
}

let asciiLF: UInt8 = 0x0A
let asciiCR: UInt8 = 0x0D

@inline(__always)
func isContinuationByte(_ byte: UInt8) -> Bool { UTF8Bytes.isContinuation(byte) }

/// The fixed part of a node: its height, its count, and the summary of its subtree.
@usableFromInline
struct NodeHeader {
    /// 0 for a leaf; every child of a node of height `h` has height `h - 1`.
    var height: Int
    /// Bytes in a leaf, or children in an inner node.
    var count: Int
    /// The measures of everything below this node.
    var summary: TextSummary
}

/// A node of the rope's B-tree: a leaf holding up to `maxLeafBytes` of UTF-8, or an inner node
/// holding up to `maxChildren` children and each child's summary (so that seeking reads small
/// contiguous arrays instead of touching every child).
///
/// Header and payload share one allocation (a `ManagedBuffer`), so visiting a node costs one
/// cache miss rather than two, and hot paths go through pointers, free of bounds and exclusivity
/// checks. Nodes are shared between ropes and mutated only when uniquely referenced (copy on
/// write), which is what makes the unchecked `Sendable` conformances of the types holding nodes
/// (`Rope`, `Rope.Chunk`, ...) sound: no node reachable from two values is ever mutated.
@usableFromInline
final class Node: ManagedBuffer<NodeHeader, UInt8> {
    /// Inner nodes keep their children's summaries as four arrays, one per measure, so that a seek
    /// by one measure reads 2 cache lines per level instead of 8.
    private static let childrenOffset = 4 * NodeLimits.maxChildren * MemoryLayout<Int>.stride
    private static let innerPayloadBytes = childrenOffset + NodeLimits.maxChildren * MemoryLayout<Node>.stride

    private static func allocate(height: Int, payloadBytes: Int) -> Node {
        let buffer = Node.create(minimumCapacity: payloadBytes) { _ in NodeHeader(height: height, count: 0, summary: .zero) }
        let node = unsafeDowncast(buffer, to: Node.self)
        let payload = node.payload
        precondition(Int(bitPattern: payload) % 8 == 0, "node payload must be word aligned")
        if height > 0 {
            payload.bindMemory(to: Int.self, capacity: 4 * NodeLimits.maxChildren)
            (payload + childrenOffset).bindMemory(to: Node.self, capacity: NodeLimits.maxChildren)
        }
        return node
    }

    /// Creates an empty leaf.
    static func make() -> Node { allocate(height: 0, payloadBytes: NodeLimits.maxLeafBytes) }

    /// Creates a leaf holding a copy of valid UTF-8 bytes.
    static func make(leaf bytes: UnsafeBufferPointer<UInt8>, summary: TextSummary) -> Node {
        precondition(bytes.count <= NodeLimits.maxLeafBytes)
        let node = make()
        if let base = bytes.baseAddress { node.bytes.update(from: base, count: bytes.count) }
        node.count = bytes.count
        node.summary = summary
        return node
    }

    /// Creates a leaf holding a copy of valid UTF-8 bytes, measuring them.
    static func make(leaf bytes: UnsafeBufferPointer<UInt8>) -> Node {
        make(leaf: bytes, summary: TextSummary(validUTF8: bytes))
    }

    /// Creates an empty inner node for children of height `height - 1`.
    static func make(height: Int) -> Node {
        precondition(height > 0)
        return allocate(height: height, payloadBytes: innerPayloadBytes)
    }

    /// Creates an inner node over 1...maxChildren children of equal height.
    static func make<C: Collection<Node>>(children: C) -> Node {
        let node = make(height: children.first!.height + 1)
        for child in children { node.appendChild(child) }
        return node
    }

    deinit {
        if height > 0 { children.deinitialize(count: count) }
    }

    @inline(__always) private var headerPointer: UnsafeMutablePointer<NodeHeader> {
        withUnsafeMutablePointerToHeader { $0 }
    }
    @inline(__always) private var payload: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(withUnsafeMutablePointerToElements { $0 })
    }

    var height: Int { @inline(__always) get { headerPointer.pointee.height } }
    var count: Int {
        @inline(__always) get { headerPointer.pointee.count }
        @inline(__always) set { headerPointer.pointee.count = newValue }
    }
    var summary: TextSummary {
        @inline(__always) get { headerPointer.pointee.summary }
        @inline(__always) set { headerPointer.pointee.summary = newValue }
    }

    var isLeaf: Bool { height == 0 }

    /// The leaf's bytes (valid only for leaves).
    var bytes: UnsafeMutablePointer<UInt8> { payload.assumingMemoryBound(to: UInt8.self) }
    var leafBytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: count) }
    /// Each child's summary (valid only for inner nodes).
    var childSummaries: ChildSummaries { ChildSummaries(base: payload.assumingMemoryBound(to: Int.self)) }
    /// Each child's measure in one metric (valid only for inner nodes).
    @inline(__always)
    func childMeasures(_ metric: TextMetric) -> UnsafeMutablePointer<Int> {
        payload.assumingMemoryBound(to: Int.self) + ChildSummaries.index(of: metric) * NodeLimits.maxChildren
    }
    /// Asks for the cache lines a seek by `metric` reads next in this node — its header, then its
    /// children's lengths and measures, or a leaf's bytes — all at once: on a large rope each
    /// would otherwise be a cache miss waited for in turn.
    @inline(__always) func prefetchForSeek(by metric: TextMetric, isLeaf: Bool) {
        let start = UnsafePointer<UInt8>(payload.assumingMemoryBound(to: UInt8.self))
        if isLeaf {
            trawl_prefetch(start - 64, 64 + NodeLimits.maxLeafBytes)
        } else {
            let row = NodeLimits.maxChildren * MemoryLayout<Int>.stride
            trawl_prefetch(start - 64, 64 + row)
            if metric != .utf8 { trawl_prefetch(UnsafePointer(UnsafeRawPointer(childMeasures(metric)).assumingMemoryBound(to: UInt8.self)), row) }
        }
    }

    /// Asks for the part of a leaf a line lookup scans (see `localUTF8Offset(of:in:bias:)`):
    /// from the nearer end to about where line `line` of the leaf's `total` starts, plus a margin.
    /// Asking for all 2 KB would queue some 33 cache lines behind the dozen a core can have in
    /// flight: about three memory round trips where one or two do.
    @inline(__always) func prefetchForLine(_ line: Int, of total: Int, in length: Int) {
        let start = UnsafePointer<UInt8>(payload.assumingMemoryBound(to: UInt8.self))
        trawl_prefetch(start - 64, 64)
        guard total > 0 else { return trawl_prefetch(start, length) }
        let estimate = length * min(line, total) / total, margin = 192
        if Node.scansFromEnd(line: line, of: total) {
            let from = max(estimate - margin, 0)
            trawl_prefetch(start + from, length - from)
        } else {
            trawl_prefetch(start, min(estimate + margin, length))
        }
    }

    /// Whether a leaf's scan for the start of its line `line` of `total` line feeds goes from the
    /// end: on average a quarter of the leaf is read instead of half.
    @inline(__always) static func scansFromEnd(line: Int, of total: Int) -> Bool { line > total / 2 && line <= total }

    /// Each child's UTF-8 length (valid only for inner nodes).
    var childUTF8: UnsafeMutablePointer<Int> { payload.assumingMemoryBound(to: Int.self) }
    /// The children (valid only for inner nodes).
    var children: UnsafeMutablePointer<Node> {
        (payload + Node.childrenOffset).assumingMemoryBound(to: Node.self)
    }
    var childBuffer: UnsafeMutableBufferPointer<Node> { UnsafeMutableBufferPointer(start: children, count: count) }

    /// Whether this node meets the fill bounds required of a non-root node.
    var isWellFilled: Bool {
        height == 0 ? count >= NodeLimits.minLeafBytes : count >= NodeLimits.minChildren
    }

    /// A shallow copy: a new node sharing this one's children (leaves copy their bytes).
    func copy() -> Node {
        if height == 0 {
            return Node.make(leaf: leafBytes, summary: summary)
        }
        let node = Node.make(height: height)
        node.childSummaries.copy(from: childSummaries, at: 0, to: 0, count: count)
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
        childSummaries.copy(from: childSummaries, at: index, to: index + 1, count: count - index)
        (children + index).initialize(to: child)
        childSummaries[index] = child.summary
        count += 1
        summary += child.summary
    }

    @discardableResult
    func removeChild(at index: Int) -> Node {
        let child = (children + index).move()
        (children + index).moveInitialize(from: children + index + 1, count: count - index - 1)
        childSummaries.copy(from: childSummaries, at: index + 1, to: index, count: count - index - 1)
        count -= 1
        summary -= child.summary
        return child
    }

    /// Moves `n` children from the front of `other` to the end of `self`.
    func takeFront(_ n: Int, of other: Node) {
        (children + count).moveInitialize(from: other.children, count: n)
        childSummaries.copy(from: other.childSummaries, at: 0, to: count, count: n)
        count += n
        other.children.moveInitialize(from: other.children + n, count: other.count - n)
        other.childSummaries.copy(from: other.childSummaries, at: n, to: 0, count: other.count - n)
        other.count -= n
        recomputeSummary()
        other.recomputeSummary()
    }

    /// Moves `n` children from the end of `self` to the front of `other`.
    func giveBack(_ n: Int, to other: Node) {
        (other.children + n).moveInitialize(from: other.children, count: other.count)
        other.childSummaries.copy(from: other.childSummaries, at: 0, to: n, count: other.count)
        other.children.moveInitialize(from: children + count - n, count: n)
        other.childSummaries.copy(from: childSummaries, at: count - n, to: 0, count: n)
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
                let end = start + childUTF8[index]
                if offset <= end { break }
                start = end
                index += 1
            }
        } else {
            while index < last {
                let end = start + childUTF8[index]
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

/// The children's summaries of an inner node, stored as one array per measure.
struct ChildSummaries {
    let base: UnsafeMutablePointer<Int>

    @inline(__always)
    static func index(of metric: TextMetric) -> Int {
        switch metric {
        case .utf8: 0
        case .utf16: 1
        case .scalars: 2
        case .newlines: 3
        }
    }

    subscript(index: Int) -> TextSummary {
        @inline(__always) get {
            let stride = NodeLimits.maxChildren
            return TextSummary(utf8: base[index], utf16: base[stride + index],
                               scalars: base[2 * stride + index], newlines: base[3 * stride + index])
        }
        @inline(__always) nonmutating set {
            let stride = NodeLimits.maxChildren
            base[index] = newValue.utf8
            base[stride + index] = newValue.utf16
            base[2 * stride + index] = newValue.scalars
            base[3 * stride + index] = newValue.newlines
        }
    }

    /// Copies `count` entries from `source` (which may be `self`, overlapping) at `from` to `to`.
    func copy(from source: ChildSummaries, at from: Int, to: Int, count: Int) {
        guard count > 0 else { return }
        let stride = NodeLimits.maxChildren
        for measure in 0..<4 {
            (base + measure * stride + to).update(from: source.base + measure * stride + from, count: count)
        }
    }
}
