import TrawlKernels

/// The forward index as a search reads it, item by item: a stored catalog's records
/// (``StoredForwardIndex``) for the items it was opened with, arrays in memory for the items added
/// since (all of them, for a catalog built or read whole).
struct ForwardIndexReader {
    /// The stored records, for the items numbered below `base`.
    let stored: StoredForwardIndex?
    /// The first item whose words are in the arrays (item `n`'s field `f` holds
    /// `words[bounds[(n - base) * (fieldCount + 1) + f] ..< bounds[... + f + 1]]`).
    let base: Int
    let words: [UInt32]
    let bounds: [UInt32]
    let lengths: [UInt32]
    let fieldCount: Int
    /// The stored items' lengths (a byte each, 255 for "read the record"), `base` of them.
    private let storedLengths: UnsafePointer<UInt8>?

    init(stored: StoredForwardIndex?, base: Int, words: [UInt32], bounds: [UInt32], lengths: [UInt32], fieldCount: Int) {
        self.stored = stored
        self.base = base
        self.words = words
        self.bounds = bounds
        self.lengths = lengths
        self.fieldCount = fieldCount
        storedLengths = stored?.slotCount == base ? stored?.lengthBytes : nil
    }

    /// How many words item `item` holds.
    func length(of item: Int) -> Int {
        if item < base {
            // The byte read here: going through `stored` copied the whole view onto the stack at
            // every call, a sixth of a one-letter query's time.
            if let storedLengths, item >= 0, case let length = storedLengths[item], length < 255 { return Int(length) }
            return stored?.length(of: item) ?? 0
        }
        return Int(lengths[item - base])
    }

    /// Whether some field of item `item` holds `count` words.
    func hasField(of item: Int, holding count: Int, scratch: inout [UInt32]) -> Bool {
        if item < base, let stored {
            if scratch.count != fieldCount { scratch = [UInt32](repeating: 0, count: fieldCount) }
            _ = stored.fieldLengths(of: item, into: &scratch)
            return scratch.contains(UInt32(truncatingIfNeeded: count))
        }
        let start = (item - base) * (fieldCount + 1)
        for field in 0..<fieldCount where Int(bounds[start + field + 1] &- bounds[start + field]) == count { return true }
        return false
    }

    /// Starts loading what tells where item `item`'s words are.
    func prefetchBounds(of item: Int) {
        if item < base, let stored { return stored.prefetchStart(of: item) }
        let stride = fieldCount + 1
        bounds.withUnsafeBytes { trawl_prefetch($0.baseAddress! + (item - base) * stride * 4, stride * 4) }
    }

    /// Starts loading item `item`'s words (reading where they are).
    func prefetchWords(of item: Int) {
        if item < base, let stored { return stored.prefetchRecord(of: item) }
        let stride = fieldCount + 1
        let start = Int(bounds[(item - base) * stride]), end = Int(bounds[(item - base) * stride + stride - 1])
        words.withUnsafeBytes { trawl_prefetch($0.baseAddress! + start * 4, min(end - start, 256) * 4) }
    }

    /// Calls `body` with item `item`'s words and its field bounds (`fieldCount + 1` positions in
    /// those words); a stored item is decoded into `words` and `bounds` first.
    func withWords<Result>(of item: Int, words scratchWords: inout [UInt32], bounds scratchBounds: inout [UInt32],
                           _ body: (UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>) -> Result) -> Result {
        if item < base, let stored {
            stored.decode(item, words: &scratchWords, bounds: &scratchBounds)
            return scratchWords.withUnsafeBufferPointer { words in scratchBounds.withUnsafeBufferPointer { bounds in body(words, bounds) } }
        }
        let start = (item - base) * (fieldCount + 1)
        return words.withUnsafeBufferPointer { words in
            bounds.withUnsafeBufferPointer { bounds in body(words, UnsafeBufferPointer(rebasing: bounds[start...(start + fieldCount)])) }
        }
    }
}
