import TrawlStorage

/// The word index as ``CatalogFormat`` version 4 stores it: each array as a section of fixed-width
/// integers, each list of lists as where each list ends and the lists back to back. Reading one
/// copies the sections out and checks every number that is used as an index (a stored catalog
/// may come from anywhere): loading is linear in what is stored and nothing is split, folded,
/// posted or sorted again.
extension Catalog {
    /// How many sections ``appendIndexSections(to:)`` writes.
    static let indexSectionCount = 13 + Vocabulary.sectionCount + PrefixPostings.sectionCount

    /// The counts a stored index is read with (kept with the catalog's tables).
    struct IndexCounts: Sendable {
        var slots: Int
        var live: Int
        var nextOrder: Int
        var prefixChosenAt: Int
        /// By attribute number: whether it has a column (``Catalog/attributeColumns``).
        var columns: [Bool]
    }

    var indexCounts: IndexCounts {
        IndexCounts(slots: slotCount, live: count, nextOrder: Int(nextOrder), prefixChosenAt: prefixPostings.chosenAt,
                    columns: attributeColumns.map { $0 != nil })
    }

    /// Writes the forward index, the postings, the attribute values and postings, the vocabulary
    /// and the prefix lists (every item posted: a finished update).
    func appendIndexSections(to writer: inout StoredSections.Writer) {
        precondition(postedSlotCount == slotCount, "a catalog is stored with every item posted")
        writer.append(values: words)
        writer.append(values: bounds)
        writer.append(values: lengths)
        writer.append(values: orders)
        writer.append(values: isLive.map { $0 ? UInt8(1) : 0 })
        writer.append(values: Self.ends(of: postings))
        writer.append(values: postings.flatMap { $0 })
        writer.append(values: postingTags.flatMap { $0 })
        writer.append(values: itemValues)
        writer.append(values: valueBounds)
        writer.append(values: Self.ends(of: valuePostings))
        writer.append(values: valuePostings.flatMap { $0 })
        writer.append(values: attributeColumns.flatMap { $0 ?? [] })
        vocabulary.appendSections(to: &writer)
        prefixPostings.appendSections(to: &writer)
    }

