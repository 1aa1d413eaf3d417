import CZlib
import TrawlStorage

/// One stored block of a catalog's items (``CatalogFormat``): up to ``itemsPerBlock`` items,
/// laid out by column so that like text sits together, then deflated.
///
/// ```
/// stored      varint item count, then the structure and the words, each as varint raw length,
///             varint stored length, the raw bytes deflated
/// structure   local strings: varint count, strings
///             ids: a string per item
///             field names: per item, varint count and ascending name references
///             texts: per referenced name in ascending order, the texts of the items holding it:
///                    a searched field's as varint word count n, then the n + 1 ranks of the
///                    separators around its words (CatalogLexicon); another's as a string
///             attributes: per item, varint count, then (name reference, varint value count,
///                         value references) each
/// words       varint word count, then each word's rank (in the texts' order) as a lead byte,
///             then the tail bytes of those that have them (``WordFrequencyCode``)
/// ```
/// A reference is a number times two for an entry of the catalog's tables (its searched fields,
/// attribute names, attribute values), or an index times two plus one for an entry of the block's
/// local strings: names and values the tables do not hold (an attribute whose every list is
/// empty, a field that is not searched). Attributes go in name order, so equal items give equal
/// bytes. The words go apart from the rest because zlib codes them best alone (see
/// ``Deflate/compressSmaller(_:)``). Version 2 (each text as a string, one deflated part) is
/// still read.
enum CatalogBlock {
    /// Small enough that showing a result decodes few items besides it (a block is decoded
    /// whole), large enough for zlib to find the repeats of a block's column.
    static let itemsPerBlock = 256

    /// The catalog-wide tables that references point into.
    struct Tables: Sendable {
        var fieldNames: [String]
        var attributeNames: [String]
        /// By value number: its attribute's number and its text.
        var values: [(attribute: Int, text: String)]

        /// A catalog's own tables.
        init(_ catalog: Catalog) {
            fieldNames = catalog.fields.map(\.name)
            attributeNames = catalog.attributeNames
            values = zip(catalog.valueAttribute, catalog.valueStrings).map { ($0, $1) }
        }

        init(fieldNames: [String], attributeNames: [String], values: [(attribute: Int, text: String)]) {
            self.fieldNames = fieldNames
            self.attributeNames = attributeNames
            self.values = values
        }
    }

    /// A block's items laid out as stored, but for the ranks of their searched texts' pieces,
    /// which wait for the lexicon: each text is split into its pieces once, while the lexicon is
    /// counted, and the pieces are kept in a byte or so each until their ranks are known (splitting
    /// every text again to encode it was a tenth of storing a large catalog).
    struct Draft: Sendable {
        private let itemCount: Int
        private var locals = LocalStrings()
        /// The ids, then each item's field references.
        private var head: [UInt8] = []
        /// By reference: the texts of a field that is not searched, as stored (a searched field's
        /// entry stays empty until ``encoded(of:ranks:wordStrategy:)``).
        private var texts: [[UInt8]] = []
        /// The attributes, as stored.
        private var attributes: [UInt8] = []
        /// By searched field: the catalog's numbers of the items holding it, in order.
        private var fieldItems: [[UInt32]]
        /// By searched field: the separators of its texts in order, each as its short index
        /// (``CatalogLexicon/shortIndex(_:)``) when below ``escape``, else as ``escape`` with the
        /// next entry of `separatorEscapes`: its short index, or ``spareFlag`` and its entry in
        /// `spare`.
        private var separators: [[UInt8]]
        private var separatorEscapes: [[UInt32]]
        /// By searched field: the spellings of its texts' words in order, each as its ``Kind``;
        /// an `other` spelling's bytes are in `spare`, at the next entry of `spellingEscapes`.
        private var spellings: [[UInt8]]
        private var spellingEscapes: [[UInt32]]
        /// Long separators and other spellings, back to back, and where each ends.
        private var spareBytes: [UInt8] = []
        private var spareEnds: [UInt32] = []

        /// Whether every item's texts have the words the forward index gives them (false only
        /// for an index read from a damaged file: ``CatalogFormat`` then indexes the items again).
        private(set) var isConsistent = true

        private static let escape: UInt8 = 255
        private static let spareFlag: UInt32 = 1 << 31

