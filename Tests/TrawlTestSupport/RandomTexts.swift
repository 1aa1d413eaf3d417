// Random texts for property tests: pieces that exercise case folding, multi-byte scalars and every
// kind of line ending.

/// Pieces of random texts for matching: words the patterns look for, multi-byte scalars, case
/// variants that fold (ß, K as Kelvin sign, ſ), and every kind of line ending.
public let matchAlphabet: [String] = [
    "foo", "bar", "Foo", "FOO", "baz", "Error", "error", "ParseError", "func ", "struct ", "class ", "enum ",
    "protocol ", "running", "sing", "ab", "abc", "a", "b", "c", " ", "  ", "\t", "\n", "\r\n", "\r", ".", "(", ")",
    "_", "x1", "42", "é", "É", "straße", "STRASSE", "\u{212A}", "k", "K", "\u{17F}", "s", "Ж", "ж", "中文", "😀", "👍🏽",
    "e\u{301}", "eventLoop", "EventLoop", "EVENTLOOP", "-", "é+",
]

extension RandomNumberGenerator {
    public mutating func matchText(pieces: Int) -> [UInt8] {
        var text: [UInt8] = []
        for _ in 0..<Int.random(in: 0...pieces, using: &self) { text += Array(matchAlphabet.randomElement(using: &self)!.utf8) }
        return text
    }

    /// Cuts valid UTF-8 into chunks of random sizes at scalar boundaries.
    public mutating func chunks(of bytes: [UInt8], maxSize: Int) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            var end = min(bytes.count, start + Int.random(in: 1...maxSize, using: &self))
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            result.append(Array(bytes[start..<end]))
            start = end
        }
        return result
    }
}
