import TrawlKernels

/// The forward index as a search reads it, item by item: arrays in memory, or a stored catalog's
/// records (``StoredForwardIndex``).
enum ForwardIndexReader {
    case memory(words: [UInt32], bounds: [UInt32], lengths: [UInt32], fieldCount: Int)
    case stored(StoredForwardIndex)

    /// How many words item `item` holds.
    func length(of item: Int) -> Int {
        switch self {
        case let .memory(_, _, lengths, _): Int(lengths[item])
        case let .stored(stored): stored.length(of: item)
        }
    }

    /// Whether some field of item `item` holds `count` words.
    func hasField(of item: Int, holding count: Int, scratch: inout [UInt32]) -> Bool {
        switch self {
        case let .memory(_, bounds, _, fieldCount):
            let base = item * (fieldCount + 1)
            for field in 0..<fieldCount where Int(bounds[base + field + 1] &- bounds[base + field]) == count { return true }
            return false
        case let .stored(stored):
            if scratch.count != stored.fieldCount { scratch = [UInt32](repeating: 0, count: stored.fieldCount) }
            _ = stored.fieldLengths(of: item, into: &scratch)
            return scratch.contains(UInt32(truncatingIfNeeded: count))
        }
    }

    /// Starts loading what tells where item `item`'s words are.
    func prefetchBounds(of item: Int) {
        switch self {
        case let .memory(_, bounds, _, fieldCount):
            let stride = fieldCount + 1
            bounds.withUnsafeBytes { trawl_prefetch($0.baseAddress! + item * stride * 4, stride * 4) }
        case let .stored(stored): stored.prefetchStart(of: item)
        }
    }

    /// Starts loading item `item`'s words (reading where they are).
    func prefetchWords(of item: Int) {
        switch self {
        case let .memory(words, bounds, _, fieldCount):
            let stride = fieldCount + 1
            let start = Int(bounds[item * stride]), end = Int(bounds[item * stride + stride - 1])
            words.withUnsafeBytes { trawl_prefetch($0.baseAddress! + start * 4, min(end - start, 256) * 4) }
        case let .stored(stored): stored.prefetchRecord(of: item)
        }
    }

    /// Calls `body` with item `item`'s words and its field bounds (`fieldCount + 1` positions in
    /// those words); a stored item is decoded into `words` and `bounds` first.
    func withWords<Result>(of item: Int, words scratchWords: inout [UInt32], bounds scratchBounds: inout [UInt32],
                           _ body: (UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>) -> Result) -> Result {
        switch self {
        case let .memory(words, bounds, _, fieldCount):
            let base = item * (fieldCount + 1)
            return words.withUnsafeBufferPointer { words in
                bounds.withUnsafeBufferPointer { bounds in body(words, UnsafeBufferPointer(rebasing: bounds[base...(base + fieldCount)])) }
            }
        case let .stored(stored):
            stored.decode(item, words: &scratchWords, bounds: &scratchBounds)
            return scratchWords.withUnsafeBufferPointer { words in scratchBounds.withUnsafeBufferPointer { bounds in body(words, bounds) } }
        }
    }
}
