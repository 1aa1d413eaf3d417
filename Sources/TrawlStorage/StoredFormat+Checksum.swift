extension StoredFormat {
    /// ``StoredFormat/checksum(_:)`` of bytes that come in parts: the checksum of the parts
    /// back to back, without putting them back to back (a large catalog's blocks are written as
    /// they were made, not copied into one array first).
    package struct Checksum: Sendable {
        private var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        /// The bytes after the last whole 8-byte word, little-endian, and how many there are.
        private var pending: UInt64 = 0
        private var pendingCount = 0

        static let prime: UInt64 = 0x0000_0100_0000_01B3

        package init() {}

        /// Adds the next part.
        package mutating func add(_ bytes: ArraySlice<UInt8>) {
            bytes.withUnsafeBytes { add($0) }
        }

        mutating func add(_ raw: UnsafeRawBufferPointer) {
            var index = 0
            // Complete the word the previous part began.
            while pendingCount > 0, pendingCount < 8, index < raw.count {
                pending |= UInt64(raw[index]) << (8 * UInt64(pendingCount))
                pendingCount += 1
                index += 1
            }
            if pendingCount == 8 {
                hash = (hash ^ pending) &* Self.prime
                pending = 0
                pendingCount = 0
            }
            while index + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian) &* Self.prime
                index += 8
            }
            while index < raw.count {
                pending |= UInt64(raw[index]) << (8 * UInt64(pendingCount))
                pendingCount += 1
                index += 1
            }
        }

        /// The checksum of the parts added so far: their whole words, then their last bytes one
        /// at a time.
        package var value: UInt64 {
            var hash = hash
            for position in 0..<pendingCount { hash = (hash ^ (pending >> (8 * UInt64(position)) & 0xFF)) &* Self.prime }
            return hash
        }
    }
}
