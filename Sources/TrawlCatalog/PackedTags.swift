import TrawlStorage

/// Field tags as ``encoded(_:)`` stored them, read where they lie: one beside each value of some
/// ``InPlaceLists``, numbered as those lists number their values.
///
/// A tag is the bits of the fields a word was found in, with ``Catalog/soleWordTag`` when it was
/// the field's only word. A fifth of a large catalog's index was tags, a byte each, so they are
/// stored in the fewest bits that hold them, the smallest of three kinds (the first byte):
///
/// ```
/// 0  a byte each
/// 1  two a byte (low nibble first): the first three fields' bits and the sole-word flag as bit 3
/// 2  u32 exception count n, n u32 places (ascending), n u8 tags, then four a byte (lowest bits
///    first): the first two fields' bits, or 0 where the exception at that place gives the tag
///    (most catalogs search a title and a body, and few of their words are a field's only one)
/// ```
///
/// A view: whoever made it keeps the bytes alive and unchanged.
struct PackedTags: @unchecked Sendable { // reads memory its owner keeps immutable
    private let stored: UnsafeRawBufferPointer
    private let kind: UInt8
    /// How many tags it holds.
    private let count: Int
    /// Kind 2: the places of the tags stored whole, ascending, and the tags.
    private let exceptionPlaces: UnsafeRawBufferPointer
    private let exceptionTags: UnsafeRawBufferPointer

    /// The `count` tags of `bytes`; nil when the bytes do not hold that many.
    init?(_ bytes: UnsafeRawBufferPointer, count: Int) {
        guard let kind = bytes.first, count >= 0 else { return nil }
        self.kind = kind
        self.count = count
        var rest = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        var places = UnsafeRawBufferPointer(start: nil, count: 0), tags = places
        switch kind {
        case 0: guard rest.count == count else { return nil }
        case 1: guard rest.count == (count + 1) / 2 else { return nil }
        case 2:
            guard rest.count >= 4 else { return nil }
            let exceptions = Int(StoredFormat.readUInt(rest, 0, 4))
            guard exceptions <= count, (rest.count - 4) / 5 >= exceptions, rest.count - 4 - 5 * exceptions == (count + 3) / 4 else { return nil }
            places = UnsafeRawBufferPointer(rebasing: rest[4..<(4 + 4 * exceptions)])
            tags = UnsafeRawBufferPointer(rebasing: rest[(4 + 4 * exceptions)..<(4 + 5 * exceptions)])
            rest = UnsafeRawBufferPointer(rebasing: rest[(4 + 5 * exceptions)...])
        default: return nil
        }
        stored = rest
        exceptionPlaces = places
        exceptionTags = tags
    }

    /// The tags numbered `first..<(first + count)`; nil when they are not all within it.
    func tags(from first: Int, count: Int) -> [UInt8]? {
        guard first >= 0, count >= 0, first <= self.count - count else { return nil }
        switch kind {
        case 0: return Array(stored[first..<(first + count)])
        case 1:
            return [UInt8](unsafeUninitializedCapacity: count) { tags, initialized in
                for index in 0..<count {
                    let nibble = stored[(first + index) / 2] >> (4 * UInt8((first + index) % 2)) & 0x0F
                    tags[index] = nibble & 0x07 | (nibble & 0x08) << 4
                }
                initialized = count
            }
        default:
            var tags = [UInt8](unsafeUninitializedCapacity: count) { tags, initialized in
                for index in 0..<count {
                    let place = first + index
                    tags[index] = stored[place / 4] >> (2 * UInt8(place % 4)) & 0x03
                }
                initialized = count
            }
            // The exceptions within, found by halving (their places ascend).
            let exceptions = exceptionTags.count
            var low = 0, high = exceptions
            while low < high {
                let middle = (low + high) / 2
                if Int(exceptionPlace(middle)) < first { low = middle + 1 } else { high = middle }
            }
            while low < exceptions {
                let place = Int(exceptionPlace(low))
                guard place < first + count else { break }
                // Places that do not ascend (a damaged file) are passed over, never out of range.
                if place >= first { tags[place - first] = exceptionTags[low] }
                low += 1
            }
            return tags
        }
    }

    private func exceptionPlace(_ index: Int) -> UInt32 { UInt32(StoredFormat.readUInt(exceptionPlaces, 4 * index, 4)) }

    /// `tags` as stored, in the smallest kind that holds them.
    static func encoded(_ tags: [UInt8]) -> [UInt8] {
        var smallest = [0] + tags
        if tags.allSatisfy({ $0 & 0x78 == 0 }) {
            var packed = [UInt8](repeating: 0, count: 1 + (tags.count + 1) / 2)
            packed[0] = 1
            for (index, tag) in tags.enumerated() { packed[1 + index / 2] |= (tag & 0x07 | tag >> 4) << (4 * UInt8(index % 2)) }
            smallest = packed
        }
        // Kind 2: a tag of the first two fields alone is its bits; any other is an exception.
        let isException = tags.map { $0 & 0x03 == 0 || $0 & ~0x03 != 0 }
        let exceptions = isException.indices.filter { isException[$0] }
        guard exceptions.count <= Int(UInt32.max), tags.count <= Int(UInt32.max), 5 + 5 * exceptions.count + (tags.count + 3) / 4 < smallest.count else { return smallest }
        var packed: [UInt8] = [2]
        StoredFormat.appendUInt(UInt64(exceptions.count), 4, to: &packed)
        for place in exceptions { StoredFormat.appendUInt(UInt64(place), 4, to: &packed) }
        for place in exceptions { packed.append(tags[place]) }
        let codes = packed.count
        packed += repeatElement(0, count: (tags.count + 3) / 4)
        for (index, tag) in tags.enumerated() where !isException[index] { packed[codes + index / 4] |= tag << (2 * UInt8(index % 4)) }
        return packed
    }
}