    /// Reads the index sections from `first` on into this catalog, whose fields and attribute
    /// values (`valueAttribute`, `valueStrings`) are set, checking each section against `counts`.
    mutating func readIndexSections(_ reader: StoredSections.Reader, first: Int, counts: IndexCounts) throws(StoredFormatError) {
        let slots = counts.slots, stride = fields.count + 1
        guard counts.live <= slots, counts.nextOrder <= slots, slots < Int(UInt32.max) / stride else { throw .corrupt("item counts") }
        var section = first
        /// The next section as integers of `type`, `count` of them when given.
        func next<Element: FixedWidthInteger>(_ type: Element.Type, count: Int? = nil) throws(StoredFormatError) -> [Element] {
            defer { section += 1 }
            return try reader.values(section, as: type, count: count)
        }
        let words = try next(UInt32.self)
        let bounds = try next(UInt32.self, count: slots * stride)
        let lengths = try next(UInt32.self, count: slots)
        let orders = try next(UInt32.self, count: slots)
        let live = try next(UInt8.self, count: slots)
        let postingEnds = try next(UInt32.self), postingItems = try next(UInt32.self), postingTags = try next(UInt8.self)
        let itemValues = try next(UInt32.self), valueBounds = try next(UInt32.self, count: slots + 1)
        let valueEnds = try next(UInt32.self, count: valueStrings.count), valueItems = try next(UInt32.self)
        let columns = try next(UInt32.self)
        vocabulary = try Vocabulary(sections: reader, first: section)
        section += Vocabulary.sectionCount
        prefixPostings = try PrefixPostings(sections: reader, first: section, chosenAt: counts.prefixChosenAt, slotCount: slots,
                                            wordCount: vocabulary.count)

        // The forward index: each item's fields' bounds ascending within the words, its length
        // theirs, its words in the vocabulary.
        let wordCount = UInt32(vocabulary.count)
        guard bounds.last.map({ Int($0) == words.count }) ?? words.isEmpty, words.allSatisfy({ $0 < wordCount }) else { throw .corrupt("forward index") }
        var previous: UInt32 = 0
        for slot in 0..<slots {
            for field in 0...fields.count {
                let bound = bounds[slot * stride + field]
                guard bound >= previous else { throw .corrupt("forward index") }
                previous = bound
            }
            guard lengths[slot] == bounds[slot * stride + fields.count] - bounds[slot * stride] else { throw .corrupt("forward index") }
        }
        guard bounds.first.map({ $0 == 0 }) ?? true else { throw .corrupt("forward index") }
        // Live numbers have distinct orders below `nextOrder` (``liveNumbersInOrder`` places
        // each at its order).
        var ordered = [Bool](repeating: false, count: counts.nextOrder)
        var liveCount = 0
        for slot in 0..<slots where live[slot] != 0 {
            let order = Int(orders[slot])
            guard live[slot] == 1, order < counts.nextOrder, !ordered[order] else { throw .corrupt("item orders") }
            ordered[order] = true
            liveCount += 1
        }
        guard liveCount == counts.live, orders.allSatisfy({ Int($0) < max(1, counts.nextOrder) }) else { throw .corrupt("item orders") }
        (self.postings, self.postingTags) = try Self.lists(ends: postingEnds, items: postingItems, tags: postingTags, below: slots)
        guard self.postings.count == vocabulary.count else { throw .corrupt("postings") }
        // Attribute values: each item's ascending within `itemValues`, known; their postings.
        let valueCount = UInt32(valueStrings.count)
        guard valueBounds.first == 0, valueBounds.last.map({ Int($0) == itemValues.count }) ?? false,
              itemValues.allSatisfy({ $0 < valueCount }) else { throw .corrupt("attribute values") }
        for slot in 0..<slots where valueBounds[slot + 1] < valueBounds[slot] { throw .corrupt("attribute values") }
        valuePostings = try Self.lists(ends: valueEnds, items: valueItems, tags: nil, below: slots).lists
        guard counts.columns.count == attributeNames.count, columns.count == counts.columns.filter({ $0 }).count * slots,
              columns.allSatisfy({ $0 <= valueCount }) else { throw .corrupt("attribute columns") }
        var column = 0
        attributeColumns = counts.columns.map { present in
            guard present else { return nil }
            defer { column += 1 }
            return Array(columns[(column * slots)..<((column + 1) * slots)])
        }
        attributeValues = [[UInt32]](repeating: [], count: attributeNames.count)
        attributePostingCounts = [Int](repeating: 0, count: attributeNames.count)
        for (value, attribute) in valueAttribute.enumerated() {
            attributeValues[attribute].append(UInt32(value))
            attributePostingCounts[attribute] += valuePostings[value].count
        }
        self.words = words
        self.bounds = bounds
        self.lengths = lengths
        self.orders = orders
        self.isLive = live.map { $0 != 0 }
        self.itemValues = itemValues
        self.valueBounds = valueBounds
        count = counts.live
        nextOrder = UInt32(counts.nextOrder)
        postedSlotCount = slots
    }

    /// Where each of `lists` ends when they are put back to back.
    static func ends<Element>(of lists: [[Element]]) -> [UInt32] {
        var end = 0
        return lists.map { list in
            end += list.count
            return UInt32(end)
        }
    }

    /// The lists that `items` (and `tags` beside them, when given) hold back to back, each ending
    /// where `ends` says; each list's items ascending and below `limit`.
    static func lists(ends: [UInt32], items: [UInt32], tags: [UInt8]?,
                      below limit: Int) throws(StoredFormatError) -> (lists: [[UInt32]], tags: [[UInt8]]) {
        guard ends.last.map({ Int($0) == items.count }) ?? items.isEmpty, tags.map({ $0.count == items.count }) ?? true else { throw .corrupt("posting lists") }
        var lists: [[UInt32]] = [], listTags: [[UInt8]] = []
        lists.reserveCapacity(ends.count)
        if tags != nil { listTags.reserveCapacity(ends.count) }
        var start = 0
        for end in ends {
            let end = Int(end)
            guard end >= start else { throw .corrupt("posting lists") }
            var previous = -1
            for index in start..<end {
                let item = Int(items[index])
                guard item > previous, item < limit else { throw .corrupt("posting lists") }
                previous = item
            }
            lists.append(Array(items[start..<end]))
            if let tags { listTags.append(Array(tags[start..<end])) }
            start = end
        }
        return (lists, listTags)
    }
}