        /// A word's ``CatalogLexicon/Spelling``, as kept.
        private enum Kind: UInt8 { case folded, capitalized, other }

        /// The items numbered `numbers` of `catalog`, their searched texts' pieces counted into
        /// `tally`.
        init(_ numbers: ArraySlice<UInt32>, of catalog: Catalog, tally: inout CatalogLexicon.Tally) {
            itemCount = numbers.count
            let fieldCount = catalog.fields.count
            fieldItems = [[UInt32]](repeating: [], count: fieldCount)
            separators = [[UInt8]](repeating: [], count: fieldCount)
            spellings = separators
            separatorEscapes = fieldItems
            spellingEscapes = fieldItems
            for number in numbers { appendString(catalog.item(Int(number))!.id, to: &head) }
            let fieldNumbers = Dictionary(uniqueKeysWithValues: catalog.fields.enumerated().map { ($1.name, $0) })
            let vocabulary = catalog.vocabulary
            // An item's fields by reference, each with its text (a name hashed once).
            var references: [(reference: Int, text: String)] = []
            // A text's pieces into local buffers, appended to their columns once; the rare
            // escapes and spare bytes kept in locals too (the closures then capture no `self`).
            var textSeparators: [UInt8] = [], textSpellings: [UInt8] = []
            var separatorEscapes: [UInt32] = [], spellingEscapes: [UInt32] = []
            var spareBytes: [UInt8] = [], spareEnds: [UInt32] = []
            var consistent = true
            /// Keeps `bytes` in `spare`; returns their entry.
            func spare(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
                spareBytes.append(contentsOf: bytes)
                spareEnds.append(UInt32(spareBytes.count))
                return UInt32(spareEnds.count - 1)
            }
            tally.counting { counter in
                for number in numbers {
                    let item = catalog.item(Int(number))!
                    references.removeAll(keepingCapacity: true)
                    for (name, text) in item.fields { references.append((fieldNumbers[name].map { $0 << 1 } ?? locals.reference(to: name), text)) }
                    references.sort { $0.reference < $1.reference }
                    StoredFormat.appendVarint(UInt64(references.count), to: &head)
                    for (reference, _) in references { StoredFormat.appendVarint(UInt64(reference), to: &head) }
                    for (reference, text) in references {
                        while texts.count <= reference { texts.append([]) }
                        guard reference & 1 == 0 else {
                            appendString(text, to: &texts[reference])
                            continue
                        }
                        let field = reference >> 1
                        fieldItems[field].append(number)
                        textSeparators.removeAll(keepingCapacity: true)
                        textSpellings.removeAll(keepingCapacity: true)
                        separatorEscapes.removeAll(keepingCapacity: true)
                        spellingEscapes.removeAll(keepingCapacity: true)
                        var text = text
                        let pieces = text.withUTF8 { text in
                            CatalogLexicon.forEachPiece(of: text, words: catalog.words(of: number, field: field), vocabulary: vocabulary) { separator in
                                let index = CatalogLexicon.shortIndex(separator)
                                counter.add(separator: separator, shortIndex: index)
                                if let index, index < Int(Self.escape) {
                                    textSeparators.append(UInt8(index))
                                } else {
                                    textSeparators.append(Self.escape)
                                    separatorEscapes.append(index.map(UInt32.init) ?? Self.spareFlag | spare(separator))
                                }
                            } word: { number, spelling in
                                counter.add(word: number, spelling)
                                switch spelling {
                                case .folded: textSpellings.append(Kind.folded.rawValue)
                                case .capitalized: textSpellings.append(Kind.capitalized.rawValue)
                                case .other(let bytes):
                                    textSpellings.append(Kind.other.rawValue)
                                    spellingEscapes.append(spare(bytes))
                                }
                            }
                        }
                        if !pieces { consistent = false }
                        separators[field] += textSeparators
                        spellings[field] += textSpellings
                        if !separatorEscapes.isEmpty { self.separatorEscapes[field] += separatorEscapes }
                        if !spellingEscapes.isEmpty { self.spellingEscapes[field] += spellingEscapes }
                    }
                }
            }
            self.spareBytes = spareBytes
            self.spareEnds = spareEnds
            isConsistent = consistent
            for number in numbers {
                let item = catalog.item(Int(number))!
                StoredFormat.appendVarint(UInt64(item.attributes.count), to: &attributes)
                for (name, values) in item.attributes.sorted(by: { $0.key < $1.key }) {
                    StoredFormat.appendVarint(UInt64(catalog.attributeNumber(of: name).map { $0 << 1 } ?? locals.reference(to: name)), to: &attributes)
                    StoredFormat.appendVarint(UInt64(values.count), to: &attributes)
                    for value in values {
                        let reference = catalog.valueNumber(of: CatalogFilter(name, value)).map { Int($0) << 1 } ?? locals.reference(to: value)
                        StoredFormat.appendVarint(UInt64(reference), to: &attributes)
                    }
                }
            }
        }

