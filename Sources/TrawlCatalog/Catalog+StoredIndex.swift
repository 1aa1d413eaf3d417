import Dispatch
import TrawlConcurrency
import TrawlStorage

/// The word index as ``CatalogFormat`` version 6 stores it, laid out to be read where it lies
/// (``StoredIndex``): the forward index as one record per item found through a table of starts,
/// each list of postings found through a table of starts, facet columns at fixed width. Opening
/// reads the small sections; the rest is decoded a record or a list at a time while searching,
/// and whole only when the catalog is updated (``materializeIndex()``).
extension Catalog {
    /// How many sections ``appendIndexSections(to:)`` writes.
    static let indexSectionCount = StoredIndex.Section.count

    /// The counts a stored index is read with (kept with the catalog's tables).
    struct IndexCounts: Sendable {
        var slots: Int
        var live: Int
        var nextOrder: Int
        var prefixChosenAt: Int
        var words: Int
        /// How many words the forward index holds (all items' fields together).
        var wordOccurrences: Int
    }

    var indexCounts: IndexCounts {
        IndexCounts(slots: slotCount, live: count, nextOrder: Int(nextOrder), prefixChosenAt: prefixPostings.chosenAt, words: vocabulary.count,
                    wordOccurrences: wordOccurrenceCount)
    }

    /// Writes the forward index (starts, records, lengths), the insertion orders that are not
    /// their numbers, the retired numbers, the postings with their tags, the facet columns, the
    /// values of attributes with no column, the items by value, the vocabulary and the prefix
    /// lists (every item posted: a finished update). What follows from these (the attributes'
    /// values and posting counts) is made again when read.
    func appendIndexSections(to writer: inout StoredSections.Writer) {
        precondition(postedSlotCount == slotCount, "a catalog is stored with every item posted")
        precondition(storedIndex == nil, "a stored index is materialized before it is stored again")
        let stride = fields.count + 1
        var starts = [UInt32](), records = [UInt8](), itemLengths = [UInt8]()
        starts.reserveCapacity(slotCount + 1)
        records.reserveCapacity(words.count * 2 + slotCount * stride)
        itemLengths.reserveCapacity(slotCount)
        for slot in 0..<slotCount {
            starts.append(UInt32(records.count))
            let base = slot * stride
            for field in 0..<fields.count { StoredFormat.appendVarint(UInt64(bounds[base + field + 1] - bounds[base + field]), to: &records) }
            for word in words[Int(bounds[base])..<Int(bounds[base + fields.count])] { StoredFormat.appendVarint(UInt64(word), to: &records) }
            itemLengths.append(UInt8(min(255, lengths[slot])))
            precondition(records.count <= Int(UInt32.max), "a forward index of fewer than 4 GiB")
        }
        writer.append(RecordStarts.grouped(starts, end: UInt32(records.count)))
        writer.append(records)
        writer.append(itemLengths)
        // Insertion orders that are not their number (none in a catalog built at once), as
        // (number, order) pairs.
        writer.append(varints: orders.indices.filter { orders[$0] != UInt32($0) }.flatMap { [UInt32($0), orders[$0]] })
        // The retired numbers, ascending (few: a catalog is compacted once they are many).
        writer.append(varints: isLive.indices.filter { !isLive[$0] }.map(UInt32.init), ascending: true)
        writer.append(inPlaceLists: postings)
        writer.append(PackedTags.encoded(postingTags.flatMap { $0 }))
        writer.append(columnsSection)
        // The values of the attributes with no column, by item.
        let columned = valueAttribute.map { attributeColumns.indices.contains($0) && attributeColumns[$0] != nil }
        var otherValues = [UInt32](), otherBounds = [UInt32](repeating: 0, count: 1)
        if columned.contains(false) {
            for slot in 0..<slotCount {
                otherValues += itemValues[Int(valueBounds[slot])..<Int(valueBounds[slot + 1])].filter { !columned[Int($0)] }
                otherBounds.append(UInt32(otherValues.count))
            }
        } else {
            otherBounds = []
        }
        writer.append(varints: otherValues)
        writer.append(varints: otherBounds, ascending: true)
        writer.append(inPlaceLists: valuePostings)
        vocabulary.appendSections(to: &writer)
        prefixPostings.appendSections(to: &writer)
    }

    /// The facet columns (see ``StoredIndex``): each the places of the items' values among the
    /// attribute's, as narrow as the attribute's value count allows.
    private var columnsSection: [UInt8] {
        var header: [UInt8] = [], body: [UInt8] = []
        var places = [UInt32](repeating: 0, count: valueStrings.count)
        for values in attributeValues { for (place, value) in values.enumerated() { places[Int(value)] = UInt32(place) + 1 } }
        StoredFormat.appendUInt(UInt64(attributeNames.count), 4, to: &header)
        StoredFormat.appendUInt(0, 4, to: &header)
        let bodyStart = 8 + 16 * attributeNames.count
        for attribute in attributeNames.indices {
            guard attributeColumns.indices.contains(attribute), let column = attributeColumns[attribute] else {
                StoredFormat.appendUInt(0, 8, to: &header)
                StoredFormat.appendUInt(0, 8, to: &header)
                continue
            }
            let width = ValueColumn.storedWidth(valueCount: attributeValues[attribute].count)
            while body.count % 8 != 0 { body.append(0) }
            StoredFormat.appendUInt(UInt64(width), 4, to: &header)
            StoredFormat.appendUInt(0, 4, to: &header)
            StoredFormat.appendUInt(UInt64(bodyStart + body.count), 8, to: &header)
            for value in column { StoredFormat.appendUInt(UInt64(value == 0 ? 0 : places[Int(value) - 1]), width, to: &body) }
        }
        return header + body
    }

