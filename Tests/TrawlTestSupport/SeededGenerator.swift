import Foundation

/// A small, fast, seedable generator (SplitMix64) so that property tests are reproducible.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Settings for property tests: a fixed seed and size in CI; `TRAWL_PROPERTY_SEED` and
/// `TRAWL_PROPERTY_SCALE` (a multiplier) run other or longer sequences.
public enum PropertyTestSettings {
    public static func seed(default value: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["TRAWL_PROPERTY_SEED"].flatMap { UInt64($0) } ?? value
    }
    public static var scale: Int {
        ProcessInfo.processInfo.environment["TRAWL_PROPERTY_SCALE"].flatMap { Int($0) } ?? 1
    }
}
