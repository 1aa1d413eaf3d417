/// Bulk construction, concatenation and splitting of rope trees, in O(log n) node allocations.
///
/// Concatenation follows the classic height-aware B-tree join (as in xi-rope): the shorter tree is
/// joined into the matching spine of the taller one, merging or redistributing the nodes at the seam
/// so that every non-root node stays well filled. A CR at the end of the left tree and an LF at the
/// start of the right one are brought into the same chunk.
extension Node {
    /// Builds a balanced tree over valid UTF-8 bytes, filling leaves to `buildLeafBytes`.
    static func build(validUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Node {
        buildTree(from: leaves(validUTF8: bytes))
    }

    /// Cuts valid UTF-8 into leaves of nearly equal size at chunk boundaries.
    static func leaves(validUTF8 bytes: UnsafeBufferPointer<UInt8>) -> [Node] {
        let total = bytes.count
        if total <= NodeLimits.maxLeafBytes { return [Node.make(leaf: bytes)] }
        let pieces = (total + NodeLimits.buildLeafBytes - 1) / NodeLimits.buildLeafBytes
        var result: [Node] = []
        result.reserveCapacity(pieces)
        var start = 0
        for piece in 1...pieces {
            let end = piece == pieces ? total : chunkBoundary(in: bytes, near: piece * total / pieces)
            result.append(Node.make(leaf: UnsafeBufferPointer(rebasing: bytes[start..<end])))
            start = end
        }
        return result
    }

    /// Stacks nodes of equal height into a balanced tree, spreading children evenly per level.
    static func buildTree(from nodes: [Node]) -> Node {
        guard !nodes.isEmpty else { return Node.make() }
        var level = nodes
        while level.count > 1 {
            let groups = (level.count + NodeLimits.maxChildren - 1) / NodeLimits.maxChildren
            var next: [Node] = []
            next.reserveCapacity(groups)
            var start = 0
            for group in 1...groups {
                let end = group * level.count / groups
                next.append(Node.make(children: level[start..<end]))
                start = end
            }
            level = next
        }
        return level[0]
    }

    /// The first byte of the text below this node, if any.
    var firstByte: UInt8? {
        var node = self
        while node.height > 0 {
            guard let index = (0..<node.count).first(where: { node.childUTF8[$0] > 0 }) else { return nil }
            node = node.children[index]
        }
        return node.count > 0 ? node.bytes[0] : nil
    }

    /// The last byte of the text below this node, if any.
    var lastByte: UInt8? {
        var node = self
        while node.height > 0 {
            guard let index = (0..<node.count).last(where: { node.childUTF8[$0] > 0 }) else { return nil }
            node = node.children[index]
        }
        return node.count > 0 ? node.bytes[node.count - 1] : nil
    }

    /// The concatenation of two trees; neither is modified.
    static func concat(_ left: Node, _ right: Node) -> Node {
        if left.summary.utf8 == 0 { return right }
        if right.summary.utf8 == 0 { return left }
        if left.lastByte == asciiCR && right.firstByte == asciiLF {
            // Joining with a one-byte leaf always descends to the leaf holding the CR and merges.
            let lineFeed = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { buffer in
                buffer[0] = asciiLF
                return Node.make(leaf: UnsafeBufferPointer(buffer))
            }
            return join(join(left, lineFeed), right.suffix(from: 1))
        }
        return join(left, right)
    }

    private static func join(_ left: Node, _ right: Node) -> Node {
        if left.summary.utf8 == 0 { return right }
        if right.summary.utf8 == 0 { return left }
        let leftHeight = left.height, rightHeight = right.height
        if leftHeight < rightHeight {
            let rightChildren = Array(right.childBuffer)
            if leftHeight == rightHeight - 1 && left.isWellFilled {
                return mergeNodes([left], rightChildren[...])
            }
            let joined = join(left, rightChildren[0])
            return joined.height == rightHeight - 1
                ? mergeNodes([joined], rightChildren[1...])
                : mergeNodes(Array(joined.childBuffer), rightChildren[1...])
        }
        if leftHeight > rightHeight {
            let leftChildren = Array(left.childBuffer)
            if rightHeight == leftHeight - 1 && right.isWellFilled {
                return mergeNodes(leftChildren, [right][...])
            }
            let joined = join(leftChildren[leftChildren.count - 1], right)
            let head = Array(leftChildren.dropLast())
            return joined.height == leftHeight - 1
                ? mergeNodes(head, [joined][...])
                : mergeNodes(head, joined.childBuffer[...])
        }
        if left.isWellFilled && right.isWellFilled {
            return Node.make(children: [left, right])
        }
        if leftHeight == 0 { return mergeLeaves(left, right) }
        return mergeNodes(Array(left.childBuffer), right.childBuffer[...])
    }

    private static func mergeNodes<S: Collection<Node>>(_ first: [Node], _ second: S) -> Node {
        let all = first + second
        if all.count <= NodeLimits.maxChildren { return Node.make(children: all) }
        let half = all.count / 2
        return Node.make(children: [Node.make(children: all[..<half]), Node.make(children: all[half...])])
    }

    private static func mergeLeaves(_ left: Node, _ right: Node) -> Node {
        let total = left.count + right.count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { scratch in
            let base = scratch.baseAddress!
            base.update(from: left.bytes, count: left.count)
            (base + left.count).update(from: right.bytes, count: right.count)
            let all = UnsafeBufferPointer(start: base, count: total)
            if total <= NodeLimits.maxLeafBytes { return Node.make(leaf: all) }
            let cut = chunkBoundary(in: all, near: total / 2)
            return Node.make(children: [Node.make(leaf: UnsafeBufferPointer(rebasing: all[..<cut])),
                                   Node.make(leaf: UnsafeBufferPointer(rebasing: all[cut...]))])
        }
    }

    /// The text before UTF-8 offset `offset`, as a tree sharing this one's untouched subtrees.
    func prefix(upTo offset: Int) -> Node {
        if offset <= 0 { return Node.make() }
        if offset >= summary.utf8 { return self }
        if height == 0 { return Node.make(leaf: UnsafeBufferPointer(start: bytes, count: offset)) }
        var index = 0, start = 0
        while offset > start + childUTF8[index] {
            start += childUTF8[index]
            index += 1
        }
        let tail = children[index].prefix(upTo: offset - start)
        guard index > 0 else { return tail }
        let head = index == 1 ? children[0] : Node.make(children: childBuffer[..<index])
        return Node.concat(head, tail)
    }

    /// The text from UTF-8 offset `offset` on, as a tree sharing this one's untouched subtrees.
    func suffix(from offset: Int) -> Node {
        if offset <= 0 { return self }
        if offset >= summary.utf8 { return Node.make() }
        if height == 0 { return Node.make(leaf: UnsafeBufferPointer(start: bytes + offset, count: count - offset)) }
        var index = 0, start = 0
        while offset >= start + childUTF8[index] {
            start += childUTF8[index]
            index += 1
        }
        let head = children[index].suffix(from: offset - start)
        let rest = count - index - 1
        guard rest > 0 else { return head }
        let tail = rest == 1 ? children[index + 1] : Node.make(children: childBuffer[(index + 1)...])
        return Node.concat(head, tail)
    }
}
