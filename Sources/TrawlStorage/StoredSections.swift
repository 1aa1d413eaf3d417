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
/// Section checksums are ``StoredFormat/Checksum`` or, when the writer was made with
/// `wideChecksums` (a stored catalog from version 5), ``StoredFormat/WideChecksum``.
package enum StoredSections {
    /// Builds a body section by section.
    package struct Writer: Sendable {
        /// The sections' bytes in the parts they were given, padding included.
        private var sectionParts: [[UInt8]] = []
        private var lengths: [Int] = []
        private var checksums: [UInt64] = []
        private let wideChecksums: Bool

        /// A writer whose section checksums are wide ones when `wideChecksums`.
        package init(wideChecksums: Bool = false) { self.wideChecksums = wideChecksums }

        /// How many sections it has.
        package var count: Int { lengths.count }

        /// Appends a section holding `parts` back to back (not copied into one array: a large
        /// catalog's blocks are a hundred megabytes).
        package mutating func append(parts: [[UInt8]]) {
            var checksum = StoredFormat.Checksum(), wide = StoredFormat.WideChecksum()
            var length = 0
            for part in parts {
                if wideChecksums { wide.add(part[...]) } else { checksum.add(part[...]) }
                length += part.count
            }
            checksums.append(wideChecksums ? wide.value : checksum.value)
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

        /// Appends a section holding `values` as varints (see ``Reader/varints(_:count:)``): a
        /// count, then each value, or, when `ascending`, each value's distance from the one before.
        package mutating func append(varints values: [UInt32], ascending: Bool = false) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(values.count * 2 + 10)
            StoredFormat.appendVarint(UInt64(values.count), to: &bytes)
            var previous: UInt32 = 0
            for value in values {
                StoredFormat.appendVarint(UInt64(ascending ? value - previous : value), to: &bytes)
                previous = value
            }
            append(bytes)
        }

        /// Appends two sections that let each of `lists` (strictly ascending values) be read
        /// where it lies (``InPlaceLists``): the lists' starts (running counts of values, then
        /// byte offsets, each as ``RecordStarts`` stores them, flat or grouped, whichever is
        /// smaller), and the lists back to back, each as ``PackedGaps`` stores it.
        package mutating func append(inPlaceLists lists: [[UInt32]]) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(lists.reduce(0) { $0 + $1.count } * 2)
            var counts: [UInt32] = [0], offsets: [UInt32] = [0]
            counts.reserveCapacity(lists.count + 1)
            offsets.reserveCapacity(lists.count + 1)
            var total = 0
            for list in lists {
                PackedGaps.append(list, to: &bytes)
                total += list.count
                precondition(total <= Int(UInt32.max) && bytes.count <= Int(UInt32.max), "lists of fewer than 4 Gi values and bytes")
                counts.append(UInt32(total))
                offsets.append(UInt32(bytes.count))
            }
            let (countLayout, countBytes) = RecordStarts.smaller(Array(counts.dropLast()), end: counts.last!)
            let (offsetLayout, offsetBytes) = RecordStarts.smaller(Array(offsets.dropLast()), end: offsets.last!)
            var starts: [UInt8] = []
            StoredFormat.appendUInt(UInt64(countBytes.count), 4, to: &starts)
            starts += [countLayout.rawValue, offsetLayout.rawValue, 0, 0]
            starts += countBytes
            starts += repeatElement(0, count: (4 - countBytes.count % 4) % 4)
            starts += offsetBytes
            append(starts)
            append(bytes)
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
        private let bodyBytes: UnsafeRawBufferPointer
        private let ranges: [Range<Int>]
        private let checksums: [UInt64]
        /// Whether the section checksums are wide ones.
        package let wideChecksums: Bool

        /// The table of `body` (8-byte aligned), checked: `expected` sections, each within the
        /// body, in order, without overlap.
        package init(body: UnsafeRawBufferPointer, expected: Int, wideChecksums: Bool = false) throws(StoredFormatError) {
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
            bodyBytes = body
            self.wideChecksums = wideChecksums
            self.ranges = ranges
            self.checksums = checksums
        }

        /// The body the sections lie in.
        package var body: UnsafeRawBufferPointer { bodyBytes }

        /// The checksum the table gives section `index`.
        package func checksum(_ index: Int) -> UInt64 { checksums[index] }

        /// The checksum of `bytes` of the kind this body's sections have.
        package func checksum(of bytes: UnsafeRawBufferPointer) -> UInt64 {
            wideChecksums ? StoredFormat.wideChecksum(bytes) : StoredFormat.checksum(bytes)
        }

        /// Where section `index` lies in the body, its checksum not checked (a caller that
        /// reads it in parts checks each part its own way).
        package func range(_ index: Int) -> Range<Int> { ranges[index] }

        /// The bytes of section `index`, its checksum checked.
        package func bytes(_ index: Int) throws(StoredFormatError) -> UnsafeRawBufferPointer {
            let bytes = UnsafeRawBufferPointer(rebasing: bodyBytes[ranges[index]])
            guard checksum(of: bytes) == checksums[index] else { throw .corrupt("section \(index) checksum") }
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

        /// Section `index` as ``Writer/append(varints:ascending:)`` wrote it; `count`, when given,
        /// is how many values there must be, and each must be below `limit` (see
        /// ``StoredSections/varints(in:ascending:count:below:what:)``).
        package func varints(_ index: Int, ascending: Bool = false, count: Int? = nil, below limit: UInt32 = .max) throws(StoredFormatError) -> [UInt32] {
            try StoredSections.varints(in: bytes(index), ascending: ascending, count: count, below: limit, what: "section \(index)")
        }

        /// The bytes of section `index` copied into an array.
        package func array(_ index: Int) throws(StoredFormatError) -> [UInt8] { Array(try bytes(index)) }
    }
}

extension StoredSections {
    /// The values `bytes` hold as ``Writer/append(varints:ascending:)`` wrote them (a section,
    /// wherever it was read from); `count`, when given, is how many there must be, and each must
    /// be below `limit`. Throws, naming `what`, on a varint past 32 bits or the bytes' end, a sum
    /// past 32 bits, another count or a value past the limit.
    package static func varints(in bytes: UnsafeRawBufferPointer, ascending: Bool = false, count: Int? = nil, below limit: UInt32 = .max,
                                what: String) throws(StoredFormatError) -> [UInt32] {
        var decoder = VarintDecoder(bytes)
        let stored = try decoder.count()
        guard count.map({ $0 == stored }) ?? true else { throw .corrupt("\(what) length") }
        let values = try [UInt32](unsafeUninitializedCapacity: stored) { (values, initialized) throws(StoredFormatError) in
            let largest = try decoder.decode(into: values, ascending: ascending)
            initialized = stored
            guard stored == 0 || largest < limit || limit == .max else { throw .corrupt("\(what) values") }
        }
        guard decoder.isAtEnd else { throw .corrupt("\(what) length") }
        return values
    }
}

/// Reads varints from bytes it does not own, each checked to fit 32 bits and the bytes.
package struct VarintDecoder {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    package var isAtEnd: Bool { position == bytes.count }

    /// How many bytes it has read.
    package var offset: Int { position }

    /// The next varint.
    @inline(__always)
    package mutating func next() throws(StoredFormatError) -> UInt32 {
        // Most values are one byte.
        if position < bytes.count, bytes[position] < 0x80 {
            position += 1
            return UInt32(bytes[position - 1])
        }
        var value: UInt32 = 0
        var shift: UInt32 = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            guard shift < 28 || (shift == 28 && byte < 0x10) else { throw .corrupt("a varint past 32 bits") }
            value |= UInt32(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw .corrupt("truncated varint")
    }

    /// Fills `values` with the next varints (when `ascending`, their running sums, which must
    /// fit 32 bits); returns the largest value. A loop of its own over the bytes: a catalog's
    /// forward index is ten million varints, most of them one or two bytes.
    package mutating func decode(into values: UnsafeMutableBufferPointer<UInt32>, ascending: Bool) throws(StoredFormatError) -> UInt32 {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            guard values.isEmpty else { throw .corrupt("truncated varint") }
            return 0
        }
        let end = bytes.count
        var position = position, largest: UInt32 = 0, sum: UInt64 = 0
        for index in 0..<values.count {
            guard position < end else { throw .corrupt("truncated varint") }
            var byte = base[position]
            position += 1
            var value = UInt32(byte & 0x7F)
            var shift: UInt32 = 7
            while byte >= 0x80 {
                guard position < end else { throw .corrupt("truncated varint") }
                byte = base[position]
                position += 1
                guard shift < 28 || (shift == 28 && byte < 0x10) else { throw .corrupt("a varint past 32 bits") }
                value |= UInt32(byte & 0x7F) << shift
                shift += 7
            }
            if ascending {
                sum += UInt64(value)
                guard sum <= UInt64(UInt32.max) else { throw .corrupt("a sum past 32 bits") }
                values[index] = UInt32(truncatingIfNeeded: sum)
            } else {
                largest = Swift.max(largest, value)
                values[index] = value
            }
        }
        self.position = position
        return ascending ? UInt32(truncatingIfNeeded: sum) : largest
    }

    /// The next `count` values of a strictly ascending list stored as the gaps between them less
    /// one (the first value as it is), each below `limit`.
    package mutating func ascendingList(count: Int, below limit: UInt64) throws(StoredFormatError) -> [UInt32] {
        try [UInt32](unsafeUninitializedCapacity: count) { (list, initialized) throws(StoredFormatError) in
            _ = try decode(into: list, ascending: false)
            initialized = count
            // The gaps less one become the values.
            var next: UInt64 = 0
            for position in 0..<count {
                let value = next + UInt64(list[position])
                list[position] = UInt32(truncatingIfNeeded: value)
                next = value + 1
            }
            guard next <= limit else { throw .corrupt("list values") }
        }
    }

    /// The next varint as a count of things that follow, a byte or more each.
    package mutating func count() throws(StoredFormatError) -> Int {
        let value = Int(try next())
        guard value <= bytes.count - position else { throw .corrupt("bad count") }
        return value
    }
}
