import Dispatch
import TrawlConcurrency
import TrawlStorage

/// The word index as ``CatalogFormat`` version 4 stores it: each array as a section of varints
/// (ascending ones as their gaps), each list of lists as lengths and gaps, flags and tags as
/// bytes. Reading one decodes the sections and checks every number that is used as an index (a
/// stored catalog may come from anywhere): loading is linear in what is stored and nothing is
/// split, folded, posted or sorted again.
extension Catalog {
    /// How many sections ``appendIndexSections(to:)`` writes.
    static let indexSectionCount = 8 + Vocabulary.sectionCount + PrefixPostings.sectionCount

    /// The counts a stored index is read with (kept with the catalog's tables).
    struct IndexCounts: Sendable {
        var slots: Int
        var live: Int
        var nextOrder: Int
        var prefixChosenAt: Int
        var words: Int
    }

    var indexCounts: IndexCounts {
        IndexCounts(slots: slotCount, live: count, nextOrder: Int(nextOrder), prefixChosenAt: prefixPostings.chosenAt, words: vocabulary.count)
    }

    /// Writes the forward index (words, field bounds, insertion orders, live numbers), the
    /// postings and their tags, each item's attribute values, the vocabulary and the prefix lists
    /// (every item posted: a finished update). What follows from these (lengths, the attribute
    /// values' postings and columns) is made again when read.
    func appendIndexSections(to writer: inout StoredSections.Writer) {
        precondition(postedSlotCount == slotCount, "a catalog is stored with every item posted")
        writer.append(varints: words)
        writer.append(varints: bounds, ascending: true)
        // Insertion orders as their distance from the number (zigzag): 0 for most items.
        writer.append(varints: orders.indices.map { slot in
            let distance = Int64(orders[slot]) - Int64(slot)
            return UInt32(truncatingIfNeeded: distance << 1 ^ distance >> 63)
        })
        // The retired numbers, ascending (few: a catalog is compacted once they are many).
        writer.append(varints: isLive.indices.filter { !isLive[$0] }.map(UInt32.init), ascending: true)
        writer.append(lists: postings)
        writer.append(Self.packed(tags: postingTags.flatMap { $0 }))
        writer.append(varints: itemValues)
        writer.append(varints: valueBounds, ascending: true)
        vocabulary.appendSections(to: &writer)
        prefixPostings.appendSections(to: &writer)
    }

    /// Reads the index sections from `first` on into this catalog, whose fields and attribute
    /// values (`valueAttribute`, `valueStrings`) are set, checking each section against `counts`.
    /// Three threads read them: the postings and prefix lists, the vocabulary, the rest.
    mutating func readIndexSections(_ reader: StoredSections.Reader, first: Int, counts: IndexCounts) throws(StoredFormatError) {
        let stride = fields.count + 1
        guard counts.live <= counts.slots, counts.nextOrder <= counts.slots, counts.slots < Int(UInt32.max) / stride,
              counts.words < Int(UInt32.max) else { throw .corrupt("item counts") }
        let lists = SlotArray<Result<(postings: [[UInt32]], tags: [[UInt8]], prefixes: PrefixPostings), StoredFormatError>>(count: 1)
        let read = SlotArray<Result<Vocabulary, StoredFormatError>>(count: 1)
        let isRead = DispatchGroup()
        DispatchQueue.global().async(group: isRead) {
            lists.set(0, Result { () throws(StoredFormatError) in try Self.readLists(reader, first: first, counts: counts) })
        }
        DispatchQueue.global().async(group: isRead) {
            read.set(0, Result { () throws(StoredFormatError) in
                let vocabulary = try Vocabulary(sections: reader, first: first + 8)
                guard vocabulary.count == counts.words else { throw .corrupt("vocabulary") }
                // Most first queries end in a prefix, which walks the trie: built now, beside the rest.
                vocabulary.buildTrie()
                return vocabulary
            })
        }
        // The forward index's words, the largest section, on a thread of their own.
        let forwardWords = SlotArray<Result<[UInt32], StoredFormatError>>(count: 1)
        DispatchQueue.global().async(group: isRead) {
            forwardWords.set(0, Result { () throws(StoredFormatError) in try reader.varints(first, below: UInt32(counts.words), spare: true) })
        }
        let rest = Result { () throws(StoredFormatError) in
            try Self.readForwardIndex(reader, first: first, counts: counts, stride: stride, valueAttribute: valueAttribute,
                                      attributeCount: attributeNames.count)
        }
        isRead.wait()
        let forward = try rest.get(), (postings, postingTags, prefixes) = try lists.take(0)!.get()
        vocabulary = try read.take(0)!.get()
        words = try forwardWords.take(0)!.get()
        guard forward.wordCount == words.count else { throw .corrupt("forward index") }
        bounds = forward.bounds
        lengths = forward.lengths
        orders = forward.orders
        isLive = forward.isLive
        itemValues = forward.itemValues
        valueBounds = forward.valueBounds
        valuePostings = forward.valuePostings
        attributeColumns = forward.columns
        attributeValues = [[UInt32]](repeating: [], count: attributeNames.count)
        attributePostingCounts = [Int](repeating: 0, count: attributeNames.count)
        for (value, attribute) in valueAttribute.enumerated() {
            attributeValues[attribute].append(UInt32(value))
            attributePostingCounts[attribute] += valuePostings[value].count
        }
        self.postings = postings
        self.postingTags = postingTags
        prefixPostings = prefixes
        count = counts.live
        nextOrder = UInt32(counts.nextOrder)
        postedSlotCount = counts.slots
    }

