import Dispatch
import TrawlStorage
import TrawlConcurrency

/// The persisted form of a ``Catalog`` (`.trawl/catalog/catalog`), in the style of the tree index:
///
/// ```
/// header (36 bytes)  "TRAWLCT\0", u32 version = 3, u64 body length, u64 body checksum,
///                    u64 checksum of the 28 bytes before it
/// body               varint field count, then each field: string name, zigzag weight;
///                    string scope attribute ("" for none);
///                    varint attribute count, string names;
///                    varint value count, then each value: varint attribute number, string text;
///                    the lexicon (CatalogLexicon);
///                    varint item count, varint block count, then the blocks (CatalogBlock) that
///                    hold the items in insertion order
/// ```
/// Strings are a varint byte count and UTF-8 bytes; checksums are the tree index's FNV-1a. The
/// items are stored, not the word index: the searched texts as the ranks of their words and
/// separators in the lexicon, so that loading numbers their words without reading the text again
/// and builds the rest of the index from them, and the file stays about the size of the text's
/// entropy. Names and attribute values are stored once and referenced by number; the blocks are
/// written and read on all cores. Versions 1 (every name and value as text in each item, nothing
/// compressed) and 2 (each block's text deflated) are still read.
public enum CatalogFormat {
    static let magic: [UInt8] = Array("TRAWLCT\0".utf8)
    /// The format version this Trawl writes (older versions still load).
    public static let version: UInt32 = 3
    static let headerLength = 36

    /// A stored catalog's bytes in the parts they were made in: the header and everything before
    /// the blocks, then each block. Written one after another they are the file, which a large
    /// catalog need not copy into one array first (a hundred megabytes of fresh memory for 1M
    /// items, a tenth of their build).
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

    /// The bytes of `catalog` in the parts they were made in.
    public static func encoded(_ catalog: Catalog) -> Encoded {
        let numbers = catalog.liveNumbersInOrder
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
        // The header goes first, filled in last; the blocks are most of a large catalog's bytes,
        // and stay in the arrays they were made in.
        let tables = CatalogBlock.Tables(catalog)
        var stored = [UInt8](repeating: 0, count: headerLength)
        StoredFormat.appendVarint(UInt64(catalog.fields.count), to: &stored)
        for field in catalog.fields {
            CatalogBlock.appendString(field.name, to: &stored)
            StoredFormat.appendVarint(UInt64(bitPattern: Int64(field.weight) << 1 ^ Int64(field.weight) >> 63), to: &stored)
        }
        CatalogBlock.appendString(catalog.scopeAttribute ?? "", to: &stored)
        StoredFormat.appendVarint(UInt64(tables.attributeNames.count), to: &stored)
        for name in tables.attributeNames { CatalogBlock.appendString(name, to: &stored) }
        StoredFormat.appendVarint(UInt64(tables.values.count), to: &stored)
        for (attribute, text) in tables.values {
            StoredFormat.appendVarint(UInt64(attribute), to: &stored)
            CatalogBlock.appendString(text, to: &stored)
        }
        lexicon.append(to: &stored)
        StoredFormat.appendVarint(UInt64(numbers.count), to: &stored)
        StoredFormat.appendVarint(UInt64(blockCount), to: &stored)
        let blockBytes = (0..<blockCount).map { blocks.take($0)! }
        var checksum = StoredFormat.Checksum()
        checksum.add(stored[headerLength...])
        for block in blockBytes { checksum.add(block[...]) }
        var header = magic
        StoredFormat.appendUInt(UInt64(version), 4, to: &header)
        StoredFormat.appendUInt(UInt64(stored.count - headerLength + blockBytes.reduce(0) { $0 + $1.count }), 8, to: &header)
        StoredFormat.appendUInt(checksum.value, 8, to: &header)
        StoredFormat.appendUInt(StoredFormat.checksum(header[...]), 8, to: &header)
        stored.replaceSubrange(0..<headerLength, with: header)
        return Encoded(parts: [stored] + blockBytes, count: numbers.count)
    }

    /// The bytes ``encode(_:)`` gives `Catalog(fields: fields, items: items)` with
    /// `scopeAttribute`, made without the word index that a search reads and a load builds again
    /// (a fifth of a large build), and how many items they hold (a later item with an id already
    /// seen replaces the earlier one). `expectedCount`, about how many items there are when
    /// `items` cannot say (a sequence made as it is read), lets the catalog make room for them
    /// at once instead of growing a dozen times.
    public static func encode<Items: Sequence<CatalogItem>>(_ items: Items, fields: [CatalogField], scopeAttribute: String?,
                                                           expectedCount: Int = 0) -> Encoded {
        var catalog = Catalog(fields: fields, storingOnly: items, expecting: expectedCount)
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
        guard header.count >= headerLength, Array(header[0..<8]) == magic else { throw .notAnIndex }
        let version = UInt32(StoredFormat.readUInt(header, 8, 4))
        guard (1...Self.version).contains(version) else { throw .unsupportedVersion(version) }
        guard StoredFormat.readUInt(header, 28, 8) == StoredFormat.checksum(header[0..<28]) else { throw .corrupt("header checksum") }
        guard StoredFormat.readUInt(header, 12, 8) == UInt64(fileSize - headerLength) else { throw .corrupt("truncated") }
    }

    /// The catalog `bytes` hold; throws when they are not a catalog, of another version, truncated
    /// or corrupt.
    public static func decode(_ bytes: [UInt8]) throws(StoredFormatError) -> Catalog {
        try checkHeader(bytes, fileSize: bytes.count)
        let version = UInt32(StoredFormat.readUInt(bytes, 8, 4))
        guard StoredFormat.readUInt(bytes, 20, 8) == StoredFormat.checksum(bytes[headerLength...]) else { throw .corrupt("body checksum") }
        var reader = StoredFormat.Reader(bytes: bytes, position: headerLength, end: bytes.count)
        var fields: [CatalogField] = []
        for _ in 0..<(try reader.count()) {
            let name = try CatalogBlock.string(&reader)
            fields.append(CatalogField(name, weight: try reader.zigzag()))
        }
        guard !fields.isEmpty else { throw .corrupt("no fields") }
        let scope = try CatalogBlock.string(&reader)
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
        for _ in 0..<(try reader.count()) {
            var item = CatalogItem(id: try CatalogBlock.string(&reader))
            for _ in 0..<(try reader.count()) {
                let name = try CatalogBlock.string(&reader)
                item.fields[name] = try CatalogBlock.string(&reader)
            }
            for _ in 0..<(try reader.count()) {
                let name = try CatalogBlock.string(&reader)
                var values: [String] = []
                for _ in 0..<(try reader.count()) { values.append(try CatalogBlock.string(&reader)) }
                item.attributes[name] = values
            }
            items.append(item)
        }
        return items
    }
}
