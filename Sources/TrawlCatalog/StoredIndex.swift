import Synchronization
import TrawlStorage

/// The word index of a stored catalog (``CatalogFormat`` versions 5 and 6), read where it lies in the
/// file: opening a catalog reads the small sections (the vocabulary, the retired numbers, the
/// insertion orders that are not their numbers) and leaves the forward index, the postings, the
/// facet columns and the prefix lists in the file, mapped, shared with the page cache.
///
/// Each of those is checked when first read: its sections' checksums, then their sizes against
/// the catalog's counts; a part that fails reads as empty (no postings, items with no words) and
/// the search goes on around it. Each list or record is checked again when decoded, since a file
/// may come from anywhere and a checksum proves nothing against one made to match.
final class StoredIndex: @unchecked Sendable { // reads memory the file keeps immutable; the rest is behind a mutex
    /// The sections after the items, in order (see ``CatalogFormat``).
    enum Section {
        static let forwardStarts = 0, forward = 1, lengths = 2, orders = 3, retired = 4
        static let postingStarts = 5, postings = 6, postingTags = 7
        static let columns = 8, itemValues = 9, valueBounds = 10, valueStarts = 11, valuePostings = 12
        static let vocabulary = 13
        static let prefixKeys = vocabulary + Vocabulary.sectionCount
        static let prefixStarts = prefixKeys + 1, prefixLists = prefixKeys + 2, prefixTags = prefixKeys + 3, prefixWordLists = prefixKeys + 4
        static let count = prefixWordLists + 1
    }

    let counts: Catalog.IndexCounts
    let fieldCount: Int
    let valueCount: Int
    /// By attribute, its value numbers (the stored columns hold places among them).
    let attributeValues: [[UInt32]]
    /// How the lists and the record starts are stored (version 5 or 6).
    private let layout: Layout

    /// What changed between the versions read in place.
    struct Layout {
        /// Version 5: varints, flat starts; version 6: packed gaps, grouped starts.
        var lists: InPlaceLists.Encoding
        var starts: RecordStarts.Layout

        init(version: UInt32) {
            lists = version == 5 ? .varints : .packedGaps
            starts = version == 5 ? .flat : .grouped
        }
    }
    private let file: FileBytes
    /// The file's bytes when it is read rather than mapped, copied where they stay.
    private let copy: UnsafeMutableRawBufferPointer?
    /// The index sections, each where it lies, with its checksum.
    private let sections: [UnsafeRawBufferPointer]
    private let checksums: [UInt64]
    private let state = Mutex(State())
    private let damageFound = StoredDamage()
    /// Lists decoded while searching, kept for the next searches (``decodedLists``).
    private let decodedLists = Mutex(DecodedLists())

    /// Decoded lists of a few hundred values or more (a keystroke reads the same lists as the
    /// one before), up to a budget of values; forgotten all at once when it is spent.
    private struct DecodedLists {
        /// By key (a word's postings: its number; prefix list `l`: `-l - 1`): the items and tags.
        var lists: [Int: (items: [UInt32], tags: [UInt8])] = [:]
        var values = 0
    }

    /// Lists shorter than this are decoded each time (that costs about what looking one up does).
    private static let smallestKept = 256

    /// The items and tags of the list keyed `key` in `lists`, decoded or kept from before.
    private func itemsAndTags(_ list: Int, key: Int, of lists: (lists: InPlaceLists, tags: PackedTags?)) -> (items: [UInt32], tags: [UInt8]) {
        guard lists.lists.valueCount(of: list) >= Self.smallestKept else { return decode(list, of: lists) }
        if let kept = decodedLists.withLock({ $0.lists[key] }) { return kept }
        let decoded = decode(list, of: lists)
        let budget = max(1 << 20, 4 * counts.slots)
        decodedLists.withLock { kept in
            if kept.values + decoded.items.count > budget { kept = DecodedLists() }
            kept.lists[key] = decoded
            kept.values += decoded.items.count
        }
        return decoded
    }

    /// List `list` of `lists` with its tags; none (the damage noted) when it does not decode.
    private func decode(_ list: Int, of lists: (lists: InPlaceLists, tags: PackedTags?)) -> (items: [UInt32], tags: [UInt8]) {
        guard let items = lists.lists.values(of: list), let tags = lists.tags?.tags(from: lists.lists.firstValue(of: list), count: items.count) else {
            damageFound.note(.corrupt("a posting list"))
            return ([], [])
        }
        return (items, tags)
    }

