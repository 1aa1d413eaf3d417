/// The 36-byte header every stored file begins with: an 8-byte magic, a u32 version, two u64
/// fields its format names (a body's length and checksum, a segment's counts), and a u64
/// checksum of the 28 bytes before it. Written and checked here once for the tree index's files,
/// stored catalogs and their changes.
package struct StoredHeader: Sendable {
    package static let length = 36

    package var version: UInt32
    package var first: UInt64
    package var second: UInt64

    package init(version: UInt32, first: UInt64, second: UInt64) {
        self.version = version
        self.first = first
        self.second = second
    }

    /// The header's bytes after `magic`.
    package func bytes(magic: [UInt8]) -> [UInt8] {
        var bytes = magic
        StoredFormat.appendUInt(UInt64(version), 4, to: &bytes)
        StoredFormat.appendUInt(first, 8, to: &bytes)
        StoredFormat.appendUInt(second, 8, to: &bytes)
        StoredFormat.appendUInt(StoredFormat.checksum(bytes[...]), 8, to: &bytes)
        return bytes
    }

    /// The header `bytes` begin with, checked: `magic` (else ``StoredFormatError/notAnIndex``),
    /// a version among `versions`, its own checksum.
    package init(checking bytes: [UInt8], magic: [UInt8], versions: ClosedRange<UInt32>) throws(StoredFormatError) {
        guard bytes.count >= Self.length, Array(bytes[0..<8]) == magic else { throw .notAnIndex }
        version = UInt32(StoredFormat.readUInt(bytes, 8, 4))
        guard versions.contains(version) else { throw .unsupportedVersion(version) }
        guard StoredFormat.readUInt(bytes, 28, 8) == StoredFormat.checksum(bytes[0..<28]) else { throw .corrupt("header checksum") }
        first = StoredFormat.readUInt(bytes, 12, 8)
        second = StoredFormat.readUInt(bytes, 20, 8)
    }

    /// The checksum a header's last eight bytes hold: what a stored catalog's changes name it by.
    package static func checksum(of bytes: [UInt8]) -> UInt64 { StoredFormat.readUInt(bytes, 28, 8) }
}
