import TrawlStorage

/// Field tags as ``Catalog/packed(tags:)`` stored them, read where they lie: one beside each
/// value of some ``InPlaceLists``, numbered as those lists number their values.
///
/// A view: whoever made it keeps the bytes alive and unchanged.
struct PackedTags: @unchecked Sendable { // reads memory its owner keeps immutable
    private let stored: UnsafeRawBufferPointer
    private let isPacked: Bool
    /// How many tags it holds.
    private let count: Int

    /// The `count` tags of `bytes`; nil when the bytes do not hold that many.
    init?(_ bytes: UnsafeRawBufferPointer, count: Int) {
        guard let kind = bytes.first else { return nil }
        stored = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        isPacked = kind == 1
        self.count = count
        guard isPacked ? stored.count == (count + 1) / 2 : kind == 0 && stored.count == count else { return nil }
    }

    /// The tags numbered `first..<(first + count)`; nil when they are not all within it.
    func tags(from first: Int, count: Int) -> [UInt8]? {
        guard first >= 0, count >= 0, first <= self.count - count else { return nil }
        guard isPacked else { return Array(stored[first..<(first + count)]) }
        return [UInt8](unsafeUninitializedCapacity: count) { tags, initialized in
            for index in 0..<count {
                let nibble = stored[(first + index) / 2] >> (4 * UInt8((first + index) % 2)) & 0x0F
                tags[index] = Catalog.tag(nibble: nibble)
            }
            initialized = count
        }
    }
}