        /// Entry `index` of `spare`.
        private func spare(_ index: UInt32) -> [UInt8] { Array(spareBytes[CatalogLexicon.bounds(of: Int(index), ends: spareEnds)]) }

        /// The block as stored, its searched texts coded by `ranks` (of the lexicon the drafts'
        /// tallies made), and the zlib strategy its words were compressed with: `wordStrategy`, or
        /// when nil the one of deflate and Huffman codes alone that compresses them smaller.
        func encoded(of catalog: Catalog, ranks: CatalogLexicon.Ranks, wordStrategy: Int32?) -> (bytes: [UInt8], wordStrategy: Int32) {
            let fieldCount = catalog.fields.count
            var texts = self.texts
            var leads = [[UInt8]](repeating: [], count: fieldCount), tails = leads
            // Locals read in the loops, not through properties (a retain per read).
            let folded = ranks.folded, capitalized = ranks.capitalized, shortSeparators = ranks.shortSeparators
            for field in 0..<fieldCount where !fieldItems[field].isEmpty {
                let separators = self.separators[field], separatorEscapes = self.separatorEscapes[field]
                let spellings = self.spellings[field], spellingEscapes = self.spellingEscapes[field]
                var column: [UInt8] = [], fieldLeads: [UInt8] = [], fieldTails: [UInt8] = []
                var separator = 0, separatorEscape = 0, word = 0, spellingEscape = 0
                func appendSeparator() {
                    var index = UInt32(separators[separator])
                    separator += 1
                    if index == UInt32(Self.escape) {
                        index = separatorEscapes[separatorEscape]
                        separatorEscape += 1
                    }
                    let rank = index & Self.spareFlag == 0 ? shortSeparators[Int(index)] : ranks.separators[spare(index & ~Self.spareFlag)]!
                    StoredFormat.appendVarint(UInt64(rank), to: &column)
                }
                for number in fieldItems[field] {
                    let words = catalog.words(of: number, field: field)
                    StoredFormat.appendVarint(UInt64(words.count), to: &column)
                    appendSeparator()
                    for number in words {
                        let rank: UInt32
                        switch spellings[word] {
                        case Kind.folded.rawValue: rank = folded[Int(number)]
                        case Kind.capitalized.rawValue: rank = capitalized[Int(number)]
                        default:
                            rank = ranks.otherSpellings[spare(spellingEscapes[spellingEscape])]!
                            spellingEscape += 1
                        }
                        word += 1
                        WordFrequencyCode.append(rank, leads: &fieldLeads, tails: &fieldTails)
                        appendSeparator()
                    }
                }
                texts[field << 1] = column
                leads[field] = fieldLeads
                tails[field] = fieldTails
            }
            var structure: [UInt8] = []
            structure.reserveCapacity(head.count + texts.reduce(0) { $0 + $1.count } + attributes.count + 16)
            StoredFormat.appendVarint(UInt64(locals.strings.count), to: &structure)
            for string in locals.strings { appendString(string, to: &structure) }
            structure += head
            for column in texts { structure += column }
            structure += attributes
            var words: [UInt8] = []
            StoredFormat.appendVarint(UInt64(leads.reduce(0) { $0 + $1.count }), to: &words)
            for column in leads { words += column }
            for column in tails { words += column }
            var out: [UInt8] = []
            StoredFormat.appendVarint(UInt64(itemCount), to: &out)
            appendDeflated(structure, to: &out)
            let strategy = appendDeflated(words, to: &out, strategy: wordStrategy)
            return (out, strategy)
        }
    }

