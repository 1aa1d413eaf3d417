/// The stored form of a ``TreeIndex`` (version 1), laid out so that a query reads only the
/// header, the file table, the trigram table and the posting lists it needs. Integers are
/// little-endian; "varint" is LEB128.
///
/// ```
/// header (60 bytes)  "TRAWLIX\0", u32 version = 1, u64 files offset, u64 files length,
///                    u64 table offset, u64 trigram count, u64 postings offset,
///                    then u64 checksum of those 52 bytes
/// files              varint slots; per slot u8 present (0/1), and if present: varint path
///                    length, path (UTF-8, relative, '/'), varint size, varint modified
///                    (ns since the epoch, zigzag), varint inode; then u64 checksum
/// trigram table      per trigram, ascending: 3 key bytes, u32 list offset (from the postings
///                    offset), u32 list length, u64 list checksum; then u64 checksum
/// postings           per list: varint count, then the file numbers as gaps (the first as is)
/// ```
///
/// Every byte a reader uses is under a checksum (FNV-1a over 8-byte words), so a truncated,
/// corrupt or foreign file is refused with ``TreeIndexFormat/Error`` rather than trusted.
public enum TreeIndexFormat {
    public static let version: UInt32 = 1
    static let magic = Array("TRAWLIX\0".utf8)
    static let headerLength = 60
    static let tableEntryLength = 19

    /// Why stored bytes are not a usable index.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case notAnIndex
        case unsupportedVersion(UInt32)
        case corrupt(String)

        public var description: String {
            switch self {
            case .notAnIndex: "not a Trawl index"
            case .unsupportedVersion(let version): "index format version \(version), this Trawl reads \(TreeIndexFormat.version)"
            case .corrupt(let why): "corrupt index (\(why))"
            }
        }
    }

    /// The bytes of `index`.
    public static func encode(_ index: TreeIndex) -> [UInt8] {
        var files: [UInt8] = []
        appendVarint(UInt64(index.files.count), to: &files)
        for file in index.files {
            guard let file else {
                files.append(0)
                continue
            }
            files.append(1)
            let path = Array(file.path.utf8)
            appendVarint(UInt64(path.count), to: &files)
            files += path
            appendVarint(UInt64(file.size), to: &files)
            appendVarint(UInt64(bitPattern: Int64(file.modified) << 1 ^ Int64(file.modified) >> 63), to: &files)
            appendVarint(file.inode, to: &files)
        }
        appendUInt(checksum(files[...]), 8, to: &files)
        let keys = index.trigrams.postings.keys.sorted()
        var table: [UInt8] = [], postings: [UInt8] = []
        table.reserveCapacity(keys.count * tableEntryLength + 8)
        for key in keys {
            let start = postings.count
            let units = index.trigrams.postings[key]!.units
            appendVarint(UInt64(units.count), to: &postings)
            var last: UInt32 = 0
            for (position, unit) in units.enumerated() {
                appendVarint(UInt64(position == 0 ? unit : unit - last), to: &postings)
                last = unit
            }
            table += [UInt8(key >> 16), UInt8(key >> 8 & 0xFF), UInt8(key & 0xFF)]
            appendUInt(UInt64(start), 4, to: &table)
            appendUInt(UInt64(postings.count - start), 4, to: &table)
            appendUInt(checksum(postings[start...]), 8, to: &table)
        }
        appendUInt(checksum(table[...]), 8, to: &table)
        var out = magic
        appendUInt(UInt64(version), 4, to: &out)
        let filesOffset = headerLength, tableOffset = filesOffset + files.count, postingsOffset = tableOffset + table.count
        for value in [filesOffset, files.count, tableOffset, keys.count, postingsOffset] { appendUInt(UInt64(value), 8, to: &out) }
        appendUInt(checksum(out[...]), 8, to: &out)
        return out + files + table + postings
    }

    /// The index stored in `bytes`, every posting list read.
    public static func decode(_ bytes: [UInt8]) throws(Error) -> TreeIndex {
        let stored = try StoredTreeIndex(size: bytes.count) { offset, count throws(Error) in
            guard offset >= 0, count >= 0, offset + count <= bytes.count else { throw .corrupt("truncated") }
            return Array(bytes[offset..<(offset + count)])
        }
        return try stored.loadAll()
    }

    /// FNV-1a over little-endian 8-byte words (then the remaining bytes): fast enough to check
    /// every byte read.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        bytes.withUnsafeBytes { raw in
            var index = 0
            while index + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian) &* 0x0000_0100_0000_01B3
                index += 8
            }
            while index < raw.count {
                hash = (hash ^ UInt64(raw[index])) &* 0x0000_0100_0000_01B3
                index += 1
            }
        }
        return hash
    }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    static func appendUInt(_ value: UInt64, _ width: Int, to out: inout [UInt8]) {
        for shift in 0..<width { out.append(UInt8(value >> (8 * UInt64(shift)) & 0xFF)) }
    }

    static func readUInt(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> UInt64 {
        var value: UInt64 = 0
        for shift in 0..<width { value |= UInt64(bytes[offset + shift]) << (8 * UInt64(shift)) }
        return value
    }

    /// Reads varints and bytes from a checked section.
    struct Reader {
        let bytes: [UInt8]
        var position = 0
        var end: Int

        mutating func byte() throws(Error) -> UInt8 {
            guard position < end else { throw .corrupt("truncated") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func bytes(_ count: Int) throws(Error) -> ArraySlice<UInt8> {
            guard count >= 0, count <= end - position else { throw .corrupt("truncated") }
            defer { position += count }
            return bytes[position..<(position + count)]
        }

        mutating func varint() throws(Error) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = try byte()
                guard shift < 64 else { throw .corrupt("bad varint") }
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }

        /// A varint that counts things that follow (at least a byte each).
        mutating func count() throws(Error) -> Int {
            let value = try varint()
            guard value <= UInt64(end - position) else { throw .corrupt("bad count") }
            return Int(value)
        }
    }
}
