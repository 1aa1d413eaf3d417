import Dispatch
import TrawlFiles
import TrawlIndex

/// The persisted form of a ``Catalog`` (`.trawl/catalog/catalog`), in the style of the tree index:
///
/// ```
/// header (36 bytes)  "TRAWLCT\0", u32 version = 2, u64 body length, u64 body checksum,
///                    u64 checksum of the 28 bytes before it
/// body               varint field count, then each field: string name, zigzag weight;
///                    string scope attribute ("" for none);
///                    varint attribute count, string names;
///                    varint value count, then each value: varint attribute number, string text;
///                    varint item count, varint block count, then the blocks (CatalogBlock) that
///                    hold the items in insertion order
/// ```
/// Strings are a varint byte count and UTF-8 bytes; checksums are the tree index's FNV-1a. The
/// items are stored, not the word index: loading indexes them again (Bench measures the rate),
/// which keeps the file small and the format independent of the index's layout. Names and
/// attribute values are stored once and referenced by number, and the items go in deflated
/// blocks that are written and read on all cores. Version 1 (every name and value as text in
/// each item, nothing compressed) is still read.
public enum CatalogFormat {
    static let magic: [UInt8] = Array("TRAWLCT\0".utf8)
    public static let version: UInt32 = 2
    static let headerLength = 36

    /// The bytes of `catalog`; its blocks are encoded on all cores.
    public static func encode(_ catalog: Catalog) -> [UInt8] {
        let items = catalog.allItems
        let blockCount = (items.count + CatalogBlock.itemsPerBlock - 1) / CatalogBlock.itemsPerBlock
        let blocks = SlotArray<[UInt8]>(count: blockCount)
        let numbers = CatalogBlock.Numbers(catalog)
        DispatchQueue.concurrentPerform(iterations: blockCount) { block in
            let start = block * CatalogBlock.itemsPerBlock
            var fixed = numbers
            blocks.set(block, CatalogBlock.encode(items[start..<min(items.count, start + CatalogBlock.itemsPerBlock)], numbers: &fixed))
        }
        return assemble(fields: catalog.fields, scopeAttribute: catalog.scopeAttribute, tables: numbers.tables, itemCount: items.count,
                        blocks: (0..<blockCount).map { blocks.take($0)! })
    }

    /// The header and body around encoded blocks.
    static func assemble(fields: [CatalogField], scopeAttribute: String?, tables: CatalogBlock.Tables, itemCount: Int,
                         blocks: [[UInt8]]) -> [UInt8] {
        // The body goes straight after room for the header, which is filled in last: the blocks
        // are most of a large catalog's bytes, and are copied once.
        var stored = [UInt8](repeating: 0, count: headerLength)
        stored.reserveCapacity(headerLength + blocks.reduce(0) { $0 + $1.count } + 64 * (tables.values.count + fields.count + tables.attributeNames.count))
        TreeIndexFormat.appendVarint(UInt64(fields.count), to: &stored)
        for field in fields {
            CatalogBlock.appendString(field.name, to: &stored)
            TreeIndexFormat.appendVarint(UInt64(bitPattern: Int64(field.weight) << 1 ^ Int64(field.weight) >> 63), to: &stored)
        }
        CatalogBlock.appendString(scopeAttribute ?? "", to: &stored)
        TreeIndexFormat.appendVarint(UInt64(tables.attributeNames.count), to: &stored)
        for name in tables.attributeNames { CatalogBlock.appendString(name, to: &stored) }
        TreeIndexFormat.appendVarint(UInt64(tables.values.count), to: &stored)
        for (attribute, text) in tables.values {
            TreeIndexFormat.appendVarint(UInt64(attribute), to: &stored)
            CatalogBlock.appendString(text, to: &stored)
        }
        TreeIndexFormat.appendVarint(UInt64(itemCount), to: &stored)
        TreeIndexFormat.appendVarint(UInt64(blocks.count), to: &stored)
        for block in blocks { stored += block }
        var header = magic
        TreeIndexFormat.appendUInt(UInt64(version), 4, to: &header)
        TreeIndexFormat.appendUInt(UInt64(stored.count - headerLength), 8, to: &header)
        TreeIndexFormat.appendUInt(TreeIndexFormat.checksum(stored[headerLength...]), 8, to: &header)
        TreeIndexFormat.appendUInt(TreeIndexFormat.checksum(header[...]), 8, to: &header)
        stored.replaceSubrange(0..<headerLength, with: header)
        return stored
    }