    /// Appends `raw` as its length, its deflated length and its deflated bytes (none when empty),
    /// compressed with zlib's `strategy` or, when nil, as ``Deflate/compressSmaller(_:)`` does;
    /// returns the strategy used.
    @discardableResult
    static func appendDeflated(_ raw: [UInt8], to out: inout [UInt8], strategy: Int32? = Z_DEFAULT_STRATEGY) -> Int32 {
        let (stored, used) = raw.isEmpty ? ([], strategy ?? Z_DEFAULT_STRATEGY)
            : strategy.map { (Deflate.compress(raw, strategy: $0), $0) } ?? Deflate.compressSmaller(raw)
        StoredFormat.appendVarint(UInt64(raw.count), to: &out)
        StoredFormat.appendVarint(UInt64(stored.count), to: &out)
        out += stored
        return used
    }

    /// Reads what ``appendDeflated(_:to:strategy:)`` wrote and inflates it (nothing is stored for
    /// no bytes).
    static func inflated(_ reader: inout StoredFormat.Reader) throws(StoredFormatError) -> [UInt8] {
        let raw = try reader.varint()
        let length = try reader.count()
        guard raw > 0 || length > 0 else { return [] }
        // Deflate expands by at most about 1032 times; a larger claim is corrupt, not memory to
        // reserve.
        guard raw > 0, raw <= UInt64(length) * 1032 + 64 else { throw .corrupt("bad block") }
        guard let bytes = Deflate.decompress(try reader.bytes(length), count: Int(raw)) else { throw .corrupt("block that does not inflate") }
        return bytes
    }