    /// Opens the index sections from `first` on, leaving the large ones where they lie
    /// (``StoredIndex``): reads the retired numbers and the insertion orders, which are checked
    /// (each live item's order distinct and below the next), the attributes' postings counts,
    /// the vocabulary and the prefix keys. This catalog's fields and attribute values are set.
    mutating func openIndexSections(_ reader: StoredSections.Reader, file: FileBytes, bodyOffset: Int, first: Int,
                                    counts: IndexCounts, layout: StoredIndex.Layout) throws(StoredFormatError) {
        let stride = fields.count + 1
        typealias Section = StoredIndex.Section
        // Every new insertion order makes a new number, so there are no more orders than numbers;
        // and the forward index's starts and lengths give each number bytes of the file: nothing
        // is made room for by a count the file does not back.
        guard counts.live <= counts.slots, counts.nextOrder <= counts.slots, counts.slots < Int(UInt32.max) / stride,
              counts.words < Int(UInt32.max),
              layout.starts == .flat ? reader.range(first + Section.forwardStarts).count == 4 * (counts.slots + 1)
                                     : reader.range(first + Section.forwardStarts).count >= 16 + counts.slots,
              reader.range(first + Section.lengths).count == counts.slots else { throw .corrupt("item counts") }
        var attributeValues = [[UInt32]](repeating: [], count: attributeNames.count)
        for (value, attribute) in valueAttribute.enumerated() { attributeValues[attribute].append(UInt32(value)) }
        let index = StoredIndex(file: file, reader: reader, bodyOffset: bodyOffset, first: first, counts: counts,
                                fieldCount: fields.count, valueCount: valueStrings.count, attributeValues: attributeValues,
                                layout: layout)
        var live = [Bool]()
        live.reserveCapacity(counts.slots + counts.slots / 8)
        live.append(contentsOf: repeatElement(true, count: counts.slots))
        for retired in try reader.varints(first + Section.retired, ascending: true, below: UInt32(clamping: counts.slots)) {
            guard live[Int(retired)] else { throw .corrupt("retired numbers") }
            live[Int(retired)] = false
        }
        var orders = [UInt32]()
        orders.reserveCapacity(counts.slots + counts.slots / 8)
        orders.append(contentsOf: 0..<UInt32(counts.slots))
        let moved = try reader.varints(first + Section.orders)
        guard moved.count % 2 == 0 else { throw .corrupt("item orders") }
        for pair in Swift.stride(from: 0, to: moved.count, by: 2) {
            guard moved[pair] < UInt32(counts.slots) else { throw .corrupt("item orders") }
            orders[Int(moved[pair])] = moved[pair + 1]
        }
        // Live numbers have distinct orders below `nextOrder` (``liveNumbersInOrder`` places
        // each at its order).
        var ordered = [Bool](repeating: false, count: counts.nextOrder)
        var liveCount = 0
        for slot in 0..<counts.slots where live[slot] {
            let order = Int(orders[slot])
            guard order < counts.nextOrder, !ordered[order] else { throw .corrupt("item orders") }
            ordered[order] = true
            liveCount += 1
        }
        guard liveCount == counts.live else { throw .corrupt("item orders") }
        // The items by value: their counts (their starts, checked), the lists left unread.
        guard let valueLists = InPlaceLists(starts: try reader.bytes(first + Section.valueStarts),
                                            lists: UnsafeRawBufferPointer(rebasing: reader.body[reader.range(first + Section.valuePostings)]),
                                            count: valueStrings.count, below: counts.slots, encoding: layout.lists) else {
            throw .corrupt("value lists")
        }
        vocabulary = try Vocabulary(sections: reader, first: first + Section.vocabulary)
        guard vocabulary.count == counts.words else { throw .corrupt("vocabulary") }
        // Most first queries end in a prefix, which walks the trie.
        vocabulary.buildTrie()
        prefixPostings = try PrefixPostings(sections: reader, first: first + Section.prefixKeys, chosenAt: counts.prefixChosenAt,
                                            slotCount: counts.slots, wordCount: counts.words, stored: index)
        self.attributeValues = attributeValues
        attributePostingCounts = [Int](repeating: 0, count: attributeNames.count)
        for (value, attribute) in valueAttribute.enumerated() { attributePostingCounts[attribute] += valueLists.valueCount(of: value) }
        isLive = live
        self.orders = orders
        storedIndex = index
        // What is added since goes in memory, after the stored part (``materializeIndex()``).
        postings = Array(repeating: [], count: counts.words)
        postingTags = Array(repeating: [], count: counts.words)
        valuePostings = Array(repeating: [], count: valueStrings.count)
        attributeColumns = Array(repeating: [], count: attributeNames.count)
        (words, bounds, lengths, itemValues, valueBounds) = ([], [], [], [], [0])
        count = counts.live
        nextOrder = UInt32(counts.nextOrder)
        postedSlotCount = counts.slots
    }

