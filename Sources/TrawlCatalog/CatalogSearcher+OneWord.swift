/// One-word queries ranked from the postings alone.
///
/// The first keystrokes of a query are one short prefix that matches a large part of the catalog
/// (at 1M items, "l" matches 600k). Ranking each match from its words costs a few cache misses per
/// item; for one word every criterion but the item's length and the tie-break follows from the
/// postings and their tags (heaviest field, sole word of a field), so each match gets a one-byte
/// key in one pass over the postings, a histogram of the keys finds the few keys the best results
/// can have, and only items with those keys are ranked. Meilisearch's bucket sort works the same
/// way, rule by rule.
///
/// A key, larger is better: bits 6–7 three minus the item's fewest typos, bits 2–5 the level of its
/// heaviest matched field (never 0, so that a match inside a word, three typos, still has a key
/// that is not zero, which means no match), bit 1 a field holding only the exact word, bit 0 the
/// exact word. Beside it, a query of several words keeps the item's matched fields (a field tag)
/// to bound proximity.
extension CatalogSearcher {
    /// Where one query word's per-item keys come from.
    enum WordPostings {
        /// The merged postings of the word's prefix (see ``PrefixPostings``), beside the postings of
        /// the word itself.
        case prefixList(Int, exact: UInt32?)
        /// The postings of every vocabulary word the query word matched.
        case terms([UInt32])
    }

    /// The cheapest postings of `word` (which matched `terms`), and how many postings they hold.
    static func wordPostings(of word: QueryWord, terms: [UInt32], in catalog: Catalog) -> (WordPostings, total: Int) {
        if word.isPrefix, word.typos == 0, !word.matchesInside, let list = catalog.prefixPostings.list(forPrefix: word.bytes) {
            return (.prefixList(list, exact: catalog.vocabulary.number(of: String(decoding: word.bytes, as: UTF8.self))),
                    catalog.prefixPostings.count(of: list))
        }
        return (.terms(terms), terms.reduce(0) { $0 + catalog.postingCount(of: Int($1)) })
    }

    /// How many items ranking item by item would read: the last matches when the query narrows
    /// them, the items of the rarest filter value, or `postings`, whichever is fewest.
    func itemByItemCount(postings: Int, words: [QueryWord], filters: [UInt32], filterSet: Set<CatalogFilter>,
                         in catalog: Catalog) -> Int {
        var count = filters.map { catalog.valuePostingCount(of: Int($0)) }.min() ?? postings
        if let last, last.covers(words, filterSet, revision: catalog.revision) { count = min(count, last.matches.count) }
        return min(count, postings)
    }

    /// Where a one-word query's keys come from, or nil to rank the candidates item by item
    /// (several words, few postings, or a much smaller set to refine or filter).
    func oneWordSource(_ termLists: [[UInt32]], words: [QueryWord], filters: [UInt32], filterSet: Set<CatalogFilter>,
                       in catalog: Catalog) -> WordPostings? {
        guard words.count == 1, Self.weightLevels(catalog.fields) != nil else { return nil }
        let (source, total) = Self.wordPostings(of: words[0], terms: termLists[0], in: catalog)
        guard total >= postingsRankingMinimum else { return nil }
        let itemByItem = itemByItemCount(postings: Int.max, words: words, filters: filters, filterSet: filterSet, in: catalog)
        guard itemByItem > total / Self.postingsPerRankedItem(catalog) else { return nil }
        return source
    }

    /// Ranks the items holding the query word, from `source`.
    mutating func rankOneWord(_ source: WordPostings, words: [QueryWord], filters: [UInt32], facets: Set<Int>, in catalog: Catalog,
                              into ranking: inout Ranking) {
        guard let (tagLevels, levelWeights) = Self.weightLevels(catalog.fields) else { return }
        let (items, keys, _) = keyed(source, word: words[0], wordIndex: 0, tagLevels: tagLevels, in: catalog)
        Self.select(items, keys: keys, levelWeights: levelWeights, filters: filters, facets: facets, in: catalog, into: &ranking)
    }

