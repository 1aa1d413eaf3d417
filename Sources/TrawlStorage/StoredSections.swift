/// A stored body made of sections, each found through a table: the table first, then the
/// sections back to back, each starting at a multiple of 8 bytes so that a section of fixed-width
/// integers can be read as an array in place.
///
/// ```
/// table      u32 section count, u32 0, then per section: u64 offset (from the table's start),
///            u64 length, u64 checksum (FNV-1a over 8-byte words)
/// sections   each padded with zeros to a multiple of 8 bytes
/// ```
/// Integers are little-endian. A reader checks the table against the bytes it has and each
/// section's checksum when the section is asked for, so a section nobody reads costs nothing.
package enum StoredSections {
    /// Builds a body section by section.
    package struct Writer: Sendable {
        /// The sections' bytes in the parts they were given, padding included.
        private var sectionParts: [[UInt8]] = []
        private var lengths: [Int] = []
        private var checksums: [UInt64] = []

        package init() {}

        /// How many sections it has.
        package var count: Int { lengths.count }

        /// Appends a section holding `parts` back to back (not copied into one array: a large
        /// catalog's blocks are a hundred megabytes).
        package mutating func append(parts: [[UInt8]]) {
            var checksum = StoredFormat.Checksum()
            var length = 0
            for part in parts {
                checksum.add(part[...])
                length += part.count
            }
            checksums.append(checksum.value)
            lengths.append(length)
            sectionParts += parts
            if length % 8 != 0 { sectionParts.append([UInt8](repeating: 0, count: 8 - length % 8)) }
        }

        /// Appends a section holding `bytes`.
        package mutating func append(_ bytes: [UInt8]) { append(parts: [bytes]) }

        /// Appends a section holding `values` as they are in memory (little-endian here).
        package mutating func append<Element: FixedWidthInteger>(values: [Element]) {
            append(values.withUnsafeBytes { Array($0) })
        }

        /// The table, then the sections: the body's parts, back to back.
        package var parts: [[UInt8]] {
            var table: [UInt8] = []
            StoredFormat.appendUInt(UInt64(lengths.count), 4, to: &table)
            StoredFormat.appendUInt(0, 4, to: &table)
            var offset = 8 + 24 * lengths.count
            for index in lengths.indices {
                StoredFormat.appendUInt(UInt64(offset), 8, to: &table)
                StoredFormat.appendUInt(UInt64(lengths[index]), 8, to: &table)
                StoredFormat.appendUInt(checksums[index], 8, to: &table)
                offset += (lengths[index] + 7) / 8 * 8
            }
            return [table] + sectionParts
        }
    }

    /// Reads the sections of a body it does not own (the caller keeps the bytes alive).
    package struct Reader: @unchecked Sendable { // reads memory the owner keeps immutable
        private let body: UnsafeRawBufferPointer
        private let ranges: [Range<Int>]
        private let checksums: [UInt64]

        /// The table of `body` (8-byte aligned), checked: `expected` sections, each within the
        /// body, in order, without overlap.
        package init(body: UnsafeRawBufferPointer, expected: Int) throws(StoredFormatError) {
            guard body.count >= 8, Int(bitPattern: body.baseAddress) % 8 == 0 else { throw .corrupt("no section table") }
            let count = Int(StoredFormat.readUInt(body, 0, 4))
            guard count == expected, body.count >= 8 + 24 * count else { throw .corrupt("bad section table") }
            var ranges: [Range<Int>] = [], checksums: [UInt64] = []
            var end = 8 + 24 * count
            for index in 0..<count {
                let offset = StoredFormat.readUInt(body, 8 + 24 * index, 8), length = StoredFormat.readUInt(body, 16 + 24 * index, 8)
                guard offset % 8 == 0, offset >= UInt64(end), offset <= UInt64(body.count), length <= UInt64(body.count) - offset else {
                    throw .corrupt("a section outside the file")
                }
                ranges.append(Int(offset)..<Int(offset + length))
                checksums.append(StoredFormat.readUInt(body, 24 + 24 * index, 8))
                end = Int(offset + length)
            }
            self.body = body
            self.ranges = ranges
            self.checksums = checksums
        }

        /// Where section `index` lies in the body, its checksum not checked (a caller that
        /// reads it in parts checks each part its own way).
        package func range(_ index: Int) -> Range<Int> { ranges[index] }

        /// The bytes of section `index`, its checksum checked.
        package func bytes(_ index: Int) throws(StoredFormatError) -> UnsafeRawBufferPointer {
            let bytes = UnsafeRawBufferPointer(rebasing: body[ranges[index]])
            guard StoredFormat.checksum(bytes) == checksums[index] else { throw .corrupt("section \(index) checksum") }
            return bytes
        }

        /// Section `index` as integers of `type`, copied out; `count`, when given, is how many
        /// there must be.
        package func values<Element: FixedWidthInteger>(_ index: Int, as type: Element.Type, count: Int? = nil) throws(StoredFormatError) -> [Element] {
            let bytes = try bytes(index)
            let stride = MemoryLayout<Element>.stride
            guard bytes.count % stride == 0, count.map({ $0 == bytes.count / stride }) ?? true else { throw .corrupt("section \(index) length") }
            return [Element](unsafeUninitializedCapacity: bytes.count / stride) { buffer, initialized in
                if let base = buffer.baseAddress, let source = bytes.baseAddress { UnsafeMutableRawPointer(base).copyMemory(from: source, byteCount: bytes.count) }
                initialized = bytes.count / stride
            }
        }

        /// The bytes of section `index` copied into an array.
        package func array(_ index: Int) throws(StoredFormatError) -> [UInt8] { Array(try bytes(index)) }
    }
}
