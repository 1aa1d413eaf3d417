import TrawlStorage

/// The changes made to a stored catalog since it was last written whole (`FOLDER/changes`): the
/// items upserted and the ids deleted, in order, applied when the catalog is opened.
///
/// ```
/// header (36 bytes)  "TRAWLCC\0", u32 version = 1, u64 body length, u64 body checksum,
///                    u64 checksum of the 28 bytes before it
/// body               u64 the base it applies to (bytes 28..<36 of the catalog file: its
///                    header's checksum, which covers every checksum of its content);
///                    varint change count, then each change: byte 1 and an item as text
///                    (``append(_:to:)``), or byte 2 and a string id (deleted)
/// ```
/// A few changes cost a file of their size, not a catalog written again; the changes are written
/// into the catalog once they are large beside it (``CatalogStore/upsert(_:in:)``). Changes for
/// another base (the catalog was written whole since) are not applied: the catalog holds them.
struct CatalogChanges: Sendable, Equatable {
    enum Change: Sendable, Equatable {
        case upsert(CatalogItem)
        case delete(String)
    }

    static let magic: [UInt8] = Array("TRAWLCC\0".utf8)
    static let version: UInt32 = 1

    /// The header checksum of the catalog file they apply to.
    var base: UInt64
    var changes: [Change] = []

    /// Checks the header of a changes file of `fileSize` bytes (its first bytes are `header`).
    @discardableResult
    static func checkHeader(_ header: [UInt8], fileSize: Int) throws(StoredFormatError) -> StoredHeader {
        let checked = try StoredHeader(checking: header, magic: magic, versions: version...version)
        guard checked.first == UInt64(fileSize - StoredHeader.length) else { throw .corrupt("truncated") }
        return checked
    }

    /// The stored bytes.
    var encoded: [UInt8] {
        var body: [UInt8] = []
        StoredFormat.appendUInt(base, 8, to: &body)
        StoredFormat.appendVarint(UInt64(changes.count), to: &body)
        for change in changes {
            switch change {
            case .upsert(let item):
                body.append(1)
                Self.append(item, to: &body)
            case .delete(let id):
                body.append(2)
                CatalogBlock.appendString(id, to: &body)
            }
        }
        return StoredHeader(version: Self.version, first: UInt64(body.count), second: StoredFormat.checksum(body[...])).bytes(magic: Self.magic) + body
    }

    init(base: UInt64, changes: [Change] = []) {
        self.base = base
        self.changes = changes
    }

    /// The changes `bytes` hold; throws when they are not changes, of another version, truncated
    /// or corrupt.
    init(decoding bytes: [UInt8]) throws(StoredFormatError) {
        let header = try Self.checkHeader(bytes, fileSize: bytes.count)
        guard header.second == StoredFormat.checksum(bytes[StoredHeader.length...]) else { throw .corrupt("body checksum") }
        var reader = StoredFormat.Reader(bytes: bytes, position: StoredHeader.length, end: bytes.count)
        base = try reader.uint64()
        for _ in 0..<(try reader.count()) {
            switch try reader.byte() {
            case 1: changes.append(.upsert(try Self.item(&reader)))
            case 2: changes.append(.delete(try CatalogBlock.string(&reader)))
            default: throw .corrupt("a change of no kind")
            }
        }
        guard reader.position == bytes.count else { throw .corrupt("trailing bytes") }
    }

    /// Appends `item` as text: string id, varint field count, each: string name, string text;
    /// varint attribute count, each: string name, varint value count, string values (names in
    /// order). Catalog format 1 stored its items so too.
    static func append(_ item: CatalogItem, to out: inout [UInt8]) {
        CatalogBlock.appendString(item.id, to: &out)
        StoredFormat.appendVarint(UInt64(item.fields.count), to: &out)
        for (name, text) in item.fields.sorted(by: { $0.key < $1.key }) {
            CatalogBlock.appendString(name, to: &out)
            CatalogBlock.appendString(text, to: &out)
        }
        StoredFormat.appendVarint(UInt64(item.attributes.count), to: &out)
        for (name, values) in item.attributes.sorted(by: { $0.key < $1.key }) {
            CatalogBlock.appendString(name, to: &out)
            StoredFormat.appendVarint(UInt64(values.count), to: &out)
            for value in values { CatalogBlock.appendString(value, to: &out) }
        }
    }

    /// The item ``append(_:to:)`` wrote at `reader`.
    static func item(_ reader: inout StoredFormat.Reader) throws(StoredFormatError) -> CatalogItem {
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
        return item
    }

    /// Applies the changes to `catalog`, in order (runs of upserts at once).
    func apply(to catalog: inout Catalog) {
        var pending: [CatalogItem] = []
        for change in changes {
            switch change {
            case .upsert(let item): pending.append(item)
            case .delete(let id):
                catalog.upsert(contentsOf: pending)
                pending.removeAll()
                catalog.delete(id: id)
            }
        }
        catalog.upsert(contentsOf: pending)
    }
}
