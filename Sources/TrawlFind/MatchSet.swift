import TrawlText

/// The matches of a search in a document, in order, kept in a `SumTree` of relative positions so
/// that an edit shifts every later match by changing O(log n) summaries, and "match i", "the match
/// at or after offset p" and "i of N" are O(log n).
///
/// Each item stores the gap from the previous match's end (or the text's start) to its start, and
/// its length; the summary counts matches and sums gaps and lengths (the extent).
public struct MatchSet: Sendable {
    private(set) var tree = SumTree<Item>()

    struct Item: SumTreeItem, Equatable {
        var gap: Int
        var length: Int
        var summary: Summary { Summary(count: 1, extent: gap + length) }
    }

    struct Summary: SumTreeSummary {
        var count: Int
        var extent: Int
        static let zero = Summary(count: 0, extent: 0)
        mutating func add(_ other: Summary) {
            count += other.count
            extent += other.extent
        }
    }

    /// The end of the matches so far, in bytes: seeks by text offset.
    struct Extent: SumTreeDimension {
        var value: Int
        static let zero = Extent(value: 0)
        mutating func add(_ summary: Summary) { value += summary.extent }
        static func < (a: Extent, b: Extent) -> Bool { a.value < b.value }
    }

    /// An empty set.
    public init() {}

    /// The set of `ranges`, which must be in order and must not overlap (empty ranges may touch).
    public init(_ ranges: some Sequence<Range<Int>>) {
        var end = 0
        tree = SumTree(ranges.map { range in
            defer { end = range.upperBound }
            return Item(gap: range.lowerBound - end, length: range.count)
        })
    }

    /// The number of matches.
    public var count: Int { tree.count }

    /// Whether there are none.
    public var isEmpty: Bool { tree.isEmpty }

    /// Match `index`'s range. O(log n).
    public subscript(index: Int) -> Range<Int> {
        let end = tree.measure(before: index, as: Extent.self).value
        let item = tree[index]
        return (end + item.gap)..<(end + item.gap + item.length)
    }

    /// Every match, in order (for tests and small sets).
    public var ranges: [Range<Int>] {
        var end = 0
        return tree.items.map { item in
            let start = end + item.gap
            end = start + item.length
            return start..<end
        }
    }

    /// The index of the first match starting at or after `offset` (``count`` when there is none).
    /// O(log n).
    public func firstIndex(startingAtOrAfter offset: Int) -> Int {
        first(startingAtOrAfter: offset).index
    }

    /// The first match starting at or after `offset`: its index (``count`` when there is none)
    /// and range, found in one descent of the tree in the usual case.
    func first(startingAtOrAfter offset: Int) -> (index: Int, range: Range<Int>?) {
        // The first match whose end is at or past the offset; one that starts before the offset
        // (and ends at or after it) is passed over.
        let (index, before, item) = tree.seek(to: Extent(value: offset), bias: .backward)
        guard let item else { return (count, nil) }
        let start = before.value + item.gap
        if start >= offset { return (index, start..<(start + item.length)) }
        var next = index + 1
        while next < count && self[next].lowerBound < offset { next += 1 }
        return (next, next < count ? self[next] : nil)
    }

    /// The index of the first match ending at or after `offset` (``count`` when there is none).
    public func firstIndex(endingAtOrAfter offset: Int) -> Int {
        tree.index(at: Extent(value: offset), bias: .backward)
    }

    /// The index of the first match ending after `offset` (``count`` when there is none).
    public func firstIndex(endingAfter offset: Int) -> Int {
        tree.index(at: Extent(value: offset), bias: .forward)
    }

    /// The index of the match whose range is exactly `range`, if there is one. O(log n).
    public func index(of range: Range<Int>) -> Int? {
        var (index, match) = first(startingAtOrAfter: range.lowerBound)
        while let found = match, found.lowerBound == range.lowerBound {
            if found == range { return index }
            index += 1
            match = index < count ? self[index] : nil
        }
        return nil
    }

    /// Replaces the matches starting in `oldRegion` (offsets before an edit; at the text's end,
    /// `includesEnd` also takes the empty match there) with `newMatches` (offsets after it, all in
    /// the region as the edit moved it), and shifts every later match by `delta`. O((removed +
    /// inserted) · log n).
    mutating func replace(startingIn oldRegion: Range<Int>, includesEnd: Bool, with newMatches: [Range<Int>], delta: Int) {
        // Walk the items from the first ending at or after the region's start, keeping the extent
        // so far (one descent per item, not two per position).
        var (first, before, _) = tree.seek(to: Extent(value: oldRegion.lowerBound), bias: .backward)
        var end = before.value
        while first < count {
            let item = tree[first]
            guard end + item.gap < oldRegion.lowerBound else { break }
            end += item.gap + item.length
            first += 1
        }
        let startExtent = end
        var old: [Range<Int>] = []
        var last = first
        var nextStart: Int?
        while last < count {
            let item = tree[last]
            let start = end + item.gap
            guard start < oldRegion.upperBound || (includesEnd && start == oldRegion.upperBound) else {
                // The next match keeps its absolute start (shifted by delta); its gap changes.
                nextStart = start + delta
                break
            }
            old.append(start..<(start + item.length))
            end = start + item.length
            last += 1
        }
        // Most edits change no match: then the tree is left as it is (unless later ones shift).
        if delta == 0 && old == newMatches { return }
        end = startExtent
        var items: [Item] = []
        items.reserveCapacity(newMatches.count)
        for match in newMatches {
            items.append(Item(gap: match.lowerBound - end, length: match.count))
            end = match.upperBound
        }
        tree.replaceSubrange(first..<last, with: items)
        if let nextStart {
            let next = first + items.count
            tree.update(at: next) { $0.gap = nextStart - end }
        }
    }

    /// Removes the matches that overlap or touch `range` (an edit's replaced range) and shifts the
    /// later ones by `delta` (how much the edit changed the text's length).
    mutating func removeMatches(touching range: Range<Int>, shiftingLaterBy delta: Int) {
        let (first, before, item) = tree.seek(to: Extent(value: range.lowerBound), bias: .backward)
        guard let item else { return }
        if before.value + item.gap > range.upperBound {
            // Nothing touched (the usual keystroke): only the next match's gap changes.
            if delta != 0 { tree.update(at: first) { $0.gap += delta } }
            return
        }
        var last = first
        while last < count && self[last].lowerBound <= range.upperBound { last += 1 }
        let end = before.value
        let nextStart = last < count ? self[last].lowerBound + delta : nil
        tree.replaceSubrange(first..<last, with: [])
        if let nextStart { tree.update(at: first) { $0.gap = nextStart - end } }
    }

    /// Removes every match.
    mutating func removeAll() { tree = SumTree() }

    /// Appends matches after the last one (for results that arrive in order).
    mutating func append(contentsOf matches: some Sequence<Range<Int>>) {
        var end = tree.summary.extent
        for match in matches {
            tree.append(Item(gap: match.lowerBound - end, length: match.count))
            end = match.upperBound
        }
    }
}
