import Dispatch
import TrawlConcurrency
import TrawlStorage

/// A searchable collection of items: every word must match, the last one as a prefix, with typo
/// tolerance, ranked like Meilisearch (typos, proximity, field weight, exactness), with highlights
/// and facet counts. ``CatalogSearcher/search(_:in:)`` searches it.
///
/// A value: copying is cheap (copy on write) and a copy is a snapshot that a background search can
/// read while the original is updated. Upsert, partial update and delete are incremental: an item's
/// words are appended to the word index under a new internal number and the old number is retired,
/// so nothing is rebuilt; retired numbers are compacted away once they outnumber the live ones.
public struct Catalog: Sendable {
    /// The searched fields, in the order given.
    public private(set) var fields: [CatalogField]
    /// The attribute a search field's scopes filter on (a host's "All / Packages / Docs" bar), if
    /// any; stored with the catalog.
    public var scopeAttribute: String?

    var vocabulary = Vocabulary()
    /// The items of a stored catalog, read when asked for: internal numbers below its count.
    var storedItems: StoredItems?
    /// By internal number from `storedItems`'s count on: the item, or nil once retired.
    var items: [CatalogItem?] = []
    /// By internal number: whether the number is the current one of its item.
    var isLive: [Bool] = []
    /// By internal number: the first-insertion sequence of the item's id (the last tie-break).
    var orders: [UInt32] = []
    /// By internal number: how many words the item's fields hold (the rank's length), beside the
    /// forward index's bounds so that ranking many items reads 4 bytes each, not their bounds.
    var lengths: [UInt32] = []
    /// The internal numbers of the ids inserted since the catalog was read (all of them when it
    /// was built in memory); a stored catalog's ids are found in `storedIDs`.
    var numbersByID: [String: UInt32] = [:]
    var storedIDs: StoredIDs?
    /// A stored catalog's word index, read where it lies (``StoredIndex``): for the items and
    /// words it was opened with, the forward index, postings, items by value and columns are
    /// there; the arrays below hold what was added since (``memoryBase`` on), until
    /// ``materializeIndex()`` reads it whole into them.
    var storedIndex: StoredIndex?
    /// Whether reading a stored index whole found it damaged: the update under way ends by
    /// indexing the items again (``finishUpdate()``).
    var indexNeedsRebuild = false
    var nextOrder: UInt32 = 0

    /// Forward index: the words of each item's fields, in order. Item `n`'s field `f` holds
    /// `words[bounds[n * (F + 1) + f] ..< bounds[n * (F + 1) + f + 1]]`.
    var words: [UInt32] = []
    var bounds: [UInt32] = []
    /// Inverted index: by word number, the internal numbers of the items holding it, ascending.
    var postings: [[UInt32]] = []
    /// Beside each posting, what a query needs to bound the item's rank without reading its words:
    /// the fields holding the word (bit `f` for field `f`, low 7 bits; see ``fieldTagFields``) and
    /// whether some field consists of that word alone (``soleWordTag``).
    var postingTags: [[UInt8]] = []
    static let soleWordTag: UInt8 = 0x80
    /// How many fields a posting tag tells apart; the postings rank only catalogs with no more.
    static let fieldTagFields = 7

    /// The tag bit of field `index` (none past ``fieldTagFields``).
    static func fieldTag(_ index: Int) -> UInt8 { index < fieldTagFields ? 1 << UInt8(index) : 0 }
    /// How many slots have their words in `postings`: an update adds items to the forward index and
    /// posts them all at its end (``postPendingItems(toPrefixLists:)``).
    var postedSlotCount = 0
    /// Merged postings of the prefixes many words share, for one-word queries of a few letters.
    var prefixPostings = PrefixPostings()
    /// The fewest postings a prefix needs for merged postings; nil for the default (tests lower it
    /// so small catalogs have them).
    var prefixPostingsMinimum: Int? = nil

    /// Attribute values, numbered; each item's values as a range of `itemValues`.
    var attributeNames: [String] = []
    var attributeNumbers: [String: Int] = [:]
    var valueAttribute: [Int] = []
    var valueStrings: [String] = []
    var valueNumbers: [CatalogFilter: UInt32] = [:]
    var itemValues: [UInt32] = []
    var valueBounds: [UInt32] = [0]
    /// By value number: the internal numbers of the items with it, ascending.
    var valuePostings: [[UInt32]] = []
    /// By attribute number: its value numbers, and how many postings they have together.
    var attributeValues: [[UInt32]] = []
    var attributePostingCounts: [Int] = []
    /// By attribute number, for an attribute no item has two values of (a section, a priority):
    /// by internal number, the item's value number plus one (0: none). Facet counts read it item
    /// by item in one load. Nil once an item has two values.
    var attributeColumns: [[UInt32]?] = []