    /// The catalog `bytes` hold; throws when they are not a catalog, of another version, truncated
    /// or corrupt.
    public static func decode(_ bytes: [UInt8]) throws(TreeIndexFormat.Error) -> Catalog {
        guard bytes.count >= headerLength, Array(bytes[0..<8]) == magic else { throw .notAnIndex }
        let version = UInt32(TreeIndexFormat.readUInt(bytes, 8, 4))
        guard version == 1 || version == Self.version else { throw .unsupportedVersion(version) }
        guard TreeIndexFormat.readUInt(bytes, 28, 8) == TreeIndexFormat.checksum(bytes[0..<28]) else { throw .corrupt("header checksum") }
        let length = TreeIndexFormat.readUInt(bytes, 12, 8)
        guard length == UInt64(bytes.count - headerLength) else { throw .corrupt("truncated") }
        guard TreeIndexFormat.readUInt(bytes, 20, 8) == TreeIndexFormat.checksum(bytes[headerLength...]) else { throw .corrupt("body checksum") }
        var reader = TreeIndexFormat.Reader(bytes: bytes, position: headerLength, end: bytes.count)
        var fields: [CatalogField] = []
        for _ in 0..<(try reader.count()) {
            let name = try CatalogBlock.string(&reader)
            fields.append(CatalogField(name, weight: try reader.zigzag()))
        }
        guard !fields.isEmpty else { throw .corrupt("no fields") }
        let scope = try CatalogBlock.string(&reader)
        let items = version == 1 ? try version1Items(&reader) : try items(&reader, of: bytes, fields: fields)
        guard reader.position == bytes.count else { throw .corrupt("trailing bytes") }
        var catalog = Catalog(fields: fields, items: items)
        catalog.scopeAttribute = scope.isEmpty ? nil : scope
        return catalog
    }

    private static func items(_ reader: inout TreeIndexFormat.Reader, of bytes: [UInt8], fields: [CatalogField]) throws(TreeIndexFormat.Error) -> [CatalogItem] {
        var tables = CatalogBlock.Tables(fieldNames: fields.map(\.name), attributeNames: [], values: [])
        for _ in 0..<(try reader.count()) { tables.attributeNames.append(try CatalogBlock.string(&reader)) }
        for _ in 0..<(try reader.count()) {
            let attribute = try reader.varint()
            guard attribute < UInt64(tables.attributeNames.count) else { throw .corrupt("a value of no attribute") }
            tables.values.append((Int(attribute), try CatalogBlock.string(&reader)))
        }
        let itemCount = try reader.varint()
        var extents: [CatalogBlock.Extent] = []
        for _ in 0..<(try reader.count()) { extents.append(try CatalogBlock.Extent(&reader)) }
        guard itemCount == UInt64(extents.reduce(0) { $0 + $1.itemCount }) else { throw .corrupt("item count") }
        let blocks = SlotArray<Result<[CatalogItem], TreeIndexFormat.Error>>(count: extents.count)
        DispatchQueue.concurrentPerform(iterations: extents.count) { [tables, extents] block in
            blocks.set(block, Result { () throws(TreeIndexFormat.Error) in try CatalogBlock.decode(bytes, extents[block], tables: tables) })
        }
        var items: [CatalogItem] = []
        items.reserveCapacity(Int(itemCount))
        for block in extents.indices { items += try blocks.take(block)!.get() }
        return items
    }

    /// Version 1: each item with its names and values as text.
    private static func version1Items(_ reader: inout TreeIndexFormat.Reader) throws(TreeIndexFormat.Error) -> [CatalogItem] {
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
