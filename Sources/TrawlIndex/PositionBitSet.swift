/// A set of unit positions `0..<count` as one bit each: inserting and testing cost a shift, and
/// the members come out sorted without a sort.
struct PositionBitSet {
    private var words: [UInt64]

    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    /// Adds `position`; returns whether it was new.
    @discardableResult
    mutating func insert(_ position: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(position & 63)
        let old = words[position >> 6]
        words[position >> 6] = old | bit
        return old & bit == 0
    }

    /// The members, ascending.
    var sorted: [Int] {
        var result: [Int] = []
        for (index, word) in words.enumerated() {
            var bits = word
            while bits != 0 {
                result.append(index << 6 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return result
    }
}