    /// The postings with their tags, split by word, and the prefix lists.
    private static func readLists(_ reader: StoredSections.Reader, first: Int,
                                  counts: IndexCounts) throws(StoredFormatError) -> ([[UInt32]], [[UInt8]], PrefixPostings) {
        let postings = try reader.lists(first + 4, count: counts.words, below: counts.slots)
        let postingTags = try Self.tags(reader.bytes(first + 5), beside: postings)
        let prefixes = try PrefixPostings(sections: reader, first: first + 8 + Vocabulary.sectionCount, chosenAt: counts.prefixChosenAt,
                                          slotCount: counts.slots, wordCount: counts.words)
        return (postings, postingTags, prefixes)
    }

    /// What ``readForwardIndex(_:first:counts:stride:valueAttribute:attributeCount:)`` reads.
    private struct ForwardIndex {
        /// How many words the bounds say the forward index holds.
        var wordCount: Int
        var bounds: [UInt32]
        var lengths: [UInt32]
        var orders: [UInt32]
        var isLive: [Bool]
        var itemValues: [UInt32]
        var valueBounds: [UInt32]
        var valuePostings: [[UInt32]]
        var columns: [[UInt32]?]
    }

    /// The forward index's bounds, the insertion orders and live numbers, and the items'
    /// attribute values with their postings and columns.
    private static func readForwardIndex(_ reader: StoredSections.Reader, first: Int, counts: IndexCounts, stride: Int,
                                         valueAttribute: [Int], attributeCount: Int) throws(StoredFormatError) -> ForwardIndex {
        let slots = counts.slots
        // Room to grow in the arrays that grow by item (see ``StoredSections/Reader/varints(_:ascending:count:below:spare:)``).
        let bounds = try reader.varints(first + 1, ascending: true, count: slots * stride, spare: true)
        var orders = try reader.varints(first + 2, count: slots, spare: true)
        for slot in 0..<slots {
            let distance = Int64(orders[slot] >> 1) ^ -Int64(orders[slot] & 1)
            guard case let order = Int64(slot) + distance, order >= 0, order < Int64(max(1, counts.nextOrder)) else { throw .corrupt("item orders") }
            orders[slot] = UInt32(order)
        }
        var live = [Bool]()
        live.reserveCapacity(slots + slots / 8)
        live.append(contentsOf: repeatElement(true, count: slots))
        for retired in try reader.varints(first + 3, ascending: true, below: UInt32(clamping: slots)) {
            guard live[Int(retired)] else { throw .corrupt("retired numbers") }
            live[Int(retired)] = false
        }
        let itemValues = try reader.varints(first + 6, below: UInt32(valueAttribute.count), spare: true)
        let valueBounds = try reader.varints(first + 7, ascending: true, count: slots + 1, spare: true)

        // The bounds start at 0 and are ascending (as read); the words section must hold as
        // many words as the last says.
        guard bounds.first.map({ $0 == 0 }) ?? true else { throw .corrupt("forward index") }
        let lengths = [UInt32](unsafeUninitializedCapacity: slots + slots / 8) { lengths, initialized in
            bounds.withUnsafeBufferPointer { bounds in
                for slot in 0..<slots { lengths[slot] = bounds[slot * stride + stride - 1] &- bounds[slot * stride] }
            }
            initialized = slots
        }
        // Live numbers have distinct orders below `nextOrder` (``liveNumbersInOrder`` places
        // each at its order).
        var ordered = [Bool](repeating: false, count: counts.nextOrder)
        var liveCount = 0
        for slot in 0..<slots where live[slot] {
            let order = Int(orders[slot])
            guard order < counts.nextOrder, !ordered[order] else { throw .corrupt("item orders") }
            ordered[order] = true
            liveCount += 1
        }
        guard liveCount == counts.live else { throw .corrupt("item orders") }
        // Attribute values: each item's within `itemValues` (known, as read), distinct (as an
        // update adds them); their postings (counted, then filled) and columns follow.
        guard valueBounds.first == 0, valueBounds.last.map({ Int($0) == itemValues.count }) ?? false else { throw .corrupt("attribute values") }
        var postingCounts = [Int](repeating: 0, count: valueAttribute.count)
        for value in itemValues { postingCounts[Int(value)] += 1 }
        var valuePostings = postingCounts.map { [UInt32](unsafeUninitializedCapacity: $0) { _, initialized in initialized = 0 } }
        // By attribute: the column (value + 1 by number), until an item has two of its values.
        var columns = [[UInt32]](repeating: [], count: attributeCount)
        var hasColumn = [Bool](repeating: true, count: attributeCount)
        for attribute in 0..<attributeCount {
            columns[attribute].reserveCapacity(slots + slots / 8)
            columns[attribute].append(contentsOf: repeatElement(0, count: slots))
        }
        try itemValues.withUnsafeBufferPointer { (itemValues) throws(StoredFormatError) in
            for slot in 0..<slots {
                for index in Int(valueBounds[slot])..<Int(valueBounds[slot + 1]) {
                    let value = Int(itemValues[index])
                    guard valuePostings[value].last != UInt32(slot) else { throw .corrupt("attribute values") }
                    valuePostings[value].append(UInt32(slot))
                    let attribute = valueAttribute[value]
                    guard hasColumn[attribute] else { continue }
                    if columns[attribute][slot] == 0 {
                        columns[attribute][slot] = UInt32(value) + 1
                    } else {
                        hasColumn[attribute] = false
                    }
                }
            }
        }
        return ForwardIndex(wordCount: Int(bounds.last ?? 0), bounds: bounds, lengths: lengths, orders: orders, isLive: live,
                            itemValues: itemValues, valueBounds: valueBounds, valuePostings: valuePostings,
                            columns: (0..<attributeCount).map { hasColumn[$0] ? columns[$0] : nil })
    }