    /// How many items the catalog holds.
    public internal(set) var count = 0
    /// Counts the updates.
    public private(set) var generation = 0
    /// A new object with every update: a searcher reuses earlier work only for the same revision,
    /// which no other catalog and no other state of this one has (generations of two catalogs
    /// can be equal).
    private(set) var revision = Revision()

    /// An empty catalog searching `fields` (a match in an earlier field ranks higher by default).
    public init(fields: [CatalogField] = [CatalogField("title", weight: 2), CatalogField("body", weight: 1)]) {
        precondition(!fields.isEmpty, "a catalog searches at least one field")
        precondition(Set(fields.map(\.name)).count == fields.count, "a catalog's fields have distinct names")
        self.fields = fields
    }

    /// A catalog holding `items` (a later item with an id already seen replaces the earlier one).
    public init<Items: Sequence<CatalogItem>>(fields: [CatalogField] = [CatalogField("title", weight: 2), CatalogField("body", weight: 1)],
                                              items: Items) {
        self.init(fields: fields)
        upsert(contentsOf: items)
    }

    var slotCount: Int { isLive.count }

    /// The item numbered `number`, or nil once retired.
    func item(_ number: Int) -> CatalogItem? {
        guard isLive[number] else { return nil }
        let stored = storedItems?.count ?? 0
        return number < stored ? storedItems!.item(number) : items[number - stored]
    }

    /// Reads the stored items numbered `numbers` now, a block at a time (``StoredItems``).
    func prepareItems(_ numbers: [Int]) {
        guard let storedItems else { return }
        storedItems.prepare(numbers.filter { $0 < storedItems.count && isLive[$0] })
    }

    /// The internal number of the item with `id`, if the catalog holds one.
    func number(ofID id: String) -> UInt32? {
        if let number = numbersByID[id] { return number }
        guard let number = storedIDs?.number(of: id), isLive[Int(number)] else { return nil }
        return number
    }

    /// Retires internal number `number` (its item was replaced or deleted).
    private mutating func retire(_ number: UInt32) {
        isLive[Int(number)] = false
        let stored = storedItems?.count ?? 0
        if Int(number) >= stored { items[Int(number) - stored] = nil }
    }

    // MARK: Reading

    /// The item with `id`, if any.
    public subscript(id: String) -> CatalogItem? { number(ofID: id).flatMap { item(Int($0)) } }

    /// Every item, in the order their ids were first inserted.
    public var allItems: [CatalogItem] {
        let numbers = liveNumbersInOrder.map { Int($0) }
        prepareItems(numbers)
        return numbers.map { item($0)! }
    }

    /// The internal numbers of the items, in the order their ids were first inserted.
    var liveNumbersInOrder: [UInt32] {
        // Live numbers have distinct orders below nextOrder: placing each at its order sorts them
        // in one pass.
        var byOrder = [UInt32](repeating: .max, count: Int(nextOrder))
        for number in isLive.indices where isLive[number] { byOrder[Int(orders[number])] = UInt32(number) }
        return byOrder.filter { $0 != .max }
    }

    /// The words of field `field` (its index in `fields`) of the item numbered `number`, in order.
    func words(of number: UInt32, field: Int) -> ArraySlice<UInt32> {
        if let storedIndex, Int(number) < memoryBase {
            var words: [UInt32] = [], bounds: [UInt32] = []
            storedIndex.forward.decode(Int(number), words: &words, bounds: &bounds)
            return words[Int(bounds[field])..<Int(bounds[field + 1])]
        }
        let slot = (Int(number) - memoryBase) * (fields.count + 1) + field
        return words[Int(bounds[slot])..<Int(bounds[slot + 1])]
    }

    /// The names of the attributes the items have, in order of first appearance.
    public var attributes: [String] { attributeNames }

    // MARK: Updating

    /// Inserts `item`, or replaces the item with its id.
    public mutating func upsert(_ item: CatalogItem) {
        add(item)
        finishUpdate()
    }

    /// Inserts or replaces each of `items`, in order. Many items are split into words on other
    /// cores while they are indexed; they are read from `items` as they are needed, so a sequence
    /// that makes them (a parser) keeps going meanwhile.
    public mutating func upsert<Items: Sequence<CatalogItem>>(contentsOf items: Items) {
        upsert(contentsOf: items, foldingAhead: Self.foldingAheadChunk)
    }