    /// The items holding query word `word`, at `wordIndex` in the query (ascending), their keys
    /// and their matched fields (field tags, in which ``Catalog/soleWordTag`` may be set).
    mutating func keyed(_ source: WordPostings, word: QueryWord, wordIndex: Int, tagLevels: [UInt8],
                        in catalog: Catalog) -> ([UInt32], [UInt8], [UInt8]) {
        if let list = singleList(source, wordIndex: wordIndex, in: catalog) {
            reserveItemKeys(catalog)
            return (list.items, list.keys(tagLevels: tagLevels, scratch: &itemKeys), list.tags)
        }
        guard case let .terms(terms) = source else { return ([], [], []) }
        if let last = lastKeyed, last.revision === catalog.revision, last.word == word { return (last.items, last.keys, last.fields) }
        // The items are distinct numbers below the slot count, whatever counts a file claims.
        let most = min(terms.reduce(0) { $0 + catalog.postingCount(of: Int($1)) }, catalog.slotCount)
        fillKeys(source, wordIndex: wordIndex, tagLevels: tagLevels, in: catalog)
        var keys: [UInt8] = [], fields: [UInt8] = []
        let items = [UInt32](unsafeUninitializedCapacity: most) { items, count in
            keys = [UInt8](unsafeUninitializedCapacity: most) { keys, keyCount in
                fields = [UInt8](unsafeUninitializedCapacity: most) { fields, fieldCount in
                    itemKeys.withUnsafeMutableBufferPointer { itemKeys in
                        itemFields.withUnsafeMutableBufferPointer { itemFields in
                            candidateBits.withUnsafeMutableBufferPointer { bits in
                                Self.drain(bits) { item in
                                    items[count] = item
                                    keys[count] = itemKeys[Int(item)]
                                    fields[count] = itemFields[Int(item)]
                                    itemKeys[Int(item)] = 0
                                    itemFields[Int(item)] = 0
                                    count += 1
                                }
                            }
                        }
                    }
                    fieldCount = count
                }
                keyCount = count
            }
        }
        lastKeyed = KeyedWord(revision: catalog.revision, word: word, items: items, keys: keys, fields: fields)
        return (items, keys, fields)
    }

    /// A word keyed from the postings of several terms (``keyed(_:word:wordIndex:tagLevels:in:)``),
    /// kept for the next keystroke: the keys follow from the word and the catalog's state alone,
    /// and a query's earlier words are keyed again at each keystroke of its last (at 1M items,
    /// "provides" and "package" within a typo hold hundreds of thousands of items).
    struct KeyedWord {
        var revision: Revision
        var word: QueryWord
        var items: [UInt32]
        var keys: [UInt8]
        var fields: [UInt8]
    }

    /// A word's items as one ascending list with their tags, and what makes a tag a key: a prefix
    /// list (its exact word's postings add the exact bits) or the postings of a single term.
    struct SingleList {
        var items: [UInt32]
        var tags: [UInt8]
        var base: UInt8
        var soleMask: UInt8
        var exact: (items: [UInt32], tags: [UInt8])?

        /// Reads the keys of some items of the list, by ascending place, without reference counting
        /// (``keys(tagLevels:)`` gives them all).
        struct Reader {
            let tags: UnsafeBufferPointer<UInt8>
            let tagLevels: UnsafeBufferPointer<UInt8>
            let exactItems: UnsafeBufferPointer<UInt32>
            let exactTags: UnsafeBufferPointer<UInt8>
            let base: UInt8
            let soleMask: UInt8
            let leapsThroughExact: Bool
            /// The exact bits by item (``SingleList/withExactBits(in:_:)``), when the reads are dense
            /// among the exact word's postings.
            var exactBitsByItem: UnsafePointer<UInt8>?
            /// Where the exact word's postings were reached.
            private var exactPlace = 0

            init(_ list: SingleList, tags: UnsafeBufferPointer<UInt8>, tagLevels: UnsafeBufferPointer<UInt8>,
                 exactItems: UnsafeBufferPointer<UInt32>, exactTags: UnsafeBufferPointer<UInt8>, reads: Int) {
                self.tags = tags
                self.tagLevels = tagLevels
                self.exactItems = exactItems
                self.exactTags = exactTags
                base = list.base
                soleMask = list.soleMask
                leapsThroughExact = CatalogSearcher.leaps(through: exactItems.count, toEachOf: reads)
            }

