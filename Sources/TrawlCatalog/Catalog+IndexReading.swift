import TrawlStorage

/// What a search reads of the word index: for a stored catalog, what lies in its file
/// (`StoredIndex`) for the items and words it was opened with, then what was added in memory
/// since; for a catalog built or read whole, the arrays in memory.
extension Catalog {
    /// What was found damaged first among the parts of a stored catalog read so far (a checksum
    /// or sizes that do not hold), if anything: what was read from there read as empty, so a
    /// search that read it may have missed items. Nil for a catalog in memory.
    public var damage: StoredFormatError? { storedIndex?.damage ?? storedItems?.damage }

    /// The first internal number whose forward index, values and columns are in memory (0 unless
    /// the catalog's stored index is read in place).
    var memoryBase: Int { storedIndex?.counts.slots ?? 0 }

    /// How many items hold word `word`.
    func postingCount(of word: Int) -> Int {
        let added = word < postings.count ? postings[word].count : 0
        guard let storedIndex, word < storedIndex.counts.words else { return added }
        return storedIndex.postings.lists.valueCount(of: word) + added
    }

    /// The items holding word `word`, ascending.
    func postingItems(of word: Int) -> [UInt32] { postingsAndTags(of: word).items }

    /// The items holding word `word`, ascending, and beside each its tag (``postingTags``).
    func postingsAndTags(of word: Int) -> (items: [UInt32], tags: [UInt8]) {
        let added = word < postings.count ? (postings[word], postingTags[word]) : ([], [])
        guard let storedIndex, word < storedIndex.counts.words else { return added }
        let stored = storedIndex.postingsAndTags(of: word)
        return added.0.isEmpty ? stored : (stored.items + added.0, stored.tags + added.1)
    }

    /// How many items have attribute value `value` (retired numbers included).
    func valuePostingCount(of value: Int) -> Int {
        let added = value < valuePostings.count ? valuePostings[value].count : 0
        guard let storedIndex, value < storedIndex.valueCount else { return added }
        return storedIndex.valuePostings.valueCount(of: value) + added
    }

    /// The items with attribute value `value`, ascending (retired numbers included).
    func valuePostingItems(of value: Int) -> [UInt32] {
        let added = value < valuePostings.count ? valuePostings[value] : []
        guard let storedIndex, value < storedIndex.valueCount else { return added }
        return storedIndex.valueItems(of: value) + added
    }

    /// The column of attribute `attribute`, when no item has two of its values.
    func column(of attribute: Int) -> ValueColumn? {
        guard attributeColumns.indices.contains(attribute), let added = attributeColumns[attribute] else { return nil }
        guard let storedIndex else { return ValueColumn(added) }
        let columns = storedIndex.columns
        // An attribute the stored catalog knew has a stored column or is not single-valued; a
        // later one has no stored values.
        if attribute < storedIndex.attributeValues.count {
            guard columns.indices.contains(attribute), let stored = columns[attribute] else { return nil }
            return ValueColumn(stored, count: memoryBase, then: added)
        }
        return ValueColumn(nil, count: memoryBase, then: added)
    }

    /// Each item's values (of the attributes with no column, at least).
    var valuesByItem: ItemValuesReader {
        ItemValuesReader(stored: storedIndex?.itemValues, storedCount: memoryBase, values: itemValues, bounds: valueBounds)
    }

    /// How many words the forward index holds (every item's fields together).
    var wordOccurrenceCount: Int { (storedIndex?.forward.totalWords ?? 0) + words.count }

    /// The forward index, to read item by item.
    var forwardIndex: ForwardIndexReader {
        ForwardIndexReader(stored: storedIndex?.forward, base: memoryBase, words: words, bounds: bounds, lengths: lengths, fieldCount: fields.count)
    }
}
