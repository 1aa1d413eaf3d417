/// A value that summarizes a run of items and combines associatively (sums, counts, maxima...).
public protocol SumTreeSummary: Sendable, Equatable {
    /// The summary of no items.
    static var zero: Self { get }
    /// Extends this summary by the one of the items that follow.
    mutating func add(_ other: Self)
}

/// An item of a ``SumTree``.
public protocol SumTreeItem: Sendable {
    associatedtype Summary: SumTreeSummary
    var summary: Summary { get }
}

/// A measure taken from summaries (a byte offset, a line number, a count of matches...), by which
/// a ``SumTree`` can be searched.
public protocol SumTreeDimension<Summary>: Comparable, Sendable {
    associatedtype Summary: SumTreeSummary
    static var zero: Self { get }
    mutating func add(_ summary: Summary)
}

/// A persistent sequence of items in a B-tree whose nodes keep the summary of their subtree, in the
/// manner of Zed's `sum_tree` and xi's tree: index access, edits and seeking by any dimension of
/// the summary take O(log n), and copying a tree is O(1) (an edit copies only the nodes on its
/// path that are shared).
///
/// Items usually hold *relative* measures (a gap and a length rather than absolute offsets), so
/// that an edit of the text changes O(log n) summaries instead of every later item; positions are
/// then found by seeking. Written here because no package at hand has a summarized B-tree; the
/// text ``Rope`` keeps its own specialised tree, whose speed is measured.
public struct SumTree<Item: SumTreeItem>: Sendable {
    @usableFromInline var root: SumTreeNode<Item>

    /// Node capacity; small in debug builds so that tests build deep trees.
    #if DEBUG
    @inlinable static var capacity: Int { 4 }
    #else
    @inlinable static var capacity: Int { 32 }
    #endif
    @inlinable static var minimum: Int { capacity / 2 }

    /// An empty tree.
    @inlinable public init() { root = SumTreeNode(items: []) }

