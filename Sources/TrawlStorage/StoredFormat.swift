/// The encoding every stored file of the package shares (the tree index in TrawlIndex, stored
/// catalogs in TrawlCatalog): one checksum, one varint, one bounds-checked reader.
/// Integers are little-endian; varints are LEB128; "zigzag" maps signed to unsigned varints.
package enum StoredFormat {
    /// FNV-1a over little-endian 8-byte words (then the remaining bytes): fast enough to check
    /// every byte read.
    package static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    package static func checksum(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var checksum = Checksum()
        checksum.add(raw)
        return checksum.value
    }

    /// Appends `value` as a LEB128 varint.
    package static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    /// Appends the low `width` bytes of `value`, little-endian.
    package static func appendUInt(_ value: UInt64, _ width: Int, to out: inout [UInt8]) {
        for shift in 0..<width { out.append(UInt8(value >> (8 * UInt64(shift)) & 0xFF)) }
    }

    /// Reads `width` little-endian bytes at `offset`.
    package static func readUInt(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> UInt64 {
        bytes.withUnsafeBytes { readUInt($0, offset, width) }
    }

    package static func readUInt(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ width: Int) -> UInt64 {
        precondition(offset >= 0 && width >= 0 && offset + width <= bytes.count, "read within the bytes")
        var value: UInt64 = 0
        for shift in 0..<width { value |= UInt64(bytes[offset + shift]) << (8 * UInt64(shift)) }
        return value
    }

    /// Reads varints and bytes from a checked section, throwing ``StoredFormatError/corrupt(_:)`` past its end.
    package struct Reader {
        package let bytes: [UInt8]
        /// Where the next read starts.
        package var position = 0
        package var end: Int

        /// A reader of `bytes[position..<end]`.
        package init(bytes: [UInt8], position: Int = 0, end: Int) {
            // The reads past a check trust these bounds.
            precondition(position >= 0 && position <= end && end <= bytes.count, "a reader's range lies in its bytes")
            self.bytes = bytes
            self.position = position
            self.end = end
        }

        package mutating func byte() throws(StoredFormatError) -> UInt8 {
            guard position < end else { throw .corrupt("truncated") }
            defer { position += 1 }
            return bytes[position]
        }

        package mutating func bytes(_ count: Int) throws(StoredFormatError) -> ArraySlice<UInt8> {
            guard count >= 0, count <= end - position else { throw .corrupt("truncated") }
            defer { position += count }
            return bytes[position..<(position + count)]
        }

        package mutating func varint() throws(StoredFormatError) -> UInt64 {
            // With room for the longest varint, no check per byte: a manifest holds a hundred
            // thousand of them.
            if end - position >= 10 {
                let (value, length) = bytes.withUnsafeBufferPointer { buffer -> (UInt64, Int) in
                    var value: UInt64 = 0
                    for length in 0..<10 {
                        let byte = buffer[position + length]
                        value |= UInt64(byte & 0x7F) << (7 * UInt64(length))
                        if byte & 0x80 == 0 { return (value, length + 1) }
                    }
                    return (value, 0)
                }
                guard length > 0 else { throw .corrupt("bad varint") }
                position += length
                return value
            }
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

        /// Moves past `count` varints without reading their values (only where each ends).
        package mutating func skipVarints(_ count: Int) throws(StoredFormatError) {
            guard count > 0 else { return }
            let found = bytes.withUnsafeBufferPointer { buffer -> Int? in
                var left = count, index = position
                while index < end {
                    if buffer[index] & 0x80 == 0 {
                        left -= 1
                        if left == 0 { return index + 1 }
                    }
                    index += 1
                }
                return nil
            }
            guard let found else { throw .corrupt("truncated varints") }
            position = found
        }

        package mutating func zigzag() throws(StoredFormatError) -> Int {
            let value = try varint()
            return Int(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
        }

        /// A varint that counts things that follow (at least a byte each).
        package mutating func count() throws(StoredFormatError) -> Int {
            let value = try varint()
            guard value <= UInt64(end - position) else { throw .corrupt("bad count") }
            return Int(value)
        }

        /// Eight bytes, little-endian.
        package mutating func uint64() throws(StoredFormatError) -> UInt64 {
            guard end - position >= 8 else { throw .corrupt("truncated") }
            defer { position += 8 }
            return StoredFormat.readUInt(bytes, position, 8)
        }
    }
}

/// Why stored bytes are not a usable index or catalog.
public enum StoredFormatError: Error, Equatable, CustomStringConvertible {
    case notAnIndex
    case unsupportedVersion(UInt32)
    case corrupt(String)
    /// The manifest's authenticator does not match under this user's key: the index was
    /// built by someone else (it came with the tree), or damaged.
    case notMadeHere
    /// This user has no key to check an index with (`UserKey`): why.
    case noKey(String)
    /// What is stored is not what Trawl makes there (a link, a FIFO), or cannot be read: why.
    case unusable(String)

    /// What is wrong with the stored bytes, for a message.
    public var description: String {
        switch self {
        case .notAnIndex: "not a Trawl index"
        case .unsupportedVersion(let version): "format version \(version), which this Trawl does not read"
        case .corrupt(let why): "corrupt index (\(why))"
        case .notMadeHere: "an index this user did not build (it came with the tree, or it is damaged); not trusted"
        case .noKey(let why): "no key to check indexes with (\(why))"
        case .unusable(let why): why
        }
    }
}

