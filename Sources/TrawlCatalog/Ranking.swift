/// What a search gathers while it ranks: every match in ascending order (for the next keystroke to
/// refine), the best ranks, the facet counts, and whether the time budget ran out.
struct Ranking {
    var matches: [UInt32] = []
    var best: BestRanks
    /// By attribute value number, how many matches have it (empty when no facet is counted).
    var valueCounts: [Int]
    private(set) var isPartial = false
    private let deadline: ContinuousClock.Instant?
    private let clock: ContinuousClock

    init(limit: Int, valueCount: Int, deadline: ContinuousClock.Instant?, clock: ContinuousClock) {
        best = BestRanks(limit: limit)
        valueCounts = [Int](repeating: 0, count: valueCount)
        self.deadline = deadline
        self.clock = clock
    }

    /// Whether the search was cancelled or its budget spent; once true, the ranking is partial.
    mutating func isOutOfTime() -> Bool {
        if !isPartial, Task.isCancelled || deadline.map({ clock.now >= $0 }) == true { isPartial = true }
        return isPartial
    }

    /// Counts `item` as a match, and `rank` among the best.
    mutating func add(_ item: UInt32, rank: CatalogResults.Rank) {
        matches.append(item)
        best.insert(rank, item)
    }

    /// Counts the values of `attributes` that `items` (ascending) have: from the attribute's column
    /// when it has one, else item by item or, when the items outnumber those attributes' postings,
    /// by testing each posting against a bitmap of the items.
    mutating func countValues(of items: [UInt32], attributes allAttributes: Set<Int>, in catalog: Catalog) {
        var attributes = Set<Int>()
        for attribute in allAttributes {
            guard let column = catalog.column(of: attribute) else { attributes.insert(attribute); continue }
            valueCounts.withUnsafeMutableBufferPointer { counts in column.count(items, into: counts) }
        }
        guard !attributes.isEmpty else { return }
        let postings = attributes.reduce(0) { $0 + catalog.attributePostingCounts[$1] }
        let itemValues = catalog.valuesByItem
        let valuesPerItem = Double(itemValues.count) / Double(max(1, catalog.slotCount))
        if Double(postings) < Double(items.count) * (1 + valuesPerItem) {
            countValues(ofMany: items, attributes: attributes, in: catalog)
            return
        }
        var counted = [Bool](repeating: false, count: catalog.valueAttribute.count)
        for attribute in attributes { for value in catalog.attributeValues[attribute] { counted[Int(value)] = true } }
        valueCounts.withUnsafeMutableBufferPointer { counts in
            for item in items {
                for value in itemValues.values(of: Int(item)) where counted[Int(value)] { counts[Int(value)] += 1 }
            }
        }
    }

    private mutating func countValues(ofMany items: [UInt32], attributes: Set<Int>, in catalog: Catalog) {
        var bits = [UInt64](repeating: 0, count: (catalog.slotCount + 63) / 64)
        bits.withUnsafeMutableBufferPointer { bits in
            for item in items { bits[Int(item >> 6)] |= 1 << UInt64(item & 63) }
            for attribute in attributes {
                for value in catalog.attributeValues[attribute] {
                    var count = 0
                    catalog.valuePostingItems(of: Int(value)).withUnsafeBufferPointer { postings in
                        for item in postings { count &+= Int(truncatingIfNeeded: bits[Int(item >> 6)] >> UInt64(item & 63) & 1) }
                    }
                    valueCounts[Int(value)] += count
                }
            }
        }
    }
}