    /// A tree of `items`, built bottom-up in O(n).
    @inlinable public init(_ items: some Sequence<Item>) {
        var level: [SumTreeNode<Item>] = []
        var batch: [Item] = []
        batch.reserveCapacity(Self.capacity)
        for item in items {
            batch.append(item)
            if batch.count == Self.capacity {
                level.append(SumTreeNode(items: batch))
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty || level.isEmpty { level.append(SumTreeNode(items: batch)) }
        Self.rebalanceLast(&level)
        while level.count > 1 {
            var parents: [SumTreeNode<Item>] = []
            var index = 0
            while index < level.count {
                parents.append(SumTreeNode(children: Array(level[index..<min(level.count, index + Self.capacity)])))
                index += Self.capacity
            }
            Self.rebalanceLast(&parents)
            level = parents
        }
        root = level[0]
    }

    /// Evens out the last two nodes of a level so that neither is under the minimum.
    @inlinable static func rebalanceLast(_ level: inout [SumTreeNode<Item>]) {
        guard level.count >= 2, level[level.count - 1].width < minimum else { return }
        let last = level.removeLast(), previous = level.removeLast()
        level += SumTreeNode.redistribute(previous, last)
    }

    /// The number of items.
    @inlinable public var count: Int { root.count }

    /// Whether the tree has no items.
    @inlinable public var isEmpty: Bool { root.count == 0 }

    /// The summary of all items.
    @inlinable public var summary: Item.Summary { root.summary }

    /// The item at `index`.
    @inlinable public subscript(index: Int) -> Item {
        precondition(index >= 0 && index < count, "index out of range")
        var node = root
        var index = index
        while !node.isLeaf {
            let (child, offset) = node.child(containing: index)
            node = node.children[child]
            index = offset
        }
        return node.items[index]
    }

    /// The summary of the items before `index` (0...count).
    @inlinable public func summary(before index: Int) -> Item.Summary {
        precondition(index >= 0 && index <= count, "index out of range")
        var result = Item.Summary.zero
        var node = root
        var index = index
        while !node.isLeaf {
            var child = 0
            while child < node.children.count - 1 && index >= node.children[child].count {
                index -= node.children[child].count
                result.add(node.children[child].summary)
                child += 1
            }
            node = node.children[child]
        }
        for item in node.items[..<index] { result.add(item.summary) }
        return result
    }

    /// The measure `D` of the items before `index`.
    @inlinable public func measure<D: SumTreeDimension>(before index: Int, as dimension: D.Type = D.self) -> D where D.Summary == Item.Summary {
        var result = D.zero
        result.add(summary(before: index))
        return result
    }

    /// The index of the item at `target` in dimension `D`: the first item whose end (the measure
    /// of the items up to and including it) is past `target`, or with `.backward` bias at or past
    /// it; `count` when there is none. O(log n).
    @inlinable public func index<D: SumTreeDimension>(at target: D, bias: Bias = .forward) -> Int where D.Summary == Item.Summary {
        seek(to: target, bias: bias).index
    }

    /// Like ``index(at:bias:)``, in the same single descent also the measure of the items before
    /// that index and the item itself (`nil` past the end). O(log n).
    @inlinable public func seek<D: SumTreeDimension>(to target: D, bias: Bias = .forward) -> (index: Int, before: D, item: Item?)
    where D.Summary == Item.Summary {
        var position = D.zero
        var index = 0
        var node = root
        func passes(_ end: D) -> Bool { bias == .forward ? end > target : end >= target }
        while !node.isLeaf {
            var next: SumTreeNode<Item>?
            for child in node.children {
                var end = position
                end.add(child.summary)
                if passes(end) {
                    next = child
                    break
                }
                position = end
                index += child.count
            }
            guard let next else { return (count, position, nil) } // past the end
            node = next
        }
        for item in node.items {
            var end = position
            end.add(item.summary)
            if passes(end) { return (index, position, item) }
            position = end
            index += 1
        }
        return (count, position, nil)
    }

    /// Inserts `item` at `index` (0...count). O(log n).
    @inlinable public mutating func insert(_ item: Item, at index: Int) {
        precondition(index >= 0 && index <= count, "index out of range")
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        if let split = root.insert(item, at: index) {
            root = SumTreeNode(children: [root, split])
        }
    }

    /// Appends `item`. O(log n).
    @inlinable public mutating func append(_ item: Item) { insert(item, at: count) }

    /// Removes and returns the item at `index`. O(log n).
    @discardableResult
    @inlinable public mutating func remove(at index: Int) -> Item {
        precondition(index >= 0 && index < count, "index out of range")
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        let item = root.remove(at: index)
        if !root.isLeaf && root.children.count == 1 { root = root.children[0] }
        return item
    }

    /// Changes the item at `index` in place. O(log n).
    @inlinable public mutating func update(at index: Int, _ body: (inout Item) -> Void) {
        precondition(index >= 0 && index < count, "index out of range")
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        root.update(at: index, body)
    }

    /// Replaces the items in `indices` with `items`: O((removed + inserted) · log n).
    @inlinable public mutating func replaceSubrange(_ indices: Range<Int>, with items: some Collection<Item>) {
        precondition(indices.lowerBound >= 0 && indices.upperBound <= count, "range out of bounds")
        for _ in indices { remove(at: indices.lowerBound) }
        for (offset, item) in items.enumerated() { insert(item, at: indices.lowerBound + offset) }
    }

    /// Every item, in order.
    @inlinable public var items: [Item] {
        var result: [Item] = []
        result.reserveCapacity(count)
        root.collect(into: &result)
        return result
    }

    /// A description of the first broken invariant, or `nil` (for tests): every leaf at the same
    /// depth, every node but the root at least half full and at most full, counts and summaries
    /// equal to their children's.
    @inlinable public func invariantViolation() -> String? {
        var leafDepth: Int?
        return root.violation(depth: 0, leafDepth: &leafDepth, isRoot: true, capacity: Self.capacity, minimum: Self.minimum)
    }
}

/// A node of a ``SumTree``: a leaf of items or an inner node of children, with the count and the
/// summary of its subtree. Shared between tree copies; mutated only when uniquely referenced.
@usableFromInline final class SumTreeNode<Item: SumTreeItem>: @unchecked Sendable { // mutated only through a uniquely referenced path
    @usableFromInline var items: [Item]
    @usableFromInline var children: [SumTreeNode]
    @usableFromInline var count: Int
    @usableFromInline var summary: Item.Summary
    @usableFromInline let isLeaf: Bool

    @inlinable init(items: [Item]) {
        self.items = items
        children = []
        isLeaf = true
        count = 0
        summary = .zero
        refresh()
    }

    @inlinable init(children: [SumTreeNode]) {
        items = []
        self.children = children
        isLeaf = false
        count = 0
        summary = .zero
        refresh()
    }

    @inlinable func copy() -> SumTreeNode { isLeaf ? SumTreeNode(items: items) : SumTreeNode(children: children) }

    /// The number of entries (items or children).
    @inlinable var width: Int { isLeaf ? items.count : children.count }

    @inlinable func refresh() {
        var total = Item.Summary.zero
        if isLeaf {
            for item in items { total.add(item.summary) }
            count = items.count
        } else {
            var sum = 0
            for child in children {
                total.add(child.summary)
                sum += child.count
            }
            count = sum
        }
        summary = total
    }

    /// The child holding item `index` (an index equal to the count falls in the last child) and
    /// the index within it.
    @inlinable func child(containing index: Int) -> (Int, Int) {
        var index = index
        for position in 0..<(children.count - 1) {
            let size = children[position].count
            if index < size { return (position, index) }
            index -= size
        }
        return (children.count - 1, index)
    }

    @inlinable func uniqueChild(_ position: Int) -> SumTreeNode {
        if !isKnownUniquelyReferenced(&children[position]) { children[position] = children[position].copy() }
        return children[position]
    }

    /// Inserts; returns a new right sibling when the node had to split.
    @inlinable func insert(_ item: Item, at index: Int) -> SumTreeNode? {
        if isLeaf {
            items.insert(item, at: index)
        } else {
            let (position, offset) = child(containing: index)
            if let split = uniqueChild(position).insert(item, at: offset) {
                children.insert(split, at: position + 1)
            }
        }
        let capacity = SumTree<Item>.capacity
        guard width > capacity else {
            refresh()
            return nil
        }
        let half = width / 2
        let right: SumTreeNode
        if isLeaf {
            right = SumTreeNode(items: Array(items[half...]))
            items.removeSubrange(half...)
        } else {
            right = SumTreeNode(children: Array(children[half...]))
            children.removeSubrange(half...)
        }
        refresh()
        return right
    }

    @inlinable func remove(at index: Int) -> Item {
        if isLeaf {
            let item = items.remove(at: index)
            refresh()
            return item
        }
        let (position, offset) = child(containing: index)
        let item = uniqueChild(position).remove(at: offset)
        if children[position].width < SumTree<Item>.minimum && children.count > 1 {
            // Merge with or borrow from a neighbour.
            let left = position > 0 ? position - 1 : position
            let merged = SumTreeNode.redistribute(children[left], children[left + 1])
            children.replaceSubrange(left...(left + 1), with: merged)
        }
        refresh()
        return item
    }

    @inlinable func update(at index: Int, _ body: (inout Item) -> Void) {
        if isLeaf {
            body(&items[index])
        } else {
            let (position, offset) = child(containing: index)
            uniqueChild(position).update(at: offset, body)
        }
        refresh()
    }

    /// Two neighbours as one node when their entries fit in one, otherwise as two nodes with the
    /// entries shared evenly. New nodes: the originals may be shared with other trees.
    @inlinable static func redistribute(_ first: SumTreeNode, _ second: SumTreeNode) -> [SumTreeNode] {
        let capacity = SumTree<Item>.capacity
        if first.isLeaf {
            let all = first.items + second.items
            if all.count <= capacity { return [SumTreeNode(items: all)] }
            return [SumTreeNode(items: Array(all[..<(all.count / 2)])), SumTreeNode(items: Array(all[(all.count / 2)...]))]
        }
        let all = first.children + second.children
        if all.count <= capacity { return [SumTreeNode(children: all)] }
        return [SumTreeNode(children: Array(all[..<(all.count / 2)])), SumTreeNode(children: Array(all[(all.count / 2)...]))]
    }

    @inlinable func collect(into result: inout [Item]) {
        if isLeaf {
            result += items
        } else {
            for child in children { child.collect(into: &result) }
        }
    }

    @inlinable func violation(depth: Int, leafDepth: inout Int?, isRoot: Bool, capacity: Int, minimum: Int) -> String? {
        if width > capacity { return "a node of \(width) entries (capacity \(capacity))" }
        if !isRoot && width < minimum { return "a node of \(width) entries (minimum \(minimum))" }
        if !isLeaf && children.isEmpty { return "an inner node without children" }
        var total = Item.Summary.zero
        if isLeaf {
            if let leafDepth, leafDepth != depth { return "leaves at depths \(leafDepth) and \(depth)" }
            leafDepth = depth
            for item in items { total.add(item.summary) }
            if count != items.count { return "a leaf counts \(count) of \(items.count) items" }
        } else {
            var sum = 0
            for child in children {
                if let problem = child.violation(depth: depth + 1, leafDepth: &leafDepth, isRoot: false, capacity: capacity, minimum: minimum) {
                    return problem
                }
                total.add(child.summary)
                sum += child.count
            }
            if count != sum { return "a node counts \(count) of \(sum) items" }
        }
        return total == summary ? nil : "a stale summary"
    }
}
