import Dispatch
import TrawlStorage
import TrawlConcurrency

/// The persisted form of a ``Catalog`` (`.trawl/catalog/catalog`), in the style of the tree index:
///
/// ```
/// header (36 bytes)  "TRAWLCT\0", u32 version = 6, u64 body length, u64 checksum of the
///                    section table, u64 checksum of the 28 bytes before it
/// body               4 zero bytes, then sections (StoredSections: a table of offsets, lengths
///                    and checksums, each section 8-byte aligned):
///   tables           varint field count, then each field: string name, zigzag weight;
///                    string scope attribute ("" for none); varint attribute count, string
///                    names; varint value count, then each value: varint attribute number,
///                    string text; varint internal numbers, live items, next insertion order,
///                    numbers at the last choice of prefix lists, words, words of all items
///   lexicon          the lexicon (CatalogLexicon)
///   blocks           the live items in number order, in blocks (CatalogBlock), back to back
///   block ends       u64 per block; block checksums: u64 per block
///   ids              the ids in byte order with their internal numbers (StoredIDs)
///   word index       laid out to be read where it lies (StoredIndex):
///     forward        where each item's record starts (RecordStarts, grouped); the records, each
///                    the word count of every field then the words (varints); u8 length of
///                    each item (255: read the record)
///     orders         (number, order) varint pairs of the items whose insertion order is not
///                    their number; the retired numbers (ascending varints)
///     postings       per word: u32 running posting counts, then u32 byte starts (InPlaceLists),
///                    then the lists as gaps in packed blocks of 128 (PackedGaps); their field
///                    tags in the fewest bits that hold them (PackedTags)
///     facets         the columns (u32 count, then per attribute u32 width, u64 offset; each
///                    column a value number plus one per item, 1, 2 or 4 bytes); the values of
///                    attributes with no column (varints, bounds); the items by value (as the
///                    postings)
///     vocabulary     bytes, starts, byte order
///     prefix lists   keys, the lists (as the postings), tags, each word's lists
/// ```
/// Strings are a varint byte count and UTF-8 bytes; the header's checksums are the tree index's
/// FNV-1a, the sections' FNV-1a in four lanes (`StoredFormat.WideChecksum`, checked at the
/// first read of a section);
/// integers are little-endian; ascending varints are stored as gaps. Opening a catalog reads the
/// small sections (the vocabulary, with its trie built from the stored byte order, the retired
/// numbers, the moved orders, the prefix keys) and leaves the forward index, the postings, the
/// facets and the prefix lists where they lie in the mapped file: each is checked (checksum,
/// sizes) when first read, and each record or list again when decoded. Nothing is split,
/// folded, posted or sorted. The items stay in the file until shown (`StoredItems`), each block
/// checked against its own checksum then. The searched texts are stored as the ranks of their
/// words and separators in the lexicon, so the blocks stay about the size of the text's entropy.
/// Versions 1 (every name and value as text in each item, nothing compressed), 2 (each block's
/// text deflated), 3 (the items alone, with no word index) and 4 (the items as here, with a word
/// index that was decoded whole when read) are still read, and indexed again as they are read.
/// Version 5 (each list's gaps as varints, tags at most two a byte, a u32 start per record) is
/// read in place as version 6 is.
public enum CatalogFormat {
    static let magic: [UInt8] = Array("TRAWLCT\0".utf8)
    /// The format version this Trawl writes (older versions still load).
    public static let version: UInt32 = 6
    static let headerLength = StoredHeader.length

    /// A stored catalog's bytes in the parts they were made in: the header, the section table,
    /// then the sections (each block a part of its own). Written one after another they are the
    /// file, which a large catalog need not copy into one array first (a hundred megabytes of
    /// fresh memory for 1M items, a tenth of their build).
    public struct Encoded: Sendable {
        /// The stored bytes, in parts written back to back (not copied into one array).
        public let parts: [[UInt8]]
        /// How many items they hold.
        public let count: Int

        /// The parts back to back.
        public var bytes: [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(parts.reduce(0) { $0 + $1.count })
            for part in parts { bytes += part }
            return bytes
        }
    }

    /// The bytes of `catalog`; its words are counted and its blocks encoded on all cores.
    public static func encode(_ catalog: Catalog) -> [UInt8] { encoded(catalog).bytes }

    /// The sections of versions 5 and 6, in order (see the layout above).
    enum Section {
        static let tables = 0, lexicon = 1, blocks = 2, blockEnds = 3, blockChecksums = 4, ids = 5
        static let index = ids + 1
        static let count = index + Catalog.indexSectionCount
        /// How many sections version 4 had (its items as here, then 15 of its word index).
        static let version4Count = index + 15
    }

