/// Queries of several words with many matches, ranked best bound first.
///
/// "for l" matches 200k items of a 1M catalog; ranking each from its words costs some 60 ms. The
/// postings and their tags give every criterion of an item's rank but proximity and the exact
/// field: its typos, field weight and exact words are known, its proximity is at least one per
/// pair of words, and a field can hold exactly the query only if every word matched exactly. So
/// the matches come from intersecting the words' keyed postings, each with that bound; grouped by
/// bound, best first, the groups are ranked item by item only until the best results found so far
/// beat the next bound. Within a group, whose items differ only in their order, an item whose
/// order cannot beat the worst kept result is skipped with one comparison.
extension CatalogSearcher {
    /// An item's bound summed over the query words, smaller is better: typos in bits 26–31, the
    /// field weight's shortfall from the heaviest in bits 5–25, words matched inexactly in 0–4.
    typealias BoundSum = UInt32

    /// The per-word postings to rank a query of several words from, rarest word first, or nil to
    /// rank the candidates item by item (few candidates, or a much smaller set to refine or filter).
    func boundedPlan(_ termLists: [[UInt32]], words: [QueryWord], filters: [UInt32], filterSet: Set<CatalogFilter>,
                     in catalog: Catalog) -> [(wordIndex: Int, source: WordPostings)]? {
        guard words.count > 1, catalog.fields.count < 128, Self.weightLevels(catalog.fields) != nil,
              (catalog.fields.map(\.weight).max() ?? 0) < (1 << 21) / words.count else { return nil }
        let plan = words.indices.map { index in
            let (source, total) = Self.wordPostings(of: words[index], terms: termLists[index], in: catalog)
            return (wordIndex: index, source: source, total: total)
        }.sorted { $0.total < $1.total }
        let itemByItem = itemByItemCount(postings: plan[0].total, words: words, filters: filters, filterSet: filterSet, in: catalog)
        guard itemByItem >= postingsRankingMinimum else { return nil }
        // Ranking a candidate from its words costs some twenty times a posting here.
        let postings = plan.reduce(0) { $0 + $1.total }
        if postingsRankingMinimum > 0, itemByItem * 20 <= postings { return nil }
        return plan.map { ($0.wordIndex, $0.source) }
    }

    /// Ranks the items holding every query word, from the postings of `plan`.
    mutating func rankByBounds(_ plan: [(wordIndex: Int, source: WordPostings)], words: [QueryWord], filters: [UInt32],
                               facets: Set<Int>, in catalog: Catalog, into ranking: inout Ranking) {
        guard let (fieldLevels, levelWeights) = Self.weightLevels(catalog.fields) else { return }
        let heaviest = levelWeights.last ?? 0
        // What one word's key adds to the bound sum.
        var parts = [BoundSum](repeating: 0, count: 256)
        for key in 1..<256 where key & 0xC0 != 0 && key >> 2 & 15 < levelWeights.count {
            let typos = 3 - key >> 6, shortfall = heaviest - levelWeights[key >> 2 & 15], inexact = 1 - key & 1
            parts[key] = BoundSum(typos << 26 | shortfall << 5 | inexact)
        }
        // The rarest word's items, then each other word's keys, keeping the items that have them.
        let (first, firstKeys) = keyed(plan[0].source, wordIndex: plan[0].wordIndex, fieldLevels: fieldLevels, in: catalog)
        var items = first
        var sums = firstKeys.map { parts[Int($0)] }
        var count = items.count
        for (wordIndex, source) in plan.dropFirst() {
            fillKeys(source, wordIndex: wordIndex, fieldLevels: fieldLevels, marking: false, in: catalog)
            count = Self.keep(&items, &sums, count: count, parts: parts) { [itemKeys] item in itemKeys[Int(item)] }
            clearKeys(source, in: catalog)
        }
        let isLive = catalog.isLive
        count = Self.keep(&items, &sums, count: count, parts: nil) { item in
            isLive[Int(item)] && (filters.isEmpty || Self.has(filters, item: Int(item), in: catalog)) ? 1 : 0
        }
        items.removeLast(items.count - count)
        sums.removeLast(sums.count - count)
        let groups = ranking.best.limit > 0 ? BoundGroups(items: items, sums: sums) : nil
        if ranking.best.limit > 0, groups == nil {
            // Too many distinct bounds to group cheaply (many field weights): item by item.
            rank(items, words: words, filters: [], facets: facets, in: catalog, into: &ranking)
            return
        }
        if !facets.isEmpty { ranking.countValues(of: items, attributes: facets, in: catalog) }
        ranking.matches = items
        guard let groups else { return }
        var scorer = ItemScorer(words: words, catalog: catalog, matchedWords: matchedWords, wordMasks: wordMasks,
                                exactMasks: exactMasks, wordTypos: wordTypos)
        let orders = catalog.orders
        func bound(_ sum: BoundSum, order: Int) -> CatalogResults.Rank {
            let inexact = Int(sum & 31)
            return CatalogResults.Rank(typos: Int(sum >> 26), proximity: words.count - 1, fieldWeight: heaviest * words.count - Int(sum >> 5 & 0x1F_FFFF),
                                       exactField: inexact == 0, exactWords: words.count - inexact, order: order)
        }
        var scored = 0
        for group in groups.sums.indices {
            let sum = groups.sums[group]
            if let worst = ranking.best.admissionLimit, worst < bound(sum, order: Int.min) { break }
            if group > 0, ranking.isOutOfTime() { break }
            let isDone = groups.items.withUnsafeBufferPointer { items in
                let group = UnsafeBufferPointer(rebasing: items[groups.starts[group]..<groups.starts[group + 1]])
                for (index, item) in group.enumerated() {
                    scorer.prefetch(group, at: index)
                    if let worst = ranking.best.admissionLimit, worst < bound(sum, order: Int(orders[Int(item)])) { continue }
                    guard let rank = scorer.rank(item: Int(item)) else { continue }
                    ranking.best.insert(rank, item)
                    scored += 1
                    if scored & 1023 == 0, ranking.isOutOfTime() { return true }
                }
                return false
            }
            if isDone { return }
        }
    }

