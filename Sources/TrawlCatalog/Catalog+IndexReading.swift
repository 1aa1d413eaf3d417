import TrawlStorage

/// What a search reads of the word index, whether it is in memory (built, or updated) or read
/// where it lies in a stored catalog's file (`StoredIndex`).
extension Catalog {
    /// What was found damaged first among the parts of a stored catalog read so far (a checksum
    /// or sizes that do not hold), if anything: what was read from there read as empty, so a
    /// search that read it may have missed items. Nil for a catalog in memory.
    public var damage: StoredFormatError? { storedIndex?.damage ?? storedItems?.damage }

    /// How many items hold word `word`.
    func postingCount(of word: Int) -> Int {
        guard let storedIndex else { return postings[word].count }
        return storedIndex.postings.lists.valueCount(of: word)
    }

    /// The items holding word `word`, ascending.
    func postingItems(of word: Int) -> [UInt32] {
        guard let storedIndex else { return postings[word] }
        return storedIndex.postingsAndTags(of: word).items
    }

    /// The items holding word `word`, ascending, and beside each its tag (``postingTags``).
    func postingsAndTags(of word: Int) -> (items: [UInt32], tags: [UInt8]) {
        guard let storedIndex else { return (postings[word], postingTags[word]) }
        return storedIndex.postingsAndTags(of: word)
    }

    /// How many items have attribute value `value` (retired numbers included).
    func valuePostingCount(of value: Int) -> Int {
        guard let storedIndex else { return valuePostings[value].count }
        return storedIndex.valuePostings.valueCount(of: value)
    }

    /// The items with attribute value `value`, ascending (retired numbers included).
    func valuePostingItems(of value: Int) -> [UInt32] {
        guard let storedIndex else { return valuePostings[value] }
        return storedIndex.valuePostings.values(of: value)
    }

    /// The column of attribute `attribute`, when no item has two of its values.
    func column(of attribute: Int) -> ValueColumn? {
        guard let storedIndex else {
            guard attributeColumns.indices.contains(attribute), let column = attributeColumns[attribute] else { return nil }
            return ValueColumn(column)
        }
        let columns = storedIndex.columns
        return columns.indices.contains(attribute) ? columns[attribute] : nil
    }

    /// Each item's values of the attributes with no column (in memory, of every attribute): the
    /// values, and where each item's begin.
    var valuesByItem: (values: [UInt32], bounds: [UInt32]) {
        storedIndex?.itemValues ?? (itemValues, valueBounds)
    }

    /// How many words the forward index holds (every item's fields together).
    var wordOccurrenceCount: Int { storedIndex?.forward.totalWords ?? words.count }

    /// The forward index, to read item by item.
    var forwardIndex: ForwardIndexReader {
        guard let storedIndex else { return .memory(words: words, bounds: bounds, lengths: lengths, fieldCount: fields.count) }
        return .stored(storedIndex.forward)
    }
}
