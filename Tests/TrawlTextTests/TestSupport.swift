import Foundation
@_exported import TrawlTestSupport
import TrawlText

extension PropertyTestSettings {
    static var seed: UInt64 { seed(default: 0x7261_7774) }
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
    while offset > 0 && offset < bytes.count && UTF8Bytes.isContinuation(bytes[offset]) { offset -= 1 }
    return offset
}