    /// Field tags as stored: when every tag is of the first three fields and the sole-word flag
    /// (most catalogs), a 1 and two tags a byte (a fifth of a large catalog's index was tags);
    /// otherwise a 0 and a byte each.
    static func packed(tags: [UInt8]) -> [UInt8] {
        guard tags.allSatisfy({ $0 & 0x78 == 0 }) else { return [0] + tags }
        var packed = [UInt8](repeating: 0, count: 1 + (tags.count + 1) / 2)
        packed[0] = 1
        for (index, tag) in tags.enumerated() { packed[1 + index / 2] |= (tag & 0x07 | tag >> 4) << (4 * UInt8(index % 2)) }
        return packed
    }

    /// The tags ``packed(tags:)`` stored in `bytes`, one beside each item of `lists`, list by list.
    static func tags(_ bytes: UnsafeRawBufferPointer, beside lists: [[UInt32]]) throws(StoredFormatError) -> [[UInt8]] {
        let tags = try unpacked(tags: bytes, count: lists.reduce(0) { $0 + $1.count })
        var start = 0
        return lists.map { list in
            defer { start += list.count }
            return Array(tags[start..<(start + list.count)])
        }
    }

    /// The `count` tags ``packed(tags:)`` stored in `bytes`.
    private static func unpacked(tags bytes: UnsafeRawBufferPointer, count: Int) throws(StoredFormatError) -> [UInt8] {
        guard let kind = bytes.first else { throw .corrupt("tags") }
        let stored = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        guard kind == 1 else {
            guard kind == 0, stored.count == count else { throw .corrupt("tags") }
            return Array(stored)
        }
        guard stored.count == (count + 1) / 2 else { throw .corrupt("tags") }
        return [UInt8](unsafeUninitializedCapacity: count) { tags, initialized in
            for index in 0..<count {
                let nibble = stored[index / 2] >> (4 * UInt8(index % 2)) & 0x0F
                tags[index] = nibble & 0x07 | (nibble & 0x08) << 4
            }
            initialized = count
        }
    }
}
