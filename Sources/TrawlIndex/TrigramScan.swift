import TrawlText

/// Reading the trigrams of a text.
enum TrigramScan {
    /// Calls `body` with the key of every trigram starting in `range` of `text` (the last ones
    /// read up to two bytes past the range, as far as the text goes), in order, repeats included.
    static func forEach(startingIn range: Range<Int>, of text: Rope, _ body: (UInt32) -> Void) {
        let end = min(range.upperBound + 2, text.utf8Count)
        guard end - range.lowerBound >= 3 else { return }
        var key: UInt32 = 0
        var read = 0
        for chunk in text.chunks(in: range.lowerBound..<end) {
            chunk.withUnsafeBytes { bytes in
                for byte in bytes {
                    key = Trigram.roll(key, byte)
                    read += 1
                    if read >= 3 { body(key) }
                }
            }
        }
    }

    /// The distinct trigrams starting in `range` of `text`; `seen` is scratch space (a bit per
    /// possible key), left clear.
    static func distinct(startingIn range: Range<Int>, of text: Rope, seen: inout TrigramBits) -> [Trigram] {
        var found: [Trigram] = []
        forEach(startingIn: range, of: text) { key in
            if seen.insert(key) { found.append(Trigram(key: key)) }
        }
        for trigram in found { seen.remove(trigram.key) }
        return found
    }
}

/// One bit per possible trigram key (2 MiB): a set that is cheap to fill and to clear again.
struct TrigramBits {
    private var words = [UInt64](repeating: 0, count: 1 << 18)

    /// Sets the bit; returns whether it was clear.
    @inline(__always) mutating func insert(_ key: UInt32) -> Bool {
        let word = Int(key >> 6), bit: UInt64 = 1 << UInt64(key & 63)
        return words.withUnsafeMutableBufferPointer { words in
            defer { words[word] |= bit }
            return words[word] & bit == 0
        }
    }

    @inline(__always) func contains(_ key: UInt32) -> Bool {
        words.withUnsafeBufferPointer { $0[Int(key >> 6)] & (1 << UInt64(key & 63)) != 0 }
    }

    @inline(__always) mutating func remove(_ key: UInt32) {
        words.withUnsafeMutableBufferPointer { $0[Int(key >> 6)] &= ~(1 << UInt64(key & 63)) }
    }
}
