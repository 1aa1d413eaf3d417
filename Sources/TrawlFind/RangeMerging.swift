extension Array where Element == Range<Int> {
    /// The ranges sorted, with those that overlap (or are identical, as two carets at one
    /// offset) merged into one; with `joiningTouching`, also those that only touch.
    func mergingOverlaps(joiningTouching: Bool = false) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in sorted(by: { ($0.lowerBound, $0.upperBound) < ($1.lowerBound, $1.upperBound) }) {
            if let last = merged.last,
               range.lowerBound < last.upperBound || range == last || (joiningTouching && range.lowerBound == last.upperBound) {
                merged[merged.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