    /// The bytes of `catalog` in the parts they were made in.
    public static func encoded(_ catalog: Catalog) -> Encoded {
        var catalog = catalog
        catalog.materializeIndex()
        if catalog.indexNeedsRebuild { catalog.indexAgainFromItems() }
        // Blocks hold the live items in number order, so that an item's block follows from its
        // number when it is read.
        let numbers = catalog.isLive.indices.filter { catalog.isLive[$0] }.map(UInt32.init)
        catalog.prepareItems(numbers.map { Int($0) })
        guard let (lexicon, blocks) = encodedItems(catalog, numbers: numbers) else {
            // An index read from a damaged file that does not give the items' texts their words:
            // the items are indexed again.
            var rebuilt = Catalog(fields: catalog.fields, items: catalog.allItems)
            rebuilt.scopeAttribute = catalog.scopeAttribute
            rebuilt.prefixPostingsMinimum = catalog.prefixPostingsMinimum
            return encoded(rebuilt)
        }
        var tables: [UInt8] = []
        appendTables(of: catalog, to: &tables)
        var writer = StoredSections.Writer(wideChecksums: true)
        writer.append(tables)
        writer.append(lexicon)
        writer.append(parts: blocks)
        var blockEnd: UInt64 = 0
        writer.append(values: blocks.map { block in
            blockEnd += UInt64(block.count)
            return blockEnd
        })
        writer.append(values: blocks.map { StoredFormat.checksum($0[...]) })
        writer.append(StoredIDs.encoded(of: catalog))
        catalog.appendIndexSections(to: &writer)
        precondition(writer.count == Section.count, "the sections of version 6")
        let body = writer.parts
        let header = StoredHeader(version: version, first: UInt64(4 + body.reduce(0) { $0 + $1.count }),
                                  second: StoredFormat.checksum(body[0][...])).bytes(magic: magic)
        return Encoded(parts: [header + [0, 0, 0, 0]] + body, count: numbers.count)
    }

    /// The fields, the scope attribute, the attribute names and values, then the counts the
    /// index is read with (``Catalog/IndexCounts``).
    private static func appendTables(of catalog: Catalog, to stored: inout [UInt8]) {
        StoredFormat.appendVarint(UInt64(catalog.fields.count), to: &stored)
        for field in catalog.fields {
            CatalogBlock.appendString(field.name, to: &stored)
            StoredFormat.appendVarint(UInt64(bitPattern: Int64(field.weight) << 1 ^ Int64(field.weight) >> 63), to: &stored)
        }
        CatalogBlock.appendString(catalog.scopeAttribute ?? "", to: &stored)
        let tables = CatalogBlock.Tables(catalog)
        StoredFormat.appendVarint(UInt64(tables.attributeNames.count), to: &stored)
        for name in tables.attributeNames { CatalogBlock.appendString(name, to: &stored) }
        StoredFormat.appendVarint(UInt64(tables.values.count), to: &stored)
        for (attribute, text) in tables.values {
            StoredFormat.appendVarint(UInt64(attribute), to: &stored)
            CatalogBlock.appendString(text, to: &stored)
        }
        let counts = catalog.indexCounts
        for count in [counts.slots, counts.live, counts.nextOrder, counts.prefixChosenAt, counts.words, counts.wordOccurrences] { StoredFormat.appendVarint(UInt64(count), to: &stored) }
    }

