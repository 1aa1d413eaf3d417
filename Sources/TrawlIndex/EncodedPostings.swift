/// A stored posting list decoded: its count, then its units ascending as LEB128 varint gaps (the
/// first one whole). One loop over the raw bytes, one byte per gap on the fast path: a question
/// to a tree's index decodes a hundred thousand units or more.
struct EncodedPostings {
    private let base: UnsafePointer<UInt8>
    private var position: Int
    private let end: Int

    /// Decodes the list in `bytes[range]`: its units (each below `limit`), or with `within`
    /// (ascending) only those also in `within`, decoded no further than its last. `nil` when
    /// the bytes are not such a list (as far as they are decoded: the part past `within`'s last
    /// unit is not read; the caller checks the whole list's checksum).
    static func units(_ bytes: [UInt8], _ range: Range<Int>, limit: UInt32, within: [UInt32]?) -> [UInt32]? {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "a list's range lies in its bytes")
        return bytes.withUnsafeBufferPointer { buffer -> [UInt32]? in
            guard let base = buffer.baseAddress else { return nil }
            var reader = EncodedPostings(base: base, position: range.lowerBound, end: range.upperBound)
            return reader.units(limit: limit, within: within)
        }
    }

    private init(base: UnsafePointer<UInt8>, position: Int, end: Int) {
        self.base = base
        self.position = position
        self.end = end
    }

    private mutating func units(limit: UInt32, within: [UInt32]?) -> [UInt32]? {
        // Each unit takes a byte at least.
        guard let count = varint(), count <= UInt64(end - position) else { return nil }
        var units: [UInt32] = []
        units.reserveCapacity(within.map { min($0.count, Int(count)) } ?? Int(count))
        // The next of `within` not yet passed.
        var next = 0
        var last: UInt64 = 0
        for index in 0..<Int(count) {
            guard let gap = varint(), index == 0 || gap > 0 else { return nil }
            let (unit, overflow) = last.addingReportingOverflow(gap)
            guard !overflow, unit < UInt64(limit) else { return nil }
            last = unit
            if let within {
                while next < within.count && UInt64(within[next]) < unit { next += 1 }
                // The rest of the list is past every unit kept: not decoded.
                guard next < within.count else { return units }
                if UInt64(within[next]) == unit { units.append(UInt32(unit)) }
            } else {
                units.append(UInt32(unit))
            }
        }
        return position == end ? units : nil
    }

    /// ``TreeIndexFormat/Reader/varint()`` over raw bytes, for speed: the same encoding and the
    /// same ten-byte limit, without a call or a thrown error per unit.
    @inline(__always)
    private mutating func varint() -> UInt64? {
        if position < end, base[position] < 0x80 {
            position += 1
            return UInt64(base[position - 1])
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < end && shift < 64 {
            let byte = base[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