            /// The key of `item`, at `place` in the list.
            @inline(__always)
            mutating func key(of item: UInt32, at place: Int) -> UInt8 {
                let tag = tags[place]
                var key = SingleList.key(tag: tag, base: base, soleMask: soleMask, tagLevels: tagLevels)
                guard !exactItems.isEmpty else { return key }
                if let exactBitsByItem { return key | exactBitsByItem[Int(item)] }
                exactPlace = CatalogSearcher.advance(exactItems, from: exactPlace, to: item, leaping: leapsThroughExact)
                if exactPlace < exactItems.count, exactItems[exactPlace] == item { key |= SingleList.exactBits(tag: exactTags[exactPlace]) }
                return key
            }
        }

        /// Runs `body` with a reader of the keys of about `reads` items of the list. `scratch` is
        /// zero by item number before and after (see ``withExactBits(in:_:)``).
        func withReader<R>(tagLevels: [UInt8], reads: Int, scratch: inout [UInt8], _ body: (inout Reader) -> R) -> R {
            let exactItems = exact?.items ?? [], exactTags = exact?.tags ?? []
            return tags.withUnsafeBufferPointer { tags in
                tagLevels.withUnsafeBufferPointer { tagLevels in
                    exactItems.withUnsafeBufferPointer { exactItems in
                        exactTags.withUnsafeBufferPointer { exactTags in
                            var reader = Reader(self, tags: tags, tagLevels: tagLevels, exactItems: exactItems, exactTags: exactTags, reads: reads)
                            guard !exactItems.isEmpty, !reader.leapsThroughExact else { return body(&reader) }
                            return scratch.withUnsafeMutableBufferPointer { scratch in
                                withExactBits(in: scratch) { bits in
                                    reader.exactBitsByItem = bits
                                    return body(&reader)
                                }
                            }
                        }
                    }
                }
            }
        }

        /// Runs `body` with the exact word's bits (``exactBits(tag:)``) written by item into
        /// `scratch`, which is zero before and after and holds every item number. Looking items up
        /// there replaces stepping through the exact word's postings to each item, whose varying
        /// steps mispredicted a branch per item: at 1M items, "provides a" reads 359k keys among
        /// the 727k items holding the word "a", and the one-word "a" sets the exact bits of 986k keys.
        func withExactBits<R>(in scratch: UnsafeMutableBufferPointer<UInt8>, _ body: (UnsafePointer<UInt8>) -> R) -> R {
            guard let exact else { return body(UnsafePointer(scratch.baseAddress!)) }
            exact.items.withUnsafeBufferPointer { items in
                exact.tags.withUnsafeBufferPointer { tags in
                    for index in items.indices { scratch[Int(items[index])] = Self.exactBits(tag: tags[index]) }
                }
            }
            defer { exact.items.withUnsafeBufferPointer { items in for item in items { scratch[Int(item)] = 0 } } }
            return body(UnsafePointer(scratch.baseAddress!))
        }

