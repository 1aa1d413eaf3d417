/// The `p`th percentile (0–100) of `sorted` (ascending), by the nearest rank; NaN when empty.
func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let k = max(0, min(sorted.count - 1, Int((p / 100 * Double(sorted.count) + 0.5).rounded()) - 1))
    return sorted[k]
}