    /// Reads a stored index whole into the arrays an update extends, before what was added since:
    /// the forward index, the postings, the items by value, the columns, the prefix lists, each
    /// section in one pass (the forward index and the postings on threads of their own). Nothing
    /// when the index is already in memory. A part found damaged on the way reads as empty, and
    /// the update under way ends by indexing the items again (``indexNeedsRebuild``), so that
    /// what is stored again has every item's words.
    mutating func materializeIndex() {
        guard let stored = storedIndex else { return }
        let slots = stored.counts.slots, stride = fields.count + 1
        let wordCount = stored.counts.words, valueCount = stored.valueCount
        let forwardLane = SlotArray<(words: [UInt32], bounds: [UInt32], lengths: [UInt32])>(count: 1)
        let postingsLane = SlotArray<(postings: [[UInt32]], tags: [[UInt8]])>(count: 1)
        let isRead = DispatchGroup()
        DispatchQueue.global().async(group: isRead) {
            if let records = stored.forward.allRecords() { forwardLane.set(0, records) }
        }
        DispatchQueue.global().async(group: isRead) {
            let (lists, tags) = stored.postings
            guard let postings = lists.allValues(), postings.count == wordCount, let tags else { return }
            var allTags: [[UInt8]] = []
            allTags.reserveCapacity(postings.count)
            for word in postings.indices {
                guard let wordTags = tags.tags(from: lists.firstValue(of: word), count: postings[word].count) else { return }
                allTags.append(wordTags)
            }
            postingsLane.set(0, (postings, allTags))
        }
        let storedValuePostings = stored.valuePostings.allValues()
        let columns = stored.columns, others = stored.itemValues
        var prefixes = prefixPostings
        let prefixesAreComplete = prefixes.materialize()
        isRead.wait()
        let forward = forwardLane.take(0), lists = postingsLane.take(0)
        if forward == nil || lists == nil || storedValuePostings?.count != valueCount || !prefixesAreComplete || stored.damage != nil {
            indexNeedsRebuild = true
        }
        storedIndex = nil
        // The stored part first (empty where damaged), then what was added since.
        var (allWords, allBounds, allLengths) = forward ?? ([], [UInt32](repeating: 0, count: slots * stride), [UInt32](repeating: 0, count: slots))
        let shift = UInt32(allWords.count)
        allWords += words
        allBounds += bounds.map { $0 + shift }
        allLengths += lengths
        (words, bounds, lengths) = (allWords, allBounds, allLengths)
        let (storedPostings, storedTags) = lists ?? (Array(repeating: [], count: wordCount), Array(repeating: [], count: wordCount))
        for word in 0..<min(wordCount, postings.count) {
            postings[word] = storedPostings[word] + postings[word]
            postingTags[word] = storedTags[word] + postingTags[word]
        }
        let storedValues = storedValuePostings ?? Array(repeating: [], count: valueCount)
        for value in 0..<min(valueCount, valuePostings.count) where value < storedValues.count {
            valuePostings[value] = storedValues[value] + valuePostings[value]
        }
        // Each stored item's values: those of its columns (every stored one, even where what was
        // added since has two values), then the others.
        let storedColumns = columns.compactMap { $0 }
        var allValues = [UInt32](), allValueBounds: [UInt32] = [0]
        allValues.reserveCapacity(slots * storedColumns.count + others.values.count + itemValues.count)
        allValueBounds.reserveCapacity(slots + valueBounds.count + slots / 8)
        for slot in 0..<slots {
            for column in storedColumns where column[slot] != 0 { allValues.append(column[slot] - 1) }
            allValues += others.values[Int(others.bounds[slot])..<Int(max(others.bounds[slot], others.bounds[slot + 1]))]
            allValueBounds.append(UInt32(allValues.count))
        }
        let valueShift = UInt32(allValues.count)
        allValues += itemValues
        allValueBounds += valueBounds.dropFirst().map { $0 + valueShift }
        (itemValues, valueBounds) = (allValues, allValueBounds)
        attributeColumns = attributeColumns.indices.map { attribute in
            guard let added = attributeColumns[attribute] else { return nil }
            guard attribute < stored.attributeValues.count else { return [UInt32](repeating: 0, count: slots) + added }
            guard columns.indices.contains(attribute), let column = columns[attribute] else { return nil }
            return column.values(count: slots) + added
        }
        prefixPostings = prefixes
    }
}