    /// Keeps the first `count` items whose `key` is not zero (adding its part to their sums when
    /// `parts` is given), packed to the front; returns how many.
    private static func keep(_ items: inout [UInt32], _ sums: inout [BoundSum], count: Int, parts: [BoundSum]?,
                             key: (UInt32) -> UInt8) -> Int {
        var kept = 0
        items.withUnsafeMutableBufferPointer { items in
            sums.withUnsafeMutableBufferPointer { sums in
                for index in 0..<count {
                    let item = items[index], itemKey = key(item)
                    guard itemKey != 0 else { continue }
                    items[kept] = item
                    sums[kept] = sums[index] + (parts?[Int(itemKey)] ?? 0)
                    kept += 1
                }
            }
        }
        return kept
    }
}

/// Items grouped by their bound sum, the best (smallest) sum first; within a group, in the order
/// they came. Nil when there are more distinct sums than a small table holds.
struct BoundGroups {
    private(set) var sums: [UInt32] = []
    /// The items of group `g` are `items[starts[g]..<starts[g + 1]]`.
    private(set) var starts: [Int] = []
    private(set) var items: [UInt32] = []

    /// The most distinct sums grouped; a query's sums are a handful (typos × weights × exactness).
    static let capacity = 512

    init?(items: [UInt32], sums itemSums: [UInt32]) {
        // An open-addressing table from sum to slot (a dictionary costs several times more per item).
        let tableSize = Self.capacity * 2
        var table = [UInt32](repeating: 0, count: tableSize) // sum + 1; 0 is empty
        var slotOfEntry = [UInt16](repeating: 0, count: tableSize)
        var slotSums: [UInt32] = [], slotCounts: [Int] = []
        var slots = [UInt16](repeating: 0, count: items.count)
        for index in itemSums.indices {
            let stored = itemSums[index] &+ 1
            var entry = Int((stored &* 0x9E37_79B1) >> 22) & (tableSize - 1)
            while table[entry] != 0, table[entry] != stored { entry = (entry + 1) & (tableSize - 1) }
            if table[entry] == 0 {
                guard slotSums.count < Self.capacity else { return nil }
                table[entry] = stored
                slotOfEntry[entry] = UInt16(slotSums.count)
                slotSums.append(itemSums[index])
                slotCounts.append(0)
            }
            let slot = slotOfEntry[entry]
            slots[index] = slot
            slotCounts[Int(slot)] += 1
        }
        // Counting sort of the items by their slot's place among the sorted sums.
        let sortedSlots = slotSums.indices.sorted { slotSums[$0] < slotSums[$1] }
        var placeOfSlot = [Int](repeating: 0, count: slotSums.count)
        starts = [0]
        for (place, slot) in sortedSlots.enumerated() {
            placeOfSlot[slot] = place
            sums.append(slotSums[slot])
            starts.append(starts[place] + slotCounts[slot])
        }
        var next = Array(starts.dropLast())
        self.items = [UInt32](repeating: 0, count: items.count)
        for index in items.indices {
            let place = placeOfSlot[Int(slots[index])]
            self.items[next[place]] = items[index]
            next[place] += 1
        }
    }
}
