extension Rope {
    /// Checks the tree's structural invariants and returns a description of the first violation,
    /// or `nil` when the tree is sound. O(n); meant for tests and debugging.
    ///
    /// The invariants: every leaf is at the same depth; every stored summary equals the measures of
    /// the text below it; leaves hold at most `maxLeafBytes` and, unless the leaf is the root, are
    /// well filled; inner nodes hold 2...maxChildren children (the root) or are well filled; every
    /// chunk is valid UTF-8 on its own (no chunk boundary splits a scalar); no chunk ends with CR
    /// while the next starts with LF.
    public func invariantViolation() -> String? {
        var previousLastByte: UInt8?
        var offset = 0
        func visit(_ node: Node, isRoot: Bool, depth: Int) -> String? {
            if node.height != root.height - depth { return "node at depth \(depth) has height \(node.height)" }
            if node.isLeaf {
                let bytes = node.leafBytes
                if node.count > NodeLimits.maxLeafBytes { return "leaf at \(offset) holds \(node.count) bytes" }
                if !isRoot && !node.isWellFilled { return "leaf at \(offset) underfilled: \(node.count) bytes" }
                if let bad = InvalidUTF8Error.firstInvalidOffset(in: bytes) {
                    return "leaf at \(offset) is not valid UTF-8 on its own (at \(offset + bad)): a chunk splits a scalar"
                }
                if TextSummary(validUTF8: bytes) != node.summary {
                    return "leaf at \(offset) has summary \(node.summary), measured \(TextSummary(validUTF8: bytes))"
                }
                if previousLastByte == asciiCR && bytes.first == asciiLF { return "CRLF split at chunk boundary \(offset)" }
                if let last = bytes.last { previousLastByte = last }
                offset += node.count
                return nil
            }
            if node.count > NodeLimits.maxChildren { return "node with \(node.count) children" }
            if isRoot ? node.count < 2 : !node.isWellFilled { return "node at \(offset) has \(node.count) children" }
            var total = TextSummary.zero
            for index in 0..<node.count {
                let child = node.children[index]
                if node.childSummaries[index] != child.summary {
                    return "stored summary of child \(index) at \(offset) is stale"
                }
                total += child.summary
                if let violation = visit(child, isRoot: false, depth: depth + 1) { return violation }
            }
            return total == node.summary ? nil : "inner node summary \(node.summary) != sum of children \(total)"
        }
        return visit(root, isRoot: true, depth: 0)
    }

    /// The tree's height (0 when the whole text is one chunk). For tests and diagnostics.
    public var treeHeight: Int { root.height }

    /// The number of chunks. O(n / chunk size).
    public var chunkCount: Int { chunks().reduce(0) { count, _ in count + 1 } }
}