        /// Every item's key, in one pass over the tags, then one leap through the items for each
        /// of the exact word's postings when they are sparse among the items (a prefix list of
        /// 900k items may hold the exact word in few), else a look-up of each item's exact bits
        /// (``withExactBits(in:_:)``; `scratch` is zero by item number before and after).
        func keys(tagLevels: [UInt8], scratch: inout [UInt8]) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: items.count) { keys, count in
                tags.withUnsafeBufferPointer { tags in
                    tagLevels.withUnsafeBufferPointer { tagLevels in
                        for place in tags.indices { keys[place] = Self.key(tag: tags[place], base: base, soleMask: soleMask, tagLevels: tagLevels) }
                    }
                }
                if let exact, !CatalogSearcher.leaps(through: items.count, toEachOf: exact.items.count) {
                    items.withUnsafeBufferPointer { items in
                        scratch.withUnsafeMutableBufferPointer { scratch in
                            withExactBits(in: scratch) { bits in
                                for place in items.indices { keys[place] |= bits[Int(items[place])] }
                            }
                        }
                    }
                } else if let exact {
                    items.withUnsafeBufferPointer { items in
                        var place = 0
                        for (item, tag) in zip(exact.items, exact.tags) {
                            place = CatalogSearcher.leap(items, from: place, to: item)
                            guard place < items.count else { break }
                            if items[place] == item { keys[place] |= Self.exactBits(tag: tag) }
                        }
                    }
                }
                count = items.count
            }
        }

        /// The key bits an item gets from the exact word's posting with `tag`: exact, and the field
        /// holding only the exact word.
        @inline(__always)
        fileprivate static func exactBits(tag: UInt8) -> UInt8 { 1 | (tag & Catalog.soleWordTag) >> 6 }

        /// The key a posting's tag gives, before the exact bits.
        @inline(__always)
        fileprivate static func key<Levels: RandomAccessCollection<UInt8>>(tag: UInt8, base: UInt8, soleMask: UInt8, tagLevels: Levels) -> UInt8
        where Levels.Index == Int {
            base | tagLevels[Int(tag & ~Catalog.soleWordTag)] << 2 | (tag & soleMask) >> 6
        }
    }

    /// The single list `source` is, if it is one (a prefix list, or the postings of one term).
    func singleList(_ source: WordPostings, wordIndex: Int, in catalog: Catalog) -> SingleList? {
        switch source {
        case let .prefixList(list, exact):
            let (items, tags) = catalog.prefixPostings.itemsAndTags(of: list)
            return SingleList(items: items, tags: tags, base: 0xC0, soleMask: 0, exact: exact.map { catalog.postingsAndTags(of: Int($0)) })
        case let .terms(terms) where terms.count == 1:
            let (base, soleMask) = termKeyBase(Int(terms[0]), wordIndex: wordIndex)
            let (items, tags) = catalog.postingsAndTags(of: Int(terms[0]))
            return SingleList(items: items, tags: tags, base: base, soleMask: soleMask, exact: nil)
        case .terms:
            return nil
        }
    }

    /// Writes the key of query word `wordIndex` into `itemKeys` and its matched fields into
    /// `itemFields` for every item holding it and, when `marking`, sets the item's bit in
    /// `candidateBits` (a drain of the bits lists them and clears all three; unmarked,
    /// ``clearKeys(_:in:)`` clears the keys and fields). From terms, each posting's key is merged
    /// into its item's (fewest typos, the heaviest field among the terms with that few, either
    /// exact bit), and its fields joined.
    mutating func fillKeys(_ source: WordPostings, wordIndex: Int, tagLevels: [UInt8], marking: Bool = true, in catalog: Catalog) {
        reserveCandidateBits(catalog)
        reserveItemKeys(catalog)
        if itemFields.count < catalog.slotCount { itemFields.append(contentsOf: repeatElement(0, count: catalog.slotCount - itemFields.count)) }
        let termBases: [(UInt8, soleMask: UInt8)]
        if case let .terms(terms) = source { termBases = terms.map { termKeyBase(Int($0), wordIndex: wordIndex) } } else { termBases = [] }
        candidateBits.withUnsafeMutableBufferPointer { bits in
            itemKeys.withUnsafeMutableBufferPointer { keys in
              itemFields.withUnsafeMutableBufferPointer { fields in
                switch source {
                case let .prefixList(list, exact):
                    let (listItems, listTags) = catalog.prefixPostings.itemsAndTags(of: list)
                    listItems.withUnsafeBufferPointer { items in
                        listTags.withUnsafeBufferPointer { tags in
                            for index in items.indices {
                                let item = Int(items[index])
                                keys[item] = 0xC0 | tagLevels[Int(tags[index] & ~Catalog.soleWordTag)] << 2
                                fields[item] = tags[index]
                                if marking { bits[item >> 6] |= 1 << UInt64(item & 63) }
                            }
                        }
                    }
                    guard let exact else { return }
                    let (postings, tags) = catalog.postingsAndTags(of: Int(exact))
                    for index in postings.indices where keys[Int(postings[index])] != 0 {
                        keys[Int(postings[index])] |= SingleList.exactBits(tag: tags[index])
                    }
                case let .terms(terms):
                    for (term, (base, soleMask)) in zip(terms, termBases) {
                        let number = Int(term)
                        let (termItems, termTags) = catalog.postingsAndTags(of: number)
                        termItems.withUnsafeBufferPointer { postings in
                            termTags.withUnsafeBufferPointer { tags in
                                for index in postings.indices {
                                    let item = Int(postings[index]), tag = tags[index]
                                    let key = base | tagLevels[Int(tag & ~Catalog.soleWordTag)] << 2 | (tag & soleMask) >> 6
                                    let old = keys[item]
                                    if old == 0 {
                                        keys[item] = key
                                    } else {
                                        // The heavier field of the fewer-typo term.
                                        let oldTypos = old & 0xC0, newTypos = key & 0xC0
                                        let level = oldTypos == newTypos ? max(old & 0x3C, key & 0x3C) : (oldTypos > newTypos ? old : key) & 0x3C
                                        keys[item] = max(oldTypos, newTypos) | level | (old | key) & 3
                                    }
                                    fields[item] |= tag & ~Catalog.soleWordTag
                                    if marking { bits[item >> 6] |= 1 << UInt64(item & 63) }
                                }
                            }
                        }
                    }
                }
              }
            }
        }
    }

    /// Grows `itemKeys` to the catalog's numbers.
    mutating func reserveItemKeys(_ catalog: Catalog) {
        if itemKeys.count < catalog.slotCount { itemKeys.append(contentsOf: repeatElement(0, count: catalog.slotCount - itemKeys.count)) }
    }

    /// The key bits vocabulary word `number` gives query word `wordIndex` (typos, exact), and the
    /// tag bit that counts when it is exact (the sole word of a field).
    private func termKeyBase(_ number: Int, wordIndex: Int) -> (UInt8, soleMask: UInt8) {
        let typos = UInt8(wordTypos[number] >> UInt32(2 * wordIndex) & 3)
        let isExact = exactMasks[number] & (1 << UInt16(wordIndex)) != 0
        return ((3 - typos) << 6 | (isExact ? 1 : 0), isExact ? Catalog.soleWordTag : 0)
    }

    /// Zeroes the keys and fields `fillKeys(source, marking: false)` wrote.
    mutating func clearKeys(_ source: WordPostings, in catalog: Catalog) {
        itemKeys.withUnsafeMutableBufferPointer { keys in
            itemFields.withUnsafeMutableBufferPointer { fields in
                func clear(_ items: [UInt32]) {
                    items.withUnsafeBufferPointer { items in
                        for item in items {
                            keys[Int(item)] = 0
                            fields[Int(item)] = 0
                        }
                    }
                }
                switch source {
                case let .prefixList(list, _): clear(catalog.prefixPostings.itemsAndTags(of: list).items)
                case let .terms(terms): for term in terms { clear(catalog.postingItems(of: Int(term))) }
                }
            }
        }
    }

    /// Keeps the live items that pass `filters`, counts their facets, and ranks only those whose
    /// key the best `limit` can have (found from a histogram of the keys).
    private static func select(_ items: [UInt32], keys: [UInt8], levelWeights: [Int], filters: [UInt32], facets: Set<Int>,
                               in catalog: Catalog, into ranking: inout Ranking) {
        let block = 4096
        var kept = items, keptKeys = keys
        var keptCount = items.count
        // Every item is kept when none is retired and nothing filters (the usual first keystroke);
        // a budget already spent keeps the first block, as the loop below would.
        if filters.isEmpty, catalog.count == catalog.slotCount {
            if items.count > block, ranking.isOutOfTime() {
                keptCount = block
                kept.removeLast(items.count - block)
                keptKeys.removeLast(items.count - block)
            }
        } else {
            keptCount = 0
            let isLive = catalog.isLive, filter = ItemFilter(filters, in: catalog)
            var start = 0
            // A block at a time, checking the budget between blocks (after the first, so a spent
            // budget still returns some results).
            repeat {
                let end = min(items.count, start + block)
                isLive.withUnsafeBufferPointer { isLive in
                    items.withUnsafeBufferPointer { items in
                        keys.withUnsafeBufferPointer { keys in
                            kept.withUnsafeMutableBufferPointer { kept in
                                keptKeys.withUnsafeMutableBufferPointer { keptKeys in
                                    for index in start..<end {
                                        let item = items[index]
                                        guard isLive[Int(item)], filter.isEmpty || filter.admits(Int(item)) else { continue }
                                        kept[keptCount] = item
                                        keptKeys[keptCount] = keys[index]
                                        keptCount += 1
                                    }
                                }
                            }
                        }
                    }
                }
                start = end
            } while start < items.count && !ranking.isOutOfTime()
            kept.removeLast(items.count - keptCount)
            keptKeys.removeLast(items.count - keptCount)
        }
        let histogram = Self.histogram(of: keptKeys)
        if !facets.isEmpty { ranking.countValues(of: kept, attributes: facets, in: catalog) }
        // The lowest key the best `limit` can have.
        var threshold = 1, above = 0
        for key in stride(from: 255, through: 1, by: -1) {
            above += histogram[key]
            if above >= ranking.best.limit { threshold = key; break }
        }
        // Fewer than `limit` items have a key above the threshold: all of them are kept. Of those at
        // the threshold, which differ only in their length and order, the shortest and earliest
        // fill the rest: a max-heap of the two in one number rejects a later one with one
        // comparison.
        let orders = catalog.orders, forward = catalog.forwardIndex
        func rank(_ index: Int) -> CatalogResults.Rank {
            let key = Int(keptKeys[index]), item = Int(kept[index])
            return CatalogResults.Rank(typos: 3 - key >> 6, proximity: 0, fieldWeight: levelWeights[key >> 2 & 15],
                                       exactField: key & 2 != 0, exactWords: key & 1, length: forward.length(of: item), order: Int(orders[item]))
        }
        var first = SmallestKeys<UInt64, Int>(limit: ranking.best.limit - (above - histogram[threshold]))
        // Once `first` is full, an item longer than its longest is turned away by its length
        // alone, before its order is read (a one-letter query has hundreds of thousands at the
        // threshold).
        var longest = UInt64.max
        kept.withUnsafeBufferPointer { kept in
            keptKeys.withUnsafeBufferPointer { keys in
                orders.withUnsafeBufferPointer { orders in
                    for index in 0..<keptCount where Int(keys[index]) >= threshold {
                        let item = Int(kept[index])
                        guard Int(keys[index]) == threshold else {
                            ranking.best.insert(rank(index), kept[index])
                            continue
                        }
                        let length = UInt64(forward.length(of: item))
                        guard length <= longest else { continue }
                        first.insert(length << 32 | UInt64(orders[item]), index)
                        if let limit = first.admissionLimit { longest = limit >> 32 }
                    }
                }
            }
        }
        for index in first.payloads { ranking.best.insert(rank(index), kept[index]) }
        ranking.matches = kept
    }

    /// How many of `keys` have each value. Four tables, so that runs of one key (most keys of a
    /// prefix list are alike) do not each wait for the last increment.
    static func histogram(of keys: [UInt8]) -> [Int] {
        var tables = [Int](repeating: 0, count: 4 * 256)
        tables.withUnsafeMutableBufferPointer { tables in
            keys.withUnsafeBufferPointer { keys in
                var index = 0
                while index + 4 <= keys.count {
                    tables[Int(keys[index])] += 1
                    tables[256 + Int(keys[index + 1])] += 1
                    tables[512 + Int(keys[index + 2])] += 1
                    tables[768 + Int(keys[index + 3])] += 1
                    index += 4
                }
                while index < keys.count { tables[Int(keys[index])] += 1; index += 1 }
            }
        }
        return (0..<256).map { tables[$0] + tables[256 + $0] + tables[512 + $0] + tables[768 + $0] }
    }

    /// By field tag (the fields bits of a posting tag), the weight level of its heaviest field (2
    /// for the lightest positive weight and up; 1 for no field or a weight that adds nothing; 0,
    /// weight 0, is never a level, see the key), and each level's weight; nil when there are more
    /// than 14 positive weights or more fields than a tag tells apart (such catalogs rank item by
    /// item).
    static func weightLevels(_ fields: [CatalogField]) -> ([UInt8], [Int])? {
        guard fields.count <= Catalog.fieldTagFields else { return nil }
        let weights = Set(fields.map(\.weight).filter { $0 > 0 }).sorted()
        guard weights.count < 15 else { return nil }
        let levels = fields.map { field in UInt8(weights.firstIndex(of: field.weight).map { $0 + 2 } ?? 1) }
        var tagLevels = [UInt8](repeating: 1, count: 1 << Catalog.fieldTagFields)
        for tag in tagLevels.indices {
            for field in fields.indices where tag & 1 << field != 0 { tagLevels[tag] = max(tagLevels[tag], levels[field]) }
        }
        return (tagLevels, [0, 0] + weights)
    }
}