    /// How many items a thread splits into words at a time while earlier ones are indexed.
    static let foldingAheadChunk = 1024

    /// A catalog holding `items`, about `expectedCount` of them made room for at once (see
    /// ``upsert(contentsOf:foldingAhead:posting:expecting:)``).
    init<Items: Sequence<CatalogItem>>(fields: [CatalogField], items: Items, expecting expectedCount: Int) {
        self.init(fields: fields)
        upsert(contentsOf: items, foldingAhead: Self.foldingAheadChunk, expecting: expectedCount)
    }

    /// Inserts or replaces each of `items`, in order; from two chunks of `chunk` items on, the
    /// chunks' words are split, folded and looked up (``FoldedItems``) on other threads while the
    /// chunks before are indexed. Unless `posting` is false, the update ends by posting them.
    /// Room is made for `expectedCount` items when `items` underestimates more: a hint, which
    /// only costs memory when too large.
    mutating func upsert<Items: Sequence<CatalogItem>>(contentsOf items: Items, foldingAhead chunk: Int, posting: Bool = true,
                                                       expecting expectedCount: Int = 0) {
        precondition(chunk > 0, "chunks of at least one item")
        var iterator = items.makeIterator()
        var first: [CatalogItem] = []
        while first.count / 2 < chunk, let item = iterator.next() { first.append(item) }
        if first.count / 2 < chunk {
            for item in first { add(item) }
        } else {
            let expected = max(first.count, items.underestimatedCount, expectedCount)
            reserveCapacity(forMore: expected)
            addFoldingAhead(first, then: &iterator, expecting: expected, chunk: chunk)
        }
        if posting { finishUpdate() }
    }

    /// Adds `first`, then the items of `rest` (about `expected` in all), a round at a time: in
    /// each round this thread indexes the items folded in the round before while other threads
    /// fold the next few chunks against a snapshot of the vocabulary.
    private mutating func addFoldingAhead<Rest: IteratorProtocol<CatalogItem>>(_ first: [CatalogItem], then rest: inout Rest, expecting expected: Int,
                                                                            chunk: Int) {
        let roundItems = 4 * chunk
        let fields = self.fields
        var known = vocabulary
        /// Fills `round` from `rest` up to a round's items.
        func read(into round: inout [CatalogItem]) {
            while round.count < roundItems, let item = rest.next() { round.append(item) }
        }
        var folding = first
        read(into: &folding)
        var indexing: [CatalogItem] = [], ready: [FoldedItems] = []
        var isFirstRound = true
        while !folding.isEmpty || !indexing.isEmpty {
            let chunks = (folding.count + chunk - 1) / chunk
            let folded = SlotArray<FoldedItems>(count: chunks)
            let isFolded = DispatchGroup()
            Self.foldingQueue.async(group: isFolded) { [known, folding] in
                DispatchQueue.concurrentPerform(iterations: chunks) { number in
                    folded.set(number, FoldedItems(folding[(number * chunk)..<min(folding.count, (number + 1) * chunk)], fields: fields, known: known))
                }
            }
            var item = 0
            for chunk in ready {
                let count = chunk.fieldEnds.count / fields.count
                add(indexing[item..<(item + count)], words: chunk)
                item += count
            }
            // The next round's items, while the folding may still run (a sequence may make them
            // as it is read).
            var coming: [CatalogItem] = []
            read(into: &coming)
            isFolded.wait()
            (indexing, ready, folding) = (folding, (0..<chunks).map { folded.take($0)! }, coming)
            if isFirstRound {
                // Arrays grown by doubling touch twice their final memory, and on some systems
                // (virtual machines that hand freed memory back to their host) touching fresh
                // memory is most of a large build: as many words per item for the rest as in
                // the first round, and a little more.
                isFirstRound = false
                let words = ready.reduce(0) { $0 + $1.wordCount }
                Self.reserve(&self.words, count: self.words.count + words * 9 / 8 * max(indexing.count, expected) / max(1, indexing.count))
            } else if ready.reduce(0, { $0 + $1.unknownCount }) * 64 > vocabulary.count {
                // A fresher snapshot once the words it lacks are many beside the vocabulary (each
                // new snapshot costs the indexing thread a copy of the vocabulary when it next
                // adds a word).
                known = vocabulary
            }
        }
    }

    /// Adds `items`, whose words `folded` holds.
    private mutating func add(_ items: ArraySlice<CatalogItem>, words folded: FoldedItems) {
        let fieldCount = fields.count
        var word = 0
        for (index, item) in items.enumerated() {
            add(item) { catalog, field in
                let end = Int(folded.fieldEnds[index * fieldCount + field])
                while word < end {
                    catalog.words.append(folded.number(at: word, adding: &catalog.vocabulary))
                    word += 1
                }
            }
        }
    }