    /// The items with attribute value `value`, ascending; none (the damage noted) when the list
    /// does not decode.
    func valueItems(of value: Int) -> [UInt32] {
        guard let items = valuePostings.values(of: value) else {
            damageFound.note(.corrupt("a value's item list"))
            return []
        }
        return items
    }

    /// The items holding word `word`, ascending, with their tags.
    func postingsAndTags(of word: Int) -> (items: [UInt32], tags: [UInt8]) { itemsAndTags(word, key: word, of: postings) }

    /// The items of prefix list `list` (of `count`), ascending, with their tags.
    func prefixItemsAndTags(of list: Int, count: Int) -> (items: [UInt32], tags: [UInt8]) {
        itemsAndTags(list, key: -list - 1, of: prefixLists(count: count))
    }

    private struct State {
        /// By section: whether its checksum was checked and held.
        var checked: [Bool?] = Array(repeating: nil, count: Section.count)
        var forward: StoredForwardIndex?
        var postings: (lists: InPlaceLists, tags: PackedTags?)?
        var valuePostings: InPlaceLists?
        var prefixLists: (lists: InPlaceLists, tags: PackedTags?)?
        var columns: [ValueColumn?]?
        var itemValues: (values: [UInt32], bounds: [UInt32])?
    }

    /// The index whose sections start at `first` in `reader`, whose body begins `bodyOffset`
    /// bytes into `file`; nothing is read yet.
    init(file: FileBytes, reader: StoredSections.Reader, bodyOffset: Int, first: Int, counts: Catalog.IndexCounts,
         fieldCount: Int, valueCount: Int, attributeValues: [[UInt32]], layout: Layout) {
        self.file = file
        self.layout = layout
        self.counts = counts
        self.fieldCount = fieldCount
        self.valueCount = valueCount
        self.attributeValues = attributeValues
        let body: UnsafeRawPointer
        if let mapped = file.mappedBytes, let base = mapped.baseAddress {
            copy = nil
            body = UnsafeRawPointer(base) + bodyOffset
        } else {
            // A small file, read: copied once where it stays, 8-byte aligned as its sections are.
            let length = reader.body.count
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(length, 8), alignment: 8)
            if let source = reader.body.baseAddress { copy.baseAddress!.copyMemory(from: source, byteCount: length) }
            self.copy = copy
            body = UnsafeRawPointer(copy.baseAddress!)
        }
        sections = (0..<Section.count).map { UnsafeRawBufferPointer(start: body + reader.range(first + $0).lowerBound, count: reader.range(first + $0).count) }
        checksums = (0..<Section.count).map { reader.checksum(first + $0) }
    }

    deinit { copy?.deallocate() }

    /// Section `index`, empty when its checksum does not hold (checked once, the first time);
    /// called with the state locked.
    private func section(_ index: Int, in state: inout State) -> UnsafeRawBufferPointer {
        if state.checked[index] == nil { state.checked[index] = StoredFormat.wideChecksum(sections[index]) == checksums[index] }
        guard state.checked[index]! else {
            damageFound.note(.corrupt("word index section \(index) checksum"))
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return sections[index]
    }

    /// The forward index (an empty one when damaged).
    var forward: StoredForwardIndex {
        state.withLock { state in
            if let forward = state.forward { return forward }
            let forward = StoredForwardIndex(starts: section(Section.forwardStarts, in: &state), startsLayout: layout.starts,
                                             records: section(Section.forward, in: &state),
                                             lengths: section(Section.lengths, in: &state), slotCount: counts.slots, fieldCount: fieldCount,
                                             wordCount: counts.words, totalWords: counts.wordOccurrences, damage: damageFound)
                ?? damaged(StoredForwardIndex(fieldCount: fieldCount), in: &state)
            state.forward = forward
            return forward
        }
    }

    /// The postings by word, with their tags (no lists when damaged).
    var postings: (lists: InPlaceLists, tags: PackedTags?) {
        state.withLock { state in
            if let postings = state.postings { return postings }
            let postings = lists(Section.postingStarts, count: counts.words, tags: Section.postingTags, in: &state)
            state.postings = postings
            return postings
        }
    }

    /// The items by attribute value (no lists when damaged).
    var valuePostings: InPlaceLists {
        state.withLock { state in
            if let lists = state.valuePostings { return lists }
            let lists = lists(Section.valueStarts, count: valueCount, tags: nil, in: &state).lists
            state.valuePostings = lists
            return lists
        }
    }

    /// The prefix lists, `count` of them, with their tags (no lists when damaged).
    func prefixLists(count: Int) -> (lists: InPlaceLists, tags: PackedTags?) {
        state.withLock { state in
            if let lists = state.prefixLists { return lists }
            let lists = lists(Section.prefixStarts, count: count, tags: Section.prefixTags, in: &state)
            state.prefixLists = lists
            return lists
        }
    }

    /// The lists whose starts are section `starts` (their values the section after), with the
    /// tags of section `tags` when given; no lists when any of them is damaged.
    private func lists(_ starts: Int, count: Int, tags: Int?, in state: inout State) -> (lists: InPlaceLists, tags: PackedTags?) {
        guard let lists = InPlaceLists(starts: section(starts, in: &state), lists: section(starts + 1, in: &state), count: count,
                                       below: counts.slots, encoding: layout.lists) else {
            return damaged((InPlaceLists(), nil), in: &state)
        }
        guard let tags else { return (lists, nil) }
        guard let packed = PackedTags(section(tags, in: &state), count: lists.totalCount) else { return damaged((InPlaceLists(), nil), in: &state) }
        return (lists, packed)
    }

    /// `empty`, noting that a part was found damaged.
    private func damaged<Part>(_ empty: Part, in state: inout State) -> Part {
        damageFound.note(.corrupt("word index sizes"))
        return empty
    }

    /// What was found damaged first among the parts read so far (a checksum, sizes, a list or a
    /// record that does not hold), if anything.
    var damage: StoredFormatError? { damageFound.value }

    /// By attribute, its column when it has one (``ValueColumn``).
    var columns: [ValueColumn?] {
        state.withLock { state in
            if let columns = state.columns { return columns }
            let columns = Self.columns(section(Section.columns, in: &state), slotCount: counts.slots, values: attributeValues)
            guard let columns, columns.count == attributeValues.count else { return damaged([], in: &state) }
            state.columns = columns
            return columns
        }
    }

    /// The columns section: a `u32` attribute count and 4 zero bytes, then by attribute a `u32`
    /// width (0 for no column), 4 zero bytes and a `u64` offset from the section's start, then the
    /// columns (by item, the place of its value among the attribute's, plus one); nil when they do not fit.
    private static func columns(_ bytes: UnsafeRawBufferPointer, slotCount: Int, values: [[UInt32]]) -> [ValueColumn?]? {
        guard bytes.count >= 8, let base = bytes.baseAddress else { return nil }
        let count = Int(StoredFormat.readUInt(bytes, 0, 4))
        guard count <= (bytes.count - 8) / 16 else { return nil }
        var columns: [ValueColumn?] = []
        for attribute in 0..<count {
            let width = Int(StoredFormat.readUInt(bytes, 8 + 16 * attribute, 4)), offset = StoredFormat.readUInt(bytes, 16 + 16 * attribute, 8)
            guard width != 0 else {
                columns.append(nil)
                continue
            }
            guard attribute < values.count, [1, 2, 4].contains(width), offset % UInt64(width) == 0, offset <= UInt64(bytes.count),
                  UInt64(bytes.count) - offset >= UInt64(slotCount) * UInt64(width) else { return nil }
            columns.append(ValueColumn(stored: base + Int(offset), width: width, count: slotCount, values: values[attribute]))
        }
        return columns
    }

    /// The values of the attributes with no column, by item: the values, and where each item's
    /// begin (`slots + 1` of them). Decoded when first asked for (a filter or a facet of such an
    /// attribute); none for any item when damaged.
    var itemValues: (values: [UInt32], bounds: [UInt32]) {
        state.withLock { state in
            if let values = state.itemValues { return values }
            let values = decodedItemValues(&state) ?? damaged(([], [UInt32](repeating: 0, count: counts.slots + 1)), in: &state)
            state.itemValues = values
            return values
        }
    }

    private func decodedItemValues(_ state: inout State) -> (values: [UInt32], bounds: [UInt32])? {
        guard let values = try? StoredSections.varints(in: section(Section.itemValues, in: &state), below: UInt32(clamping: valueCount),
                                                       what: "item values"),
              let ends = try? StoredSections.varints(in: section(Section.valueBounds, in: &state), ascending: true, what: "item values") else {
            return nil
        }
        // No bounds at all when every attribute has a column.
        guard !ends.isEmpty else { return values.isEmpty ? (values, [UInt32](repeating: 0, count: counts.slots + 1)) : nil }
        guard ends.count == counts.slots + 1, ends.first == 0, ends.last == UInt32(truncatingIfNeeded: values.count) else { return nil }
        return (values, ends)
    }
}