    /// The items of a version 3, 4 or 5 block read from `reader`, and their words numbered as
    /// `lexicon.numbers` says (the catalog's fields in order, item by item). With `wanted` (by
    /// place in the block, true for the items to make), only those items are made and no words
    /// are numbered; the others are read past and stand as items with no id (a block is read
    /// whole to show a few of its items: a search showing 50 items decodes up to 50 blocks).
    static func decode(_ reader: inout StoredFormat.Reader, tables: Tables, lexicon: CatalogLexicon.Decoding,
                       wanted: [Bool]? = nil) throws(StoredFormatError) -> (items: [CatalogItem], words: FoldedItems) {
        let itemCount = try reader.count()
        guard itemCount > 0 else { throw .corrupt("bad block") }
        let structure = try inflated(&reader), wordBytes = try inflated(&reader)
        var reader = StoredFormat.Reader(bytes: structure, end: structure.count)
        let names = try Names(&reader)
        func isWanted(_ place: Int) -> Bool { Self.isWanted(place, wanted) }
        var items: [CatalogItem] = []
        items.reserveCapacity(itemCount)
        for place in 0..<itemCount {
            guard isWanted(place) else {
                _ = try reader.bytes(try reader.count())
                items.append(CatalogItem(id: ""))
                continue
            }
            items.append(CatalogItem(id: try string(&reader)))
        }
        let texts = try textReferences(&reader, itemCount: itemCount)
        var words = WordFrequencyCode.Reader(wordBytes)
        try words.start()
        let fieldCount = tables.fieldNames.count
        // By item and field: where its words lie in `numbers`.
        var wordRanges = [Range<Int>](repeating: 0..<0, count: itemCount * fieldCount)
        var numbers: [UInt32] = []
        var text: [UInt8] = []
        // Locals read in the loop, not through the lexicon's properties (a retain per read).
        let spellingBytes = lexicon.lexicon.spellingBytes, spellingEnds = lexicon.lexicon.spellingEnds
        let separatorBytes = lexicon.lexicon.separatorBytes, separatorEnds = lexicon.lexicon.separatorEnds
        let placements = lexicon.placements, wordNumbers = lexicon.numbers
        var isTextWanted = true
        func appendSeparator(_ reader: inout StoredFormat.Reader, at placement: CatalogLexicon.Placement) throws(StoredFormatError) {
            let rank = try reader.varint()
            guard rank < UInt64(separatorEnds.count) else { throw .corrupt("bad separator rank") }
            guard placements[Int(rank)].contains(placement) else { throw .corrupt("a separator that joins words") }
            guard isTextWanted else { return }
            // Through a buffer pointer: a slice of the array would retain and release it.
            separatorBytes.withUnsafeBufferPointer { bytes in
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[CatalogLexicon.bounds(of: Int(rank), ends: separatorEnds)]))
            }
        }
        for (reference, item) in texts {
            let field = try names.name(reference, in: tables.fieldNames)
            isTextWanted = isWanted(item)
            let value: String
            if reference & 1 == 0, !isTextWanted {
                // Read past, nothing made or looked up: its separators and words are checked when
                // it is wanted.
                let count = try reader.count()
                try reader.skipVarints(count + 1)
                try words.skip(count)
                continue
            } else if reference & 1 == 0 {
                let count = try reader.count()
                text.removeAll(keepingCapacity: true)
                let start = numbers.count
                try appendSeparator(&reader, at: count == 0 ? [] : .first)
                for index in 0..<count {
                    let rank = try words.next()
                    guard rank < spellingEnds.count else { throw .corrupt("bad word rank") }
                    spellingBytes.withUnsafeBufferPointer { bytes in
                        text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[CatalogLexicon.bounds(of: rank, ends: spellingEnds)]))
                    }
                    numbers.append(wordNumbers[rank])
                    try appendSeparator(&reader, at: index == count - 1 ? .last : .between)
                }
                wordRanges[item * fieldCount + Int(reference >> 1)] = start..<numbers.count
                value = String(decoding: text, as: UTF8.self)
            } else {
                value = try string(&reader)
                guard isTextWanted else { continue }
            }
            guard items[item].fields.updateValue(value, forKey: field) == nil else { throw .corrupt("a field twice") }
        }
        guard words.isAtEnd else { throw .corrupt("words left over in a block") }
        try readAttributes(&reader, into: &items, tables: tables, names: names, wanted: wanted)
        guard reader.position == structure.count else { throw .corrupt("trailing bytes in a block") }
        guard wanted == nil else { return (items, FoldedItems()) }
        var folded = FoldedItems()
        for index in wordRanges.indices {
            folded.append(known: numbers[wordRanges[index]])
            folded.endField()
        }
        return (items, folded)
    }

    /// Whether the item at `place` of a block is to be made: every item when `wanted` is nil,
    /// else those it marks (a place past it, of a block claiming more items, is not).
    private static func isWanted(_ place: Int, _ wanted: [Bool]?) -> Bool { wanted.map { place < $0.count && $0[place] } ?? true }

    /// The (reference, item) of each text, in the order the texts column holds them.
    private static func textReferences(_ reader: inout StoredFormat.Reader, itemCount: Int) throws(StoredFormatError) -> [(reference: UInt64, item: Int)] {
        var texts: [(reference: UInt64, item: Int)] = []
        for item in 0..<itemCount {
            var previous: UInt64? = nil
            for _ in 0..<(try reader.count()) {
                let reference = try reader.varint()
                guard previous.map({ $0 < reference }) ?? true else { throw .corrupt("field names out of order") }
                previous = reference
                texts.append((reference, item))
            }
        }
        texts.sort { ($0.reference, $0.item) < ($1.reference, $1.item) }
        return texts
    }

    /// Moves `reader` past a version 3, 4 or 5 block.
    static func skip(_ reader: inout StoredFormat.Reader) throws(StoredFormatError) {
        _ = try reader.count()
        for _ in 0..<2 {
            _ = try reader.varint()
            _ = try reader.bytes(try reader.count())
        }
    }

    /// Where a version 2 block starts in a reader and what its header says; reading it moves past
    /// the block.
    struct Extent: Sendable {
        var itemCount: Int
        var rawLength: Int
        var stored: Range<Int>

        init(_ reader: inout StoredFormat.Reader) throws(StoredFormatError) {
            itemCount = try reader.count()
            let raw = try reader.varint()
            let length = try reader.count()
            guard itemCount > 0, raw > 0, raw <= UInt64(length) * 1032 + 64 else { throw .corrupt("bad block") }
            rawLength = Int(raw)
            stored = reader.position..<(reader.position + length)
            _ = try reader.bytes(length)
        }
    }

    /// The items of the version 2 block at `extent` of `bytes`.
    static func decodeVersion2(_ bytes: [UInt8], _ extent: Extent, tables: Tables) throws(StoredFormatError) -> [CatalogItem] {
        guard let raw = Deflate.decompress(bytes[extent.stored], count: extent.rawLength) else { throw .corrupt("block that does not inflate") }
        var reader = StoredFormat.Reader(bytes: raw, end: raw.count)
        let names = try Names(&reader)
        var items: [CatalogItem] = []
        items.reserveCapacity(extent.itemCount)
        for _ in 0..<extent.itemCount { items.append(CatalogItem(id: try string(&reader))) }
        for (reference, item) in try textReferences(&reader, itemCount: items.count) {
            guard items[item].fields.updateValue(try string(&reader), forKey: try names.name(reference, in: tables.fieldNames)) == nil else {
                throw .corrupt("a field twice")
            }
        }
        try readAttributes(&reader, into: &items, tables: tables, names: names)
        guard reader.position == raw.count else { throw .corrupt("trailing bytes in a block") }
        return items
    }

    /// A block's local strings, and the names references point to.
    struct Names {
        var locals: [String] = []

        init(_ reader: inout StoredFormat.Reader) throws(StoredFormatError) {
            for _ in 0..<(try reader.count()) { locals.append(try string(&reader)) }
        }

        func name(_ reference: UInt64, in table: [String]) throws(StoredFormatError) -> String {
            let index = Int(clamping: reference >> 1)
            if reference & 1 == 0 {
                guard index < table.count else { throw .corrupt("bad reference") }
                return table[index]
            }
            guard index < locals.count else { throw .corrupt("bad reference") }
            return locals[index]
        }
    }

    /// Reads the attributes column into `items` (those `wanted`, when given).
    private static func readAttributes(_ reader: inout StoredFormat.Reader, into items: inout [CatalogItem], tables: Tables,
                                       names: Names, wanted: [Bool]? = nil) throws(StoredFormatError) {
        for item in items.indices {
            guard isWanted(item, wanted) else {
                for _ in 0..<(try reader.count()) {
                    _ = try reader.varint()
                    for _ in 0..<(try reader.count()) { _ = try reader.varint() }
                }
                continue
            }
            for _ in 0..<(try reader.count()) {
                let attributeReference = try reader.varint()
                let attribute = try names.name(attributeReference, in: tables.attributeNames)
                var values: [String] = []
                for _ in 0..<(try reader.count()) {
                    let reference = try reader.varint()
                    if reference & 1 == 0 {
                        guard reference >> 1 < UInt64(tables.values.count) else { throw .corrupt("bad reference") }
                        let value = tables.values[Int(reference >> 1)]
                        guard UInt64(value.attribute) << 1 == attributeReference else { throw .corrupt("a value of another attribute") }
                        values.append(value.text)
                    } else {
                        values.append(try names.name(reference, in: []))
                    }
                }
                guard items[item].attributes.updateValue(values, forKey: attribute) == nil else { throw .corrupt("an attribute twice") }
            }
        }
    }

    static func appendBytes<Bytes: Collection<UInt8>>(_ bytes: Bytes, to out: inout [UInt8]) {
        StoredFormat.appendVarint(UInt64(bytes.count), to: &out)
        out += bytes
    }

    /// A string's bytes, checked to be UTF-8.
    static func utf8(_ reader: inout StoredFormat.Reader) throws(StoredFormatError) -> [UInt8] {
        let bytes = try reader.bytes(try reader.count())
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .corrupt("text that is not UTF-8") }
        return Array(bytes)
    }

    static func appendString(_ string: String, to out: inout [UInt8]) { appendBytes(string.utf8, to: &out) }

    static func string(_ reader: inout StoredFormat.Reader) throws(StoredFormatError) -> String {
        let bytes = try reader.bytes(try reader.count())
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .corrupt("text that is not UTF-8") }
        return text
    }

    /// A block's own strings, numbered in order of first use.
    private struct LocalStrings: Sendable {
        var strings: [String] = []
        private var numbers: [String: Int] = [:]

        /// The reference to `string` (odd: local), adding it when new.
        mutating func reference(to string: String) -> Int {
            if let number = numbers[string] { return number << 1 | 1 }
            numbers[string] = strings.count
            strings.append(string)
            return (strings.count - 1) << 1 | 1
        }
    }
}