    /// The lexicon and the blocks of the items numbered `numbers` of `catalog`, in that order;
    /// nil when the forward index does not give every text its words (a damaged file's).
    private static func encodedItems(_ catalog: Catalog, numbers: [UInt32]) -> (lexicon: [UInt8], blocks: [[UInt8]])? {
        let blockCount = (numbers.count + CatalogBlock.itemsPerBlock - 1) / CatalogBlock.itemsPerBlock
        /// The numbers of the items of block `block`.
        @Sendable func itemNumbers(ofBlock block: Int) -> ArraySlice<UInt32> {
            numbers[(block * CatalogBlock.itemsPerBlock)..<min(numbers.count, (block + 1) * CatalogBlock.itemsPerBlock)]
        }
        // The blocks are drafted while the lexicon is counted, in parts of a few blocks with a
        // tally each.
        let drafts = SlotArray<CatalogBlock.Draft>(count: blockCount)
        let parts = max(1, min(blockCount / 4, 16))
        let tallies = SlotArray<CatalogLexicon.Tally>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var tally = CatalogLexicon.Tally(vocabularyCount: catalog.vocabulary.count)
            for block in (part * blockCount / parts)..<((part + 1) * blockCount / parts) {
                drafts.set(block, CatalogBlock.Draft(itemNumbers(ofBlock: block), of: catalog, tally: &tally))
            }
            tallies.set(part, tally)
        }
        guard (0..<blockCount).allSatisfy({ drafts.value(at: $0)?.isConsistent ?? true }) else { return nil }
        var tally = tallies.take(0)!
        for part in 1..<parts { tally.add(tallies.take(part)!) }
        let (lexicon, ranks) = CatalogLexicon.ranking(tally, vocabulary: catalog.vocabulary)
        let blocks = SlotArray<[UInt8]>(count: blockCount)
        @Sendable func encode(block: Int, wordStrategy: Int32?) -> Int32 {
            let (bytes, strategy) = drafts.take(block)!.encoded(of: catalog, ranks: ranks, wordStrategy: wordStrategy)
            blocks.set(block, bytes)
            return strategy
        }
        // The first block tries both ways of compressing its words and the others take the
        // smaller one: a catalog's texts are alike throughout, and trying both in every block
        // was a tenth of storing a large catalog.
        if blockCount > 0 {
            let wordStrategy = encode(block: 0, wordStrategy: nil)
            DispatchQueue.concurrentPerform(iterations: blockCount - 1) { block in _ = encode(block: block + 1, wordStrategy: wordStrategy) }
        }
        var lexiconBytes: [UInt8] = []
        lexicon.append(to: &lexiconBytes)
        return (lexiconBytes, (0..<blockCount).map { blocks.take($0)! })
    }

    /// The bytes ``encode(_:)`` gives `Catalog(fields: fields, items: items)` with
    /// `scopeAttribute`, and how many items they hold (a later item with an id already seen
    /// replaces the earlier one). `expectedCount`, about how many items there are when `items`
    /// cannot say (a sequence made as it is read), lets the catalog make room for them at once
    /// instead of growing a dozen times.
    public static func encode<Items: Sequence<CatalogItem>>(_ items: Items, fields: [CatalogField], scopeAttribute: String?,
                                                           expectedCount: Int = 0) -> Encoded {
        var catalog = Catalog(fields: fields, items: items, expecting: expectedCount)
        catalog.scopeAttribute = scopeAttribute
        let encoded = encoded(catalog)
        // Freed on another thread: freeing a large catalog takes a noticeable time, which the
        // caller (writing the bytes, often about to exit) need not wait for.
        DispatchQueue.global().async { [catalog] in withExtendedLifetime(catalog) {} }
        return encoded
    }

    /// Checks a stored catalog's `header` (its first bytes) against the size of the file it
    /// starts: magic, version, its own checksum, and a body length that is the rest of the file.
    static func checkHeader(_ header: [UInt8], fileSize: Int) throws(StoredFormatError) {
        guard try StoredHeader(checking: header, magic: magic, versions: 1...version).first == UInt64(fileSize - headerLength) else { throw .corrupt("truncated") }
    }

    /// The catalog `bytes` hold; throws when they are not a catalog, of another version, truncated
    /// or corrupt.
    public static func decode(_ bytes: [UInt8]) throws(StoredFormatError) -> Catalog { try decode(FileBytes(bytes)) }

    /// The catalog `file` holds (kept, mapped or read, while the catalog's items are read from
    /// it); throws when it is not a catalog, of another version, truncated or corrupt. Versions 5
    /// and 6 are read where they lie; older versions are indexed again.
    package static func decode(_ file: FileBytes) throws(StoredFormatError) -> Catalog {
        let (version, count) = try file.withBytes { bytes in
            Result { () throws(StoredFormatError) in
                try checkHeader(Array(bytes.prefix(headerLength)), fileSize: bytes.count)
                return (UInt32(StoredFormat.readUInt(UnsafeRawBufferPointer(bytes), 8, 4)), bytes.count)
            }
        }.get()
        guard version >= 4 else { return try decodeIndexingAgain(file.withBytes { Array($0) }, version: version) }
        return try file.withBytes { bytes in Result { () throws(StoredFormatError) in
            let raw = UnsafeRawBufferPointer(bytes)
            guard count >= headerLength + 4 else { throw .corrupt("truncated") }
            let body = UnsafeRawBufferPointer(rebasing: raw[(headerLength + 4)...])
            let sectionCount = version == 4 ? Section.version4Count : Section.count
            let reader = try StoredSections.Reader(body: body, expected: sectionCount, wideChecksums: version >= 5)
            guard StoredFormat.readUInt(raw, 20, 8) == StoredFormat.checksum(UnsafeRawBufferPointer(rebasing: body[0..<(8 + 24 * sectionCount)])) else {
                throw .corrupt("section table checksum")
            }
            let tableBytes = try reader.array(Section.tables)
            var tables = StoredFormat.Reader(bytes: tableBytes, end: tableBytes.count)
            let (fields, scope) = try fieldsAndScope(&tables)
            let itemTables = try self.tables(&tables, fields: fields)
            var catalog = try Catalog(fields: fields, values: itemTables)
            catalog.scopeAttribute = scope.isEmpty ? nil : scope
            // Counts of things stored elsewhere, each checked against them (`count()` would check
            // them against the bytes left here).
            let counts = Catalog.IndexCounts(slots: Int(clamping: try tables.varint()), live: Int(clamping: try tables.varint()),
                                             nextOrder: Int(clamping: try tables.varint()), prefixChosenAt: Int(clamping: try tables.varint()),
                                             words: Int(clamping: try tables.varint()),
                                             wordOccurrences: version == 4 ? 0 : Int(clamping: try tables.varint()))
            guard tables.position == tableBytes.count else { throw .corrupt("trailing bytes in the tables") }
            guard version >= 5 else {
                // Version 4: its live items, in number order, indexed again.
                return try indexingAgain(reader, file: file, fields: fields, scope: scope, tables: itemTables, live: counts.live)
            }
            try catalog.openIndexSections(reader, file: file, bodyOffset: headerLength + 4, first: Section.index, counts: counts,
                                          layout: StoredIndex.Layout(version: version))
            catalog.storedIDs = StoredIDs(stored: try reader.array(Section.ids), slotCount: counts.slots)
            // The items stay where they are: where the lexicon and each block lie in the file.
            catalog.storedItems = try storedItems(reader, file: file, isLive: catalog.isLive, tables: itemTables)
            catalog.finishLoading()
            return catalog
        } }.get()
    }

    /// The items of a stored catalog, where its lexicon and blocks lie in `file`, for the
    /// internal numbers `isLive` marks.
    private static func storedItems(_ reader: StoredSections.Reader, file: FileBytes, isLive: [Bool],
                                    tables: CatalogBlock.Tables) throws(StoredFormatError) -> StoredItems {
        let offset = headerLength + 4
        let lexicon = reader.range(Section.lexicon), blocks = reader.range(Section.blocks)
        let blockEnds = try reader.values(Section.blockEnds, as: UInt64.self)
        var blockRanges: [Range<Int>] = []
        var start: UInt64 = 0
        for end in blockEnds {
            guard end > start, end <= UInt64(blocks.count) else { throw .corrupt("item blocks") }
            blockRanges.append((offset + blocks.lowerBound + Int(start))..<(offset + blocks.lowerBound + Int(end)))
            start = end
        }
        return try StoredItems(file: file, lexiconRange: (offset + lexicon.lowerBound)..<(offset + lexicon.upperBound), blockRanges: blockRanges,
                               blockChecksums: try reader.values(Section.blockChecksums, as: UInt64.self, count: blockRanges.count),
                               isLive: isLive, tables: tables)
    }

    /// A version 4 catalog of `live` items: its items read from their blocks and indexed again.
    private static func indexingAgain(_ reader: StoredSections.Reader, file: FileBytes, fields: [CatalogField], scope: String,
                                      tables: CatalogBlock.Tables, live: Int) throws(StoredFormatError) -> Catalog {
        let items = try storedItems(reader, file: file, isLive: [Bool](repeating: true, count: live), tables: tables)
        items.prepare(Array(0..<live))
        var catalog = Catalog(fields: fields, items: (0..<live).map { items.item($0) })
        catalog.scopeAttribute = scope.isEmpty ? nil : scope
        return catalog
    }

    /// The fields and the scope attribute ("" for none), first in every version.
    private static func fieldsAndScope(_ reader: inout StoredFormat.Reader) throws(StoredFormatError) -> ([CatalogField], String) {
        var fields: [CatalogField] = []
        for _ in 0..<(try reader.count()) {
            let name = try CatalogBlock.string(&reader)
            fields.append(CatalogField(name, weight: try reader.zigzag()))
        }
        guard !fields.isEmpty, Set(fields.map(\.name)).count == fields.count else { throw .corrupt("fields") }
        return (fields, try CatalogBlock.string(&reader))
    }

    /// A catalog of version 1 to 3, which store the items and not the word index: indexed again.
    private static func decodeIndexingAgain(_ bytes: [UInt8], version: UInt32) throws(StoredFormatError) -> Catalog {
        guard StoredFormat.readUInt(bytes, 20, 8) == StoredFormat.checksum(bytes[headerLength...]) else { throw .corrupt("body checksum") }
        var reader = StoredFormat.Reader(bytes: bytes, position: headerLength, end: bytes.count)
        let (fields, scope) = try fieldsAndScope(&reader)
        var catalog: Catalog
        switch version {
        case 1: catalog = Catalog(fields: fields, items: try version1Items(&reader))
        case 2: catalog = Catalog(fields: fields, items: try version2Items(&reader, of: bytes, tables: try tables(&reader, fields: fields)))
        default: catalog = try stored(&reader, of: bytes, fields: fields, tables: try tables(&reader, fields: fields))
        }
        guard reader.position == bytes.count else { throw .corrupt("trailing bytes") }
        catalog.scopeAttribute = scope.isEmpty ? nil : scope
        return catalog
    }

    /// The attribute names and values, after the fields.
    private static func tables(_ reader: inout StoredFormat.Reader, fields: [CatalogField]) throws(StoredFormatError) -> CatalogBlock.Tables {
        var tables = CatalogBlock.Tables(fieldNames: fields.map(\.name), attributeNames: [], values: [])
        for _ in 0..<(try reader.count()) { tables.attributeNames.append(try CatalogBlock.string(&reader)) }
        for _ in 0..<(try reader.count()) {
            let attribute = try reader.varint()
            guard attribute < UInt64(tables.attributeNames.count) else { throw .corrupt("a value of no attribute") }
            tables.values.append((Int(attribute), try CatalogBlock.string(&reader)))
        }
        return tables
    }

    /// Version 3: the lexicon, then blocks decoded on all cores into items with their words
    /// numbered, indexed in order.
    private static func stored(_ reader: inout StoredFormat.Reader, of bytes: [UInt8], fields: [CatalogField],
                               tables: CatalogBlock.Tables) throws(StoredFormatError) -> Catalog {
        let lexicon = try CatalogLexicon.decode(&reader)
        let itemCount = try reader.varint()
        var starts: [Int] = []
        for _ in 0..<(try reader.count()) {
            starts.append(reader.position)
            try CatalogBlock.skip(&reader)
        }
        starts.append(reader.position)
        let blocks = SlotArray<Result<(items: [CatalogItem], words: FoldedItems), StoredFormatError>>(count: starts.count - 1)
        DispatchQueue.concurrentPerform(iterations: starts.count - 1) { [starts] block in
            blocks.set(block, Result { () throws(StoredFormatError) in
                var reader = StoredFormat.Reader(bytes: bytes, position: starts[block], end: starts[block + 1])
                return try CatalogBlock.decode(&reader, tables: tables, lexicon: lexicon)
            })
        }
        var decoded: [(items: [CatalogItem], words: FoldedItems)] = []
        for block in 0..<(starts.count - 1) { decoded.append(try blocks.take(block)!.get()) }
        guard itemCount == UInt64(decoded.reduce(0) { $0 + $1.items.count }) else { throw .corrupt("item count") }
        return Catalog(fields: fields, vocabulary: lexicon.vocabulary, blocks: decoded)
    }

    /// Version 2: blocks of items whose texts are deflated as they are.
    private static func version2Items(_ reader: inout StoredFormat.Reader, of bytes: [UInt8],
                                      tables: CatalogBlock.Tables) throws(StoredFormatError) -> [CatalogItem] {
        let itemCount = try reader.varint()
        var extents: [CatalogBlock.Extent] = []
        for _ in 0..<(try reader.count()) { extents.append(try CatalogBlock.Extent(&reader)) }
        guard itemCount == UInt64(extents.reduce(0) { $0 + $1.itemCount }) else { throw .corrupt("item count") }
        let blocks = SlotArray<Result<[CatalogItem], StoredFormatError>>(count: extents.count)
        DispatchQueue.concurrentPerform(iterations: extents.count) { [tables, extents] block in
            blocks.set(block, Result { () throws(StoredFormatError) in try CatalogBlock.decodeVersion2(bytes, extents[block], tables: tables) })
        }
        var items: [CatalogItem] = []
        items.reserveCapacity(Int(itemCount))
        for block in extents.indices { items += try blocks.take(block)!.get() }
        return items
    }

    /// Version 1: each item with its names and values as text.
    private static func version1Items(_ reader: inout StoredFormat.Reader) throws(StoredFormatError) -> [CatalogItem] {
        var items: [CatalogItem] = []
        for _ in 0..<(try reader.count()) { items.append(try CatalogChanges.item(&reader)) }
        return items
    }
}