    /// An empty catalog of `fields` whose attribute values are numbered as `tables` says (a
    /// stored catalog's, before its index is read); throws when a value is listed twice.
    init(fields: [CatalogField], values tables: CatalogBlock.Tables) throws(StoredFormatError) {
        self.init(fields: fields)
        for (attribute, text) in tables.values {
            guard valueNumber(adding: CatalogFilter(tables.attributeNames[attribute], text)) == UInt32(valueStrings.count - 1) else {
                throw .corrupt("an attribute value twice")
            }
        }
        // Attributes with no value yet keep their numbers.
        for name in tables.attributeNames where attributeNumbers[name] == nil {
            attributeNumbers[name] = attributeNames.count
            attributeNames.append(name)
            attributeValues.append([])
            attributePostingCounts.append(0)
        }
        guard attributeNames == tables.attributeNames else { throw .corrupt("attribute names") }
    }

    /// Ends reading a stored catalog: a new revision, searched as it is.
    mutating func finishLoading() {
        generation += 1
        revision = Revision()
    }

    /// A catalog of `blocks` of items whose words are numbered in `vocabulary` (a stored
    /// catalog's): nothing is split into words or folded again.
    init(fields: [CatalogField], vocabulary: Vocabulary, blocks: [(items: [CatalogItem], words: FoldedItems)]) {
        self.init(fields: fields)
        self.vocabulary = vocabulary
        reserveCapacity(forMore: blocks.reduce(0) { $0 + $1.items.count })
        Self.reserve(&words, count: blocks.reduce(0) { $0 + $1.words.wordCount })
        for block in blocks { add(block.items[...], words: block.words) }
        finishUpdate()
    }

    /// The queue folding runs from: its own thread, whatever the caller's (a thread of a pool the
    /// caller may be holding while it waits).
    private static let foldingQueue = DispatchQueue(label: "trawl.catalog.folding")

    /// Makes room for `count` elements in `array` when it has less, at least doubling it (so that
    /// repeated updates stay amortized).
    private static func reserve<Element>(_ array: inout [Element], count: Int) {
        guard count > array.capacity else { return }
        array.reserveCapacity(max(count, 2 * array.capacity))
    }

    private mutating func finishUpdate() {
        if indexNeedsRebuild { indexAgainFromItems() }
        // Prefix lists about to be chosen again are made whole; until then, they take the new items.
        postPendingItems(toPrefixLists: !prefixPostings.isDue(slotCount: slotCount))
        vocabulary.sort()
        compactIfWorthIt()
        if prefixPostings.isDue(slotCount: slotCount) {
            var chosen = prefixPostings
            chosen.choose(in: self, minimum: prefixPostingsMinimum)
            prefixPostings = chosen
        }
        generation += 1
        revision = Revision()
    }

    /// Changes some fields and attributes of the item with `id`, keeping the others; a nil value
    /// removes that field or attribute. Returns false when there is no such item.
    @discardableResult
    public mutating func update(id: String, fields: [String: String?] = [:], attributes: [String: [String]?] = [:]) -> Bool {
        guard var item = self[id] else { return false }
        for (name, text) in fields { item.fields[name] = text }
        for (name, values) in attributes { item.attributes[name] = values }
        upsert(item)
        return true
    }

    /// Removes the item with `id`; returns false when there is none.
    @discardableResult
    public mutating func delete(id: String) -> Bool {
        guard let number = number(ofID: id) else { return false }
        numbersByID[id] = nil
        retire(number)
        count -= 1
        compactIfWorthIt()
        generation += 1
        revision = Revision()
        return true
    }

    /// Reserves room for `count` more items in the arrays that grow by item.
    private mutating func reserveCapacity(forMore count: Int) {
        Self.reserve(&items, count: items.count + count)
        Self.reserve(&isLive, count: isLive.count + count)
        Self.reserve(&orders, count: orders.count + count)
        Self.reserve(&lengths, count: lengths.count + count)
        Self.reserve(&bounds, count: bounds.count + count * (fields.count + 1))
        Self.reserve(&valueBounds, count: valueBounds.count + count)
        if numbersByID.capacity < numbersByID.count + count { numbersByID.reserveCapacity(max(numbersByID.count + count, 2 * numbersByID.capacity)) }
    }

