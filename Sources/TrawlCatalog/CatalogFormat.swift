#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlFiles
import TrawlIndex

/// The persisted form of a ``Catalog`` (`.trawl/catalog/catalog`), in the style of the tree index:
///
/// ```
/// header (36 bytes)  "TRAWLCT\0", u32 version = 1, u64 body length, u64 body checksum,
///                    u64 checksum of the 28 bytes before it
/// body               varint field count, then each field: string name, zigzag weight;
///                    string scope attribute ("" for none);
///                    varint item count, then each item in insertion order: string id,
///                    varint field count, (string name, string text) each,
///                    varint attribute count, (string name, varint value count, string values) each
/// ```
/// Strings are a varint byte count and UTF-8 bytes; checksums are the tree index's FNV-1a. The
/// items are stored, not the word index: loading indexes them again (Bench measures the rate),
/// which keeps the file small and the format independent of the index's layout.
public enum CatalogFormat {
    static let magic: [UInt8] = Array("TRAWLCT\0".utf8)
    public static let version: UInt32 = 1
    static let headerLength = 36

    /// The bytes of `catalog`.
    public static func encode(_ catalog: Catalog) -> [UInt8] {
        var body: [UInt8] = []
        TreeIndexFormat.appendVarint(UInt64(catalog.fields.count), to: &body)
        for field in catalog.fields {
            appendString(field.name, to: &body)
            TreeIndexFormat.appendVarint(UInt64(bitPattern: Int64(field.weight) << 1 ^ Int64(field.weight) >> 63), to: &body)
        }
        appendString(catalog.scopeAttribute ?? "", to: &body)
        let items = catalog.allItems
        TreeIndexFormat.appendVarint(UInt64(items.count), to: &body)
        for item in items {
            appendString(item.id, to: &body)
            TreeIndexFormat.appendVarint(UInt64(item.fields.count), to: &body)
            for (name, text) in item.fields.sorted(by: { $0.key < $1.key }) {
                appendString(name, to: &body)
                appendString(text, to: &body)
            }
            TreeIndexFormat.appendVarint(UInt64(item.attributes.count), to: &body)
            for (name, values) in item.attributes.sorted(by: { $0.key < $1.key }) {
                appendString(name, to: &body)
                TreeIndexFormat.appendVarint(UInt64(values.count), to: &body)
                for value in values { appendString(value, to: &body) }
            }
        }
        var out = magic
        TreeIndexFormat.appendUInt(UInt64(version), 4, to: &out)
        TreeIndexFormat.appendUInt(UInt64(body.count), 8, to: &out)
        TreeIndexFormat.appendUInt(TreeIndexFormat.checksum(body[...]), 8, to: &out)
        TreeIndexFormat.appendUInt(TreeIndexFormat.checksum(out[...]), 8, to: &out)
        return out + body
    }

    /// The catalog `bytes` hold; throws when they are not a catalog, of another version, truncated
    /// or corrupt.
    public static func decode(_ bytes: [UInt8]) throws(TreeIndexFormat.Error) -> Catalog {
        guard bytes.count >= headerLength, Array(bytes[0..<8]) == magic else { throw .notAnIndex }
        let version = UInt32(TreeIndexFormat.readUInt(bytes, 8, 4))
        guard version == Self.version else { throw .unsupportedVersion(version) }
        guard TreeIndexFormat.readUInt(bytes, 28, 8) == TreeIndexFormat.checksum(bytes[0..<28]) else { throw .corrupt("header checksum") }
        let length = TreeIndexFormat.readUInt(bytes, 12, 8)
        guard length == UInt64(bytes.count - headerLength) else { throw .corrupt("truncated") }
        guard TreeIndexFormat.readUInt(bytes, 20, 8) == TreeIndexFormat.checksum(bytes[headerLength...]) else { throw .corrupt("body checksum") }
        var reader = TreeIndexFormat.Reader(bytes: bytes, position: headerLength, end: bytes.count)
        var fields: [CatalogField] = []
        for _ in 0..<(try reader.count()) {
            let name = try string(&reader)
            fields.append(CatalogField(name, weight: try reader.zigzag()))
        }
        guard !fields.isEmpty else { throw .corrupt("no fields") }
        let scope = try string(&reader)
        var items: [CatalogItem] = []
        for _ in 0..<(try reader.count()) {
            var item = CatalogItem(id: try string(&reader))
            for _ in 0..<(try reader.count()) {
                let name = try string(&reader)
                item.fields[name] = try string(&reader)
            }
            for _ in 0..<(try reader.count()) {
                let name = try string(&reader)
                var values: [String] = []
                for _ in 0..<(try reader.count()) { values.append(try string(&reader)) }
                item.attributes[name] = values
            }
            items.append(item)
        }
        guard reader.position == bytes.count else { throw .corrupt("trailing bytes") }
        var catalog = Catalog(fields: fields, items: items)
        catalog.scopeAttribute = scope.isEmpty ? nil : scope
        return catalog
    }

    private static func appendString(_ string: String, to out: inout [UInt8]) {
        TreeIndexFormat.appendVarint(UInt64(string.utf8.count), to: &out)
        out += string.utf8
    }

    private static func string(_ reader: inout TreeIndexFormat.Reader) throws(TreeIndexFormat.Error) -> String {
        let bytes = try reader.bytes(try reader.count())
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .corrupt("text that is not UTF-8") }
        return text
    }
}

/// Where a catalog lives on disk and how it is written: `FOLDER/catalog`, replaced atomically.
public enum CatalogStore {
    /// The default folder, under the current folder's `.trawl/`.
    public static let defaultFolder: FilePath = ".trawl/catalog"

    /// The file holding the catalog stored in `folder`.
    public static func path(in folder: FilePath) -> FilePath { folder.appending("catalog") }

    /// Writes `catalog` into `folder` (created with its parents when missing), atomically.
    public static func save(_ catalog: Catalog, in folder: FilePath) throws(Errno) {
        try makeFolders(folder)
        try TreeIndexStore.writeAtomically(CatalogFormat.encode(catalog), to: path(in: folder))
    }

    /// Reads the catalog stored in `folder`.
    public static func load(from folder: FilePath) throws -> Catalog {
        let descriptor = try FileDescriptor.open(path(in: folder), .readOnly, options: .closeOnExec)
        let read = try descriptor.closeAfter { descriptor.readToEnd() }
        if let error = read.error { throw error }
        return try CatalogFormat.decode(read.bytes)
    }

    private static func makeFolders(_ folder: FilePath) throws(Errno) {
        var path = folder.root.map { FilePath(root: $0) } ?? FilePath()
        for component in folder.components {
            path.append(component)
            if case .failure = path.status() {
                guard path.withPlatformString({ mkdir($0, 0o755) }) == 0 || errno == EEXIST else { throw Errno(rawValue: errno) }
            }
        }
    }
}
