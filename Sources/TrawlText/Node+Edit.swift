/// The result of trying to apply an edit inside a single leaf.
@usableFromInline
enum LocalEditOutcome {
    /// The replaced range spans more than one leaf; nothing was changed.
    case spansLeaves
    /// The edit was applied. `split` is a new right sibling of the edited node (after an overflow),
    /// `removed` measures the deleted bytes, and `touchedEdge` says the edit reached an edge of its
    /// leaf in a way that may have put a CR at the end of a chunk and an LF at the start of the next.
    case applied(split: Node?, removed: TextSummary, touchedEdge: Bool)
}

extension Node {
    /// Replaces `lower..<upper` (offsets in this node) with `inserted`, provided the range lies in one
    /// leaf. `self` must be uniquely referenced. Runs in O(log n + leaf size) and allocates only when
    /// a node overflows.
    func editInPlace(lower: Int, upper: Int, inserted: UnsafeBufferPointer<UInt8>,
                     insertedSummary: TextSummary) -> LocalEditOutcome {
        if height == 0 {
            return editLeaf(lower: lower, upper: upper, inserted: inserted, insertedSummary: insertedSummary)
        }
        let (index, start) = childIndex(forUTF8: lower, leftBias: lower == upper)
        if upper - start > childUTF8[index] { return .spansLeaves }
        makeChildUnique(index)
        unowned(unsafe) let child = children[index] // held by `children` throughout
        let outcome = child.editInPlace(lower: lower - start, upper: upper - start,
                                        inserted: inserted, insertedSummary: insertedSummary)
        guard case .applied(let split, let removed, let touchedEdge) = outcome else { return outcome }
        childSummaries[index] = child.summary
        summary += insertedSummary
        summary -= removed
        if let split {
            summary -= split.summary // counted in the delta above; inserting the child adds it back
            return .applied(split: insertSplit(split, at: index + 1), removed: removed, touchedEdge: touchedEdge)
        }
        if !child.isWellFilled { repairUnderfilledChild(at: index) }
        return outcome
    }

    /// Inserts a child produced by a split, splitting `self` in turn when it overflows.
    private func insertSplit(_ node: Node, at index: Int) -> Node? {
        if count < NodeLimits.maxChildren {
            insertChild(node, at: index)
            return nil
        }
        // Full: move the upper half to a new sibling, then insert on the proper side.
        let sibling = Node.make(height: height)
        let keep = (count + 1) / 2
        giveBack(count - keep, to: sibling)
        if index <= count {
            insertChild(node, at: index)
        } else {
            sibling.insertChild(node, at: index - count)
        }
        return sibling
    }

    private func editLeaf(lower: Int, upper: Int, inserted: UnsafeBufferPointer<UInt8>,
                          insertedSummary: TextSummary) -> LocalEditOutcome {
        precondition(lower >= 0 && lower <= upper && upper <= count, "edit range out of bounds")
        precondition((lower == count || !isContinuationByte(bytes[lower]))
                     && (upper == count || !isContinuationByte(bytes[upper])),
                     "edit range splits a Unicode scalar")
        let removedCount = upper - lower
        let removed = removedCount == 0
            ? TextSummary.zero
            : TextSummary(validUTF8: UnsafeBufferPointer(start: bytes + lower, count: removedCount))
        let newCount = count - removedCount + inserted.count
        let insertedEnd = lower + inserted.count
        if newCount <= NodeLimits.maxLeafBytes {
            if inserted.count != removedCount {
                (bytes + insertedEnd).update(from: bytes + upper, count: count - upper)
            }
            if let base = inserted.baseAddress { (bytes + lower).update(from: base, count: inserted.count) }
            count = newCount
            summary += insertedSummary
            summary -= removed
            let touchedEdge = (lower == 0 && (newCount == 0 || bytes[0] == asciiLF))
                || (insertedEnd == newCount && (newCount == 0 || bytes[newCount - 1] == asciiCR))
            return .applied(split: nil, removed: removed, touchedEdge: touchedEdge)
        }
        // Overflow: assemble the new content and divide it into two leaves at a chunk boundary.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: newCount) { scratch in
            let base = scratch.baseAddress!
            base.update(from: bytes, count: lower)
            if let source = inserted.baseAddress { (base + lower).update(from: source, count: inserted.count) }
            (base + insertedEnd).update(from: bytes + upper, count: count - upper)
            let all = UnsafeBufferPointer(start: base, count: newCount)
            let cut = chunkBoundary(in: all, near: newCount / 2)
            let right = Node.make(leaf: UnsafeBufferPointer(rebasing: all[cut...]))
            bytes.update(from: base, count: cut)
            count = cut
            summary = summary + insertedSummary - removed - right.summary
            let touchedEdge = (lower == 0 && all[0] == asciiLF) || (insertedEnd == newCount && all[newCount - 1] == asciiCR)
            return .applied(split: right, removed: removed, touchedEdge: touchedEdge)
        }
    }

    /// Restores the fill bound of child `index` by merging it with a neighbour or sharing the
    /// neighbour's content. `self` must be uniquely referenced.
    func repairUnderfilledChild(at index: Int) {
        guard count > 1 else { return }
        let left = index + 1 < count ? index : index - 1
        let right = left + 1
        makeChildUnique(left)
        makeChildUnique(right)
        let a = children[left], b = children[right]
        if a.height == 0 {
            let total = a.count + b.count
            if total <= NodeLimits.maxLeafBytes {
                (a.bytes + a.count).update(from: b.bytes, count: b.count)
                a.count = total
                a.summary += b.summary
                childSummaries[left] = a.summary
                removeChild(at: right)
                summary += b.summary // removeChild subtracted what now lives in `a`
                return
            }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { scratch in
                let base = scratch.baseAddress!
                base.update(from: a.bytes, count: a.count)
                (base + a.count).update(from: b.bytes, count: b.count)
                let all = UnsafeBufferPointer(start: base, count: total)
                let cut = chunkBoundary(in: all, near: total / 2)
                a.bytes.update(from: base, count: cut)
                a.count = cut
                a.summary = TextSummary(validUTF8: UnsafeBufferPointer(rebasing: all[..<cut]))
                b.bytes.update(from: base + cut, count: total - cut)
                b.count = total - cut
                b.summary = TextSummary(validUTF8: UnsafeBufferPointer(rebasing: all[cut...]))
            }
        } else {
            let total = a.count + b.count
            if total <= NodeLimits.maxChildren {
                a.takeFront(b.count, of: b)
                childSummaries[left] = a.summary
                removeChild(at: right) // b is empty now, so this leaves the total unchanged
                return
            }
            let target = total / 2
            if a.count < target {
                a.takeFront(target - a.count, of: b)
            } else {
                a.giveBack(a.count - target, to: b)
            }
        }
        childSummaries[left] = a.summary
        childSummaries[right] = b.summary
    }
}
