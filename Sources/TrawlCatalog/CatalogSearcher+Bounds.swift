/// Queries of several words with many matches, ranked best bound first.
///
/// "for l" matches 200k items of a 1M catalog; ranking each from its words is too slow for a keystroke. The
/// postings and their tags give every criterion of an item's rank but proximity and the exact
/// field: its typos, field weight and exact words are known, its proximity is at least one per
/// pair of words that share a field and the most for a pair that does not (the tags tell which
/// fields hold each word), and a field can hold exactly the query only if every word matched
/// exactly and the field has as many words as the query. Without the fields, "org in" ranked all 40k items with "org" in the title and "in" in
/// the body before the few whose "org" is also in the body, next to "in". So
/// the matches come from intersecting the words' keyed postings, each with that bound; grouped by
/// bound, best first, the groups are ranked item by item only until the best results found so far
/// beat the next bound. Within a group, an item whose bound (with its length and order, and whether
/// it has a field of the query's length) cannot beat the worst kept result is skipped without its
/// words.
extension CatalogSearcher {
    /// An item's bound summed over the query words, smaller is better: typos in bits 56–63, the
    /// least proximity in 48–55, the field weight's shortfall from the heaviest in bits 5–47, words
    /// matched inexactly in 0–4.
    typealias BoundSum = UInt64

    /// The most query words whose fields are kept for the proximity bound (7 bits each); past
    /// that, the bound is one per pair.
    static let fieldBoundWords = 9

    /// The per-word postings to rank a query of several words from, rarest word first, or nil to
    /// rank the candidates item by item (few candidates, or a much smaller set to refine or filter).
    func boundedPlan(_ termLists: [[UInt32]], words: [QueryWord], filters: [UInt32], filterSet: Set<CatalogFilter>,
                     in catalog: Catalog) -> [(wordIndex: Int, source: WordPostings)]? {
        guard words.count > 1, Self.weightLevels(catalog.fields) != nil,
              (catalog.fields.map(\.weight).max() ?? 0) < (1 << 21) / words.count else { return nil }
        let plan = words.indices.map { index in
            let (source, total) = Self.wordPostings(of: words[index], terms: termLists[index], in: catalog)
            return (wordIndex: index, source: source, total: total)
        }.sorted { $0.total < $1.total }
        let itemByItem = itemByItemCount(postings: plan[0].total, words: words, filters: filters, filterSet: filterSet, in: catalog)
        guard itemByItem >= postingsRankingMinimum else { return nil }
        let postings = plan.reduce(0) { $0 + $1.total }
        // Overflow (counts a crafted file claims) only means item by item costs more.
        let (itemByItemCost, overflows) = itemByItem.multipliedReportingOverflow(by: Self.postingsPerRankedItem(catalog))
        if postingsRankingMinimum > 0, !overflows, itemByItemCost <= postings { return nil }
        return plan.map { ($0.wordIndex, $0.source) }
    }

    /// About how many postings read cost what ranking one item from its words costs: twice its
    /// words in memory (the scan, and the cache misses of reaching scattered items), three times
    /// when they are stored (each record's starts found and its varints decoded: "github p" on a
    /// stored 1M catalog took 15 ms item by item, 3 ms from the postings), at least twenty.
    static func postingsPerRankedItem(_ catalog: Catalog) -> Int {
        max(20, (catalog.storedIndex == nil ? 2 : 3) * catalog.wordOccurrenceCount / max(1, catalog.slotCount))
    }