    private mutating func add(_ item: CatalogItem) {
        add(item) { catalog, field in
            guard let text = item.fields[catalog.fields[field].name] else { return }
            WordFolding.forEachWord(in: text) { _, folded in catalog.words.append(catalog.vocabulary.number(adding: folded)) }
        }
    }

    /// Adds `item`, whose words `appendWords` appends to `words` field by field (by index in
    /// `fields`).
    private mutating func add(_ item: CatalogItem, appendingWords appendWords: (inout Catalog, Int) -> Void) {
        let order: UInt32
        if let old = number(ofID: item.id) {
            order = orders[Int(old)]
            retire(old)
        } else {
            order = nextOrder
            nextOrder += 1
            count += 1
        }
        let number = UInt32(slotCount)
        items.append(item)
        isLive.append(true)
        orders.append(order)
        numbersByID[item.id] = number
        let start = words.count
        for field in fields.indices {
            bounds.append(UInt32(words.count))
            appendWords(&self, field)
        }
        bounds.append(UInt32(words.count))
        lengths.append(UInt32(words.count - start))
        for (name, values) in item.attributes.sorted(by: { $0.key < $1.key }) {
            for value in values {
                let valueNumber = self.valueNumber(adding: CatalogFilter(name, value))
                if valuePostings[Int(valueNumber)].last != number {
                    valuePostings[Int(valueNumber)].append(number)
                    itemValues.append(valueNumber)
                    attributePostingCounts[valueAttribute[Int(valueNumber)]] += 1
                }
            }
        }
        valueBounds.append(UInt32(itemValues.count))
        // The columns hold the items from `memoryBase` on (a stored catalog's others are in its file).
        let index = Int(number) - memoryBase
        while attributeColumns.count < attributeNames.count { attributeColumns.append([UInt32](repeating: 0, count: index)) }
        for attribute in attributeColumns.indices { attributeColumns[attribute]?.append(0) }
        var dropsStoredColumn = false
        for value in itemValues[Int(valueBounds[index])...] {
            let attribute = valueAttribute[Int(value)]
            switch attributeColumns[attribute]?[index] {
            case nil: continue
            case 0: attributeColumns[attribute]![index] = value + 1
            default:
                attributeColumns[attribute] = nil
                // (An attribute the stored catalog has no column of keeps none either way.)
                if let storedIndex, storedIndex.columns.indices.contains(attribute), storedIndex.columns[attribute] != nil { dropsStoredColumn = true }
            }
        }
        // The stored items' values of that attribute are only in its stored column: the index is
        // read whole, so that they join the others.
        if dropsStoredColumn { materializeIndex() }
    }

    private mutating func valueNumber(adding filter: CatalogFilter) -> UInt32 {
        if let number = valueNumbers[filter] { return number }
        let attribute: Int
        if let known = attributeNumbers[filter.attribute] {
            attribute = known
        } else {
            attribute = attributeNames.count
            attributeNames.append(filter.attribute)
            attributeValues.append([])
            attributePostingCounts.append(0)
            attributeNumbers[filter.attribute] = attribute
        }
        let number = UInt32(valueStrings.count)
        valueNumbers[filter] = number
        valueAttribute.append(attribute)
        attributeValues[attribute].append(number)
        valueStrings.append(filter.value)
        valuePostings.append([])
        return number
    }

    func valueNumber(of filter: CatalogFilter) -> UInt32? { valueNumbers[filter] }

    /// Whether an item the catalog holds now has this attribute value.
    package func hasLiveItem(with filter: CatalogFilter) -> Bool {
        guard let number = valueNumbers[filter] else { return false }
        return valuePostingItems(of: Int(number)).contains { isLive[Int($0)] }
    }

    func attributeNumber(of name: String) -> Int? { attributeNumbers[name] }

    /// Rebuilds the internal arrays without the retired numbers once they outnumber the live ones;
    /// amortized, so each update stays proportional to its item.
    private mutating func compactIfWorthIt() {
        let retired = slotCount - count
        guard retired > max(1024, count) else { return }
        indexAgainFromItems()
    }

    /// Makes the catalog again from its items, in order: numbered afresh, with none retired (and
    /// a stored index found damaged made again from the items).
    mutating func indexAgainFromItems() {
        let live = allItems
        var fresh = Catalog(fields: fields)
        fresh.prefixPostingsMinimum = prefixPostingsMinimum
        fresh.upsert(contentsOf: live)
        fresh.generation = generation
        fresh.scopeAttribute = scopeAttribute
        self = fresh
    }
}

/// The identity of one state of a catalog (see ``Catalog/revision``).
final class Revision: Sendable {}
