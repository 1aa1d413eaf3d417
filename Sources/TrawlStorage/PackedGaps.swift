/// Strictly ascending lists stored as the gaps between their values less one (the first value as
/// it is), in blocks of ``blockLength`` gaps packed at the width of the block's widest, then the
/// last gaps (fewer than a block) as varints: the layout Lucene and Tantivy give postings.
///
/// ```
/// block      u8 width w (0...32), then 128 gaps of w bits each, least significant bits first
///            (16 × w bytes)
/// tail       the remaining gaps, varints
/// ```
///
/// Dense lists (a common word's postings, a short prefix's items) have gaps of a few bits, which
/// varints store in a byte each; a block stores them in their bits, and unpacks faster than
/// varints decode. Short lists are varints, as before.
package enum PackedGaps {
    /// How many gaps a packed block holds.
    package static let blockLength = 128

    /// The fewest bytes a list of `count` values takes: a byte for each block, a byte for each
    /// value after the blocks.
    package static func fewestBytes(count: Int) -> Int { count / blockLength + count % blockLength }

    /// Appends `list` (strictly ascending, each value below `UInt32.max`) to `bytes`.
    package static func append(_ list: [UInt32], to bytes: inout [UInt8]) {
        var next: UInt32 = 0
        let blocks = list.count / blockLength
        var gaps = [UInt32](repeating: 0, count: blockLength)
        for block in 0..<blocks {
            var widest: UInt32 = 0
            for index in 0..<blockLength {
                let value = list[block * blockLength + index]
                gaps[index] = value - next
                widest |= gaps[index]
                next = value + 1
            }
            let width = UInt32.bitWidth - widest.leadingZeroBitCount
            bytes.append(UInt8(width))
            var pending: UInt64 = 0, held = 0
            for gap in gaps {
                pending |= UInt64(gap) << UInt64(held)
                held += width
                while held >= 8 {
                    bytes.append(UInt8(truncatingIfNeeded: pending))
                    pending >>= 8
                    held -= 8
                }
            }
        }
        for value in list[(blocks * blockLength)...] {
            StoredFormat.appendVarint(UInt64(value - next), to: &bytes)
            next = value + 1
        }
    }

    /// The `count` values of the list that starts `offset` bytes into `bytes`, each below
    /// `limit`; `offset` moves past it. Throws when the list does not fit the bytes, a width is
    /// past 32 bits or a value reaches `limit`.
    package static func decode(_ bytes: UnsafeRawBufferPointer, at offset: inout Int, count: Int,
                               below limit: UInt64) throws(StoredFormatError) -> [UInt32] {
        // Strictly ascending values below `limit` are fewer than it: no room is made for more.
        guard count >= 0, UInt64(count) <= limit, offset >= 0, offset <= bytes.count,
              bytes.count - offset >= fewestBytes(count: count) else { throw .corrupt("list values") }
        guard count > 0, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return [] }
        var position = offset
        let values = try [UInt32](unsafeUninitializedCapacity: count) { (list, initialized) throws(StoredFormatError) in
            var next: UInt64 = 0
            let blocks = count / blockLength
            for block in 0..<blocks {
                // The blocks before may have taken every byte (each takes 1 + 16 × width).
                guard position < bytes.count else { throw .corrupt("a packed list block") }
                let width = Int(base[position])
                position += 1
                guard width <= 32, bytes.count - position >= 16 * width else { throw .corrupt("a packed list block") }
                let first = block * blockLength
                if bytes.count - position >= 16 * width + 8 {
                    // Each gap read from the 8 bytes where it starts: no branch per value, and
                    // those 8 bytes lie within the list's section.
                    unpack(from: UnsafeRawPointer(base + position), width: width, into: list, at: first, next: &next)
                } else {
                    unpackByBytes(from: base + position, width: width, into: list, at: first, next: &next)
                }
                position += 16 * width
                // Checked a block at a time, so that the sum stays far from overflowing.
                guard next <= limit else { throw .corrupt("list values") }
            }
            let tail = UnsafeMutableBufferPointer(rebasing: list[(blocks * blockLength)...])
            var decoder = VarintDecoder(UnsafeRawBufferPointer(rebasing: bytes[position...]))
            _ = try decoder.decode(into: tail, ascending: false)
            position += decoder.offset
            for index in tail.indices {
                let value = next + UInt64(tail[index])
                tail[index] = UInt32(truncatingIfNeeded: value)
                next = value + 1
            }
            guard next <= limit else { throw .corrupt("list values") }
            initialized = count
        }
        offset = position
        return values
    }

    /// The values of a block of `width`-bit gaps at `packed`, from `next` on, into `list` from
    /// `first`; `next` moves past them. Reads 8 bytes at the start of each gap: the caller makes
    /// sure 8 bytes past the block are readable.
    @inline(__always)
    private static func unpack(from packed: UnsafeRawPointer, width: Int, into list: UnsafeMutableBufferPointer<UInt32>, at first: Int,
                               next: inout UInt64) {
        let mask: UInt64 = (1 << UInt64(width)) - 1
        var value = next
        for index in 0..<blockLength {
            let bit = index * width
            let word = UInt64(littleEndian: packed.loadUnaligned(fromByteOffset: bit >> 3, as: UInt64.self))
            value += word >> UInt64(bit & 7) & mask
            list[first + index] = UInt32(truncatingIfNeeded: value)
            value += 1
        }
        next = value
    }

    /// ``unpack(from:width:into:at:next:)`` a byte at a time, for a block at the end of its bytes.
    private static func unpackByBytes(from packed: UnsafePointer<UInt8>, width: Int, into list: UnsafeMutableBufferPointer<UInt32>, at first: Int,
                                      next: inout UInt64) {
        let mask: UInt64 = (1 << UInt64(width)) - 1
        var pending: UInt64 = 0, held = 0, position = 0
        for index in first..<(first + blockLength) {
            while held < width {
                pending |= UInt64(packed[position]) << UInt64(held)
                position += 1
                held += 8
            }
            next += pending & mask
            list[index] = UInt32(truncatingIfNeeded: next)
            next += 1
            pending >>= UInt64(width)
            held -= width
        }
    }
}
