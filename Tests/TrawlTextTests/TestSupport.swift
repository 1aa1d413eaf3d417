import Foundation

/// A small, fast, seedable generator (SplitMix64) so that property tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Settings for property tests: a fixed seed and size in CI; `TRAWL_PROPERTY_SEED` and
/// `TRAWL_PROPERTY_SCALE` (a multiplier) run other or longer sequences.
enum PropertyTestSettings {
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["TRAWL_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 0x7261_7774
    }
    static var scale: Int {
        ProcessInfo.processInfo.environment["TRAWL_PROPERTY_SCALE"].flatMap { Int($0) } ?? 1
    }
}

/// Pieces random texts are made of: ASCII, two-, three- and four-byte scalars, emoji with
/// modifiers, and every kind of line ending including lone CR.
let textAlphabet: [String] = [
    "a", "b", "z", " ", "Q", "0", "_", "\n", "\r\n", "\r", "\n\r", "é", "ß", "Ж", "中", "文", "😀", "👍🏽",
    "🇫🇷", "e\u{301}", "\u{10FFFF}", "\t", "ab", "hello ", "world", "\r\r\n",
]

extension RandomNumberGenerator {
    mutating func text(maxPieces: Int) -> String {
        let count = Int.random(in: 0...maxPieces, using: &self)
        var result = ""
        for _ in 0..<count { result += textAlphabet.randomElement(using: &self)! }
        return result
    }
}

/// Moves an offset in UTF-8 bytes back to the start of its scalar.
func scalarBoundary(in bytes: [UInt8], atOrBefore offset: Int) -> Int {
    var offset = offset
    while offset > 0 && offset < bytes.count && bytes[offset] & 0xC0 == 0x80 { offset -= 1 }
    return offset
}

/// The directory of the shared resources beside the project, if present.
func sharedDirectory() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
}