    /// Ranks the items holding every query word, from the postings of `plan`.
    mutating func rankByBounds(_ plan: [(wordIndex: Int, source: WordPostings)], words: [QueryWord], filters: [UInt32],
                               facets: Set<Int>, in catalog: Catalog, into ranking: inout Ranking) {
        guard let (tagLevels, levelWeights) = Self.weightLevels(catalog.fields) else { return }
        let heaviest = levelWeights.last ?? 0
        // What one word's key adds to the bound sum.
        var parts = [BoundSum](repeating: 0, count: 256)
        for key in 1..<256 where key & 0x3C != 0 && key >> 2 & 15 < levelWeights.count {
            let typos = 3 - key >> 6, shortfall = heaviest - levelWeights[key >> 2 & 15], inexact = 1 - key & 1
            parts[key] = BoundSum(typos) << 56 | BoundSum(shortfall) << 5 | BoundSum(inexact)
        }
        // The rarest word's items, then each other word's keys, keeping the items that have them;
        // beside each item, the fields holding each word.
        let keepsFields = words.count <= Self.fieldBoundWords
        let (first, firstKeys, firstFields) = keyed(plan[0].source, word: words[plan[0].wordIndex], wordIndex: plan[0].wordIndex,
                                                         tagLevels: tagLevels, in: catalog)
        var items = first
        var sums = [BoundSum](unsafeUninitializedCapacity: first.count) { sums, count in
            firstKeys.withUnsafeBufferPointer { keys in
                parts.withUnsafeBufferPointer { parts in
                    for index in keys.indices { sums[index] = parts[Int(keys[index])] }
                }
            }
            count = first.count
        }
        var fields: [UInt64] = []
        if keepsFields {
            let shift = UInt64(7 * plan[0].wordIndex)
            fields = [UInt64](unsafeUninitializedCapacity: first.count) { fields, count in
                firstFields.withUnsafeBufferPointer { tags in
                    for index in tags.indices { fields[index] = UInt64(tags[index] & ~Catalog.soleWordTag) << shift }
                }
                count = first.count
            }
        }
        var count = items.count
        for (wordIndex, source) in plan.dropFirst() {
            if let list = singleList(source, wordIndex: wordIndex, in: catalog) {
                reserveItemKeys(catalog)
                count = Self.keep(&items, &sums, &fields, count: count, parts: parts, fieldShift: 7 * wordIndex, intersecting: list,
                                  tagLevels: tagLevels, scratch: &itemKeys)
                continue
            }
            fillKeys(source, wordIndex: wordIndex, tagLevels: tagLevels, marking: false, in: catalog)
            count = Self.keep(&items, &sums, &fields, count: count, parts: parts, fieldShift: 7 * wordIndex) { [itemKeys, itemFields] item in
                (itemKeys[Int(item)], itemFields[Int(item)])
            }
            clearKeys(source, in: catalog)
        }
        // Every item is live when none is retired (a catalog as loaded or built), and nothing
        // filters: the pass is then skipped.
        if !filters.isEmpty || catalog.count != catalog.slotCount {
            let isLive = catalog.isLive, filter = ItemFilter(filters, in: catalog)
            count = Self.keep(&items, &sums, &fields, count: count, parts: nil, fieldShift: 0) { item in
                (isLive[Int(item)] && (filter.isEmpty || filter.admits(Int(item))) ? 1 : 0, 0)
            }
        }
        items.removeLast(items.count - count)
        sums.removeLast(sums.count - count)
        sums.withUnsafeMutableBufferPointer { sums in
            fields.withUnsafeBufferPointer { fields in
                for index in sums.indices {
                    sums[index] |= BoundSum(keepsFields ? Self.leastProximity(fields: fields[index], words: words.count) : words.count - 1) << 48
                }
            }
        }
        if !facets.isEmpty { ranking.countValues(of: items, attributes: facets, in: catalog) }
        ranking.matches = items
        guard ranking.best.limit > 0 else { return }
        var groups = BestFirstGroups(items: items, sums: sums)
        var scorer = ItemScorer(words: words, catalog: catalog, matchedWords: matchedWords, wordMasks: wordMasks,
                                exactMasks: exactMasks, wordTypos: wordTypos)
        let orders = catalog.orders, forward = catalog.forwardIndex
        func bound(_ sum: BoundSum, length: Int, order: Int, mayHoldExactly: Bool = true) -> CatalogResults.Rank {
            let inexact = Int(sum & 31)
            return CatalogResults.Rank(typos: Int(sum >> 56), proximity: Int(sum >> 48 & 0xFF),
                                       fieldWeight: heaviest * words.count - Int(sum >> 5 & ((1 << 43) - 1)),
                                       exactField: inexact == 0 && mayHoldExactly, exactWords: words.count - inexact,
                                       length: length, order: order)
        }
        // A field holds exactly the query only if it has as many words: few items have such a
        // field, and a bound that assumed one let none of a large group be turned away ("text
        // to" ranked all 59k matches one by one). The item's bounds are already asked for.
        var fieldLengths: [UInt32] = []
        func mayHoldExactly(_ item: Int) -> Bool { forward.hasField(of: item, holding: words.count, scratch: &fieldLengths) }
        var scored = 0
        var isFirst = true
        while let (sum, members) = groups.next() {
            if let worst = ranking.best.admissionLimit, worst < bound(sum, length: Int.min, order: Int.min) { break }
            if !isFirst, ranking.isOutOfTime() { break }
            isFirst = false
            let isDone = members.withUnsafeBufferPointer { group in
                func isAdmitted(_ item: UInt32) -> Bool {
                    guard let worst = ranking.best.admissionLimit else { return true }
                    return !(worst < bound(sum, length: forward.length(of: Int(item)), order: Int(orders[Int(item)]),
                                           mayHoldExactly: sum & 31 != 0 || mayHoldExactly(Int(item))))
                }
                for (index, item) in group.enumerated() {
                    // The worst kept result only improves: an item turned away now would be later,
                    // so its words are not asked for.
                    if index + ItemScorer.boundsAhead < group.count { scorer.prefetchBounds(of: Int(group[index + ItemScorer.boundsAhead])) }
                    if index + ItemScorer.wordsAhead < group.count, isAdmitted(group[index + ItemScorer.wordsAhead]) {
                        scorer.prefetchWords(of: Int(group[index + ItemScorer.wordsAhead]))
                    }
                    guard isAdmitted(item) else { continue }
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

    /// Keeps the first `count` items whose key is not zero (adding its part to their sums when
    /// `parts` is given, and its fields shifted by `fieldShift` to theirs when `fields` is kept),
    /// packed to the front; returns how many.
    private static func keep(_ items: inout [UInt32], _ sums: inout [BoundSum], _ fields: inout [UInt64], count: Int,
                             parts: [BoundSum]?, fieldShift: Int, key: (UInt32) -> (UInt8, fields: UInt8)) -> Int {
        var kept = 0
        let keepsFields = !fields.isEmpty
        items.withUnsafeMutableBufferPointer { items in
            sums.withUnsafeMutableBufferPointer { sums in
                fields.withUnsafeMutableBufferPointer { fields in
                    for index in 0..<count {
                        let item = items[index], (itemKey, itemFields) = key(item)
                        guard itemKey != 0 else { continue }
                        items[kept] = item
                        sums[kept] = sums[index] + (parts?[Int(itemKey)] ?? 0)
                        if keepsFields { fields[kept] = fields[index] | UInt64(itemFields) << UInt64(fieldShift) }
                        kept += 1
                    }
                }
            }
        }
        return kept
    }

    /// Keeps the first `count` items that `list` holds, adding their keys' parts to their sums and
    /// their fields to theirs. Both ascend: the two are met (``meet(_:_:origins:places:)``), then
    /// only the items kept are keyed, from their places in the list.
    private static func keep(_ items: inout [UInt32], _ sums: inout [BoundSum], _ fields: inout [UInt64], count: Int,
                             parts: [BoundSum], fieldShift: Int, intersecting list: SingleList, tagLevels: [UInt8],
                             scratch: inout [UInt8]) -> Int {
        let keepsFields = !fields.isEmpty
        let capacity = min(count, list.items.count) + 1
        var origins = [UInt32](unsafeUninitializedCapacity: capacity) { _, initialized in initialized = capacity }
        var places = origins
        let kept = items.withUnsafeBufferPointer { items in
            list.items.withUnsafeBufferPointer { listItems in
                origins.withUnsafeMutableBufferPointer { origins in
                    places.withUnsafeMutableBufferPointer { places in
                        Self.meet(UnsafeBufferPointer(rebasing: items[0..<count]), listItems, origins: origins.baseAddress!, places: places.baseAddress!)
                    }
                }
            }
        }
        items.withUnsafeMutableBufferPointer { items in
            sums.withUnsafeMutableBufferPointer { sums in
                fields.withUnsafeMutableBufferPointer { fields in
                    parts.withUnsafeBufferPointer { parts in
                        list.withReader(tagLevels: tagLevels, reads: kept, scratch: &scratch) { reader in
                            // Each item kept moves to the front (its new index is at most its origin).
                            for index in 0..<kept {
                                let origin = Int(origins[index]), place = Int(places[index]), item = items[origin]
                                let key = reader.key(of: item, at: place)
                                items[index] = item
                                sums[index] = sums[origin] + parts[Int(key)]
                                if keepsFields {
                                    fields[index] = fields[origin] | UInt64(reader.tags[place] & ~Catalog.soleWordTag) << UInt64(fieldShift)
                                }
                            }
                        }
                    }
                }
            }
        }
        return kept
    }

    /// Writes where `items` and `list` (both ascending) hold the same item: its index in `items` to
    /// `origins` and in `list` to `places`, in order; returns how many. Both can hold one entry
    /// more than the smaller list. Leaps through a list much longer than `items`; else merges
    /// without branches (the outcome of each comparison is a coin toss when the lists are alike in
    /// density, and a mispredicted branch per item cost more than the rest of the merge).
    static func meet(_ items: UnsafeBufferPointer<UInt32>, _ list: UnsafeBufferPointer<UInt32>,
                     origins: UnsafeMutablePointer<UInt32>, places: UnsafeMutablePointer<UInt32>) -> Int {
        var met = 0
        if leaps(through: list.count, toEachOf: items.count) {
            var place = 0
            for index in items.indices {
                place = leap(list, from: place, to: items[index])
                guard place < list.count else { break }
                guard list[place] == items[index] else { continue }
                origins[met] = UInt32(index)
                places[met] = UInt32(place)
                met += 1
            }
            return met
        }
        var index = 0, place = 0
        while index < items.count, place < list.count {
            let item = Int(items[index]), listed = Int(list[place])
            origins[met] = UInt32(truncatingIfNeeded: index)
            places[met] = UInt32(truncatingIfNeeded: place)
            // Sign bits rather than comparisons, which the compiler turns back into branches.
            let isBefore = Int(bitPattern: UInt(bitPattern: item &- listed) >> 63)
            let isAfter = Int(bitPattern: UInt(bitPattern: listed &- item) >> 63)
            met &+= 1 &- isBefore &- isAfter
            index &+= 1 &- isAfter
            place &+= 1 &- isBefore
        }
        return met
    }

    /// Whether to leap (``leap(_:from:to:)``) through a list of `length` items to each of `targets`
    /// ascending items, rather than step: leaping pays when the targets are sparse in the list.
    static func leaps(through length: Int, toEachOf targets: Int) -> Bool { targets * 16 < length }

    /// The first index from `start` on whose item is at least `target` (`list` ascends), by leaping
    /// or by stepping.
    @inline(__always)
    static func advance(_ list: UnsafeBufferPointer<UInt32>, from start: Int, to target: UInt32, leaping: Bool) -> Int {
        if leaping { return leap(list, from: start, to: target) }
        var place = start
        while place < list.count, list[place] < target { place += 1 }
        return place
    }

    /// The first index from `start` on whose item is at least `target` (`list` ascends).
    @inline(__always)
    static func leap(_ list: UnsafeBufferPointer<UInt32>, from start: Int, to target: UInt32) -> Int {
        guard start < list.count, list[start] < target else { return start }
        // Gallop to a bound, then search between the last two probes.
        var low = start, step = 1
        while low + step < list.count, list[low + step] < target {
            low += step
            step <<= 1
        }
        var high = min(low + step, list.count)
        low += 1
        while low < high {
            let middle = (low + high) / 2
            if list[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The least proximity an item can have whose query words are in the fields `fields` holds (7
    /// bits a word): one for a pair of consecutive words that share a field, the most for a pair
    /// that does not (``ItemScorer`` measures a pair within one field).
    static func leastProximity(fields: UInt64, words: Int) -> Int {
        var proximity = 0
        for pair in 0..<(words - 1) {
            let shared = fields >> UInt64(7 * pair) & fields >> UInt64(7 * pair + 7) & 0x7F
            proximity += shared == 0 ? ItemScorer.farthest : 1
        }
        return proximity
    }
}

/// Items by their bound sum, the best (smallest) sum first, each group in the order its items came,
/// made as a search asks for them: a search usually ranks a group or two and stops, so the first
/// few are found by a pass over the sums each, and only a search that goes on groups the rest
/// at once (``BoundGroups``: a hash per item). When the rest have too many distinct sums to group,
/// they come as one group under the least of them (a bound that holds for each).
struct BestFirstGroups {
    private var items: [UInt32]
    private var sums: [UInt64]
    /// The sum of the last group given.
    private var last: UInt64?
    private var given = 0
    private var rest: (groups: BoundGroups, next: Int)?
    private var isDone = false

    /// How many groups are found by passes before the rest are grouped.
    static let passGroups = 6

    init(items: [UInt32], sums: [UInt64]) {
        self.items = items
        self.sums = sums
    }

    /// The next group: its sum and items.
    mutating func next() -> (sum: UInt64, items: [UInt32])? {
        if let (groups, next) = rest {
            guard next < groups.sums.count else { return nil }
            rest = (groups, next + 1)
            return (groups.sums[next], Array(groups.items[groups.starts[next]..<groups.starts[next + 1]]))
        }
        guard !isDone else { return nil }
        if given == Self.passGroups {
            // Far enough: the rest, grouped at once.
            isDone = true
            let after = last.map { $0 + 1 } ?? 0
            var restItems: [UInt32] = [], restSums: [UInt64] = []
            restItems.reserveCapacity(items.count)
            restSums.reserveCapacity(items.count)
            var least = UInt64.max
            for index in sums.indices where sums[index] >= after {
                restItems.append(items[index])
                restSums.append(sums[index])
                least = min(least, sums[index])
            }
            guard !restItems.isEmpty else { return nil }
            guard let groups = BoundGroups(items: restItems, sums: restSums) else { return (least, restItems) }
            rest = (groups, 0)
            return next()
        }
        // The least sum after the last group's (sums are far below UInt64.max), and its items, in
        // one pass: a smaller sum starts the group again.
        let after = last.map { $0 + 1 } ?? 0
        var least = UInt64.max
        var members: [UInt32] = []
        items.withUnsafeBufferPointer { items in
            sums.withUnsafeBufferPointer { sums in
                for index in sums.indices where sums[index] >= after && sums[index] <= least {
                    if sums[index] < least {
                        least = sums[index]
                        members.removeAll(keepingCapacity: true)
                    }
                    members.append(items[index])
                }
            }
        }
        guard least != .max else {
            isDone = true
            return nil
        }
        last = least
        given += 1
        return (least, members)
    }
}

/// Items grouped by their bound sum, the best (smallest) sum first; within a group, in the order
/// they came. Nil when there are more distinct sums than a small table holds.
struct BoundGroups {
    private(set) var sums: [UInt64] = []
    /// The items of group `g` are `items[starts[g]..<starts[g + 1]]`.
    private(set) var starts: [Int] = []
    private(set) var items: [UInt32] = []

    /// The most distinct sums grouped; a query's sums are a handful (typos × weights × exactness).
    static let capacity = 512

    init?(items: [UInt32], sums itemSums: [UInt64]) {
        // An open-addressing table from sum to slot (a dictionary costs several times more per item).
        let tableSize = Self.capacity * 2
        var table = [UInt64](repeating: 0, count: tableSize) // sum + 1; 0 is empty
        var slotOfEntry = [UInt16](repeating: 0, count: tableSize)
        var slotSums: [UInt64] = [], slotCounts: [Int] = []
        var slots = [UInt16](repeating: 0, count: items.count)
        let isGrouped = table.withUnsafeMutableBufferPointer { table in
            slotOfEntry.withUnsafeMutableBufferPointer { slotOfEntry in
                slots.withUnsafeMutableBufferPointer { slots in
                    itemSums.withUnsafeBufferPointer { itemSums in
                        // Neighbours often share a sum: the last one's slot is tried first.
                        var lastSum = UInt64.max, lastSlot: UInt16 = 0
                        for index in itemSums.indices {
                            let sum = itemSums[index]
                            if sum != lastSum {
                                let stored = sum &+ 1
                                var entry = Int((stored &* 0x9E37_79B9_7F4A_7C15) >> 54) & (tableSize - 1)
                                while table[entry] != 0, table[entry] != stored { entry = (entry + 1) & (tableSize - 1) }
                                if table[entry] == 0 {
                                    guard slotSums.count < Self.capacity else { return false }
                                    table[entry] = stored
                                    slotOfEntry[entry] = UInt16(slotSums.count)
                                    slotSums.append(sum)
                                    slotCounts.append(0)
                                }
                                lastSum = sum
                                lastSlot = slotOfEntry[entry]
                            }
                            slots[index] = lastSlot
                        }
                        return true
                    }
                }
            }
        }
        guard isGrouped else { return nil }
        for slot in slots { slotCounts[Int(slot)] += 1 }
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
        self.items = [UInt32](unsafeUninitializedCapacity: items.count) { grouped, count in
            next.withUnsafeMutableBufferPointer { next in
                placeOfSlot.withUnsafeBufferPointer { placeOfSlot in
                    for (slot, item) in zip(slots, items) {
                        let place = placeOfSlot[Int(slot)]
                        grouped[next[place]] = item
                        next[place] += 1
                    }
                }
            }
            count = items.count
        }
    }
}
