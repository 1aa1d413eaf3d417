import TrawlMatch
import TrawlNGram

/// A Bloom filter of a text's four-byte windows, ASCII letters folded as in ``Trigram`` keys: it
/// answers "may this text hold the literal?" with no false negative.
///
/// For dense files — base64, certificates, minified or generated data — that hold nearly every
/// trigram a query has, so that the trigram index hands them to every search: four-byte windows
/// are 256 times sparser than trigrams, so a literal such a file lacks is nearly always ruled out.
/// Written here because no package this project may use has a Bloom filter; it is a few lines.
struct FourGramFilter: Sendable {
    /// The filter's bits.
    private let words: [UInt64]
    /// Bits a text's byte costs: about 3% false positives per window with three probes when every
    /// window is distinct, fewer when windows repeat.
    static let bitsPerByte = 8

    /// The filter of `text`.
    init(_ text: UnsafeBufferPointer<UInt8>) {
        var words = [UInt64](repeating: 0, count: Swift.max(1, (text.count * FourGramFilter.bitsPerByte + 63) / 64))
        if text.count >= 4 {
            let bitCount = UInt64(words.count * 64)
            words.withUnsafeMutableBufferPointer { words in
                var key: UInt32 = 0
                for index in 0..<text.count {
                    key = key << 8 | UInt32(Trigram.fold(text[index]))
                    guard index >= 3 else { continue }
                    for probe in 0..<FourGramFilter.probeCount {
                        let bit = FourGramFilter.bit(key, probe, bitCount)
                        words[Int(bit >> 6)] |= 1 << (bit & 63)
                    }
                }
            }
        }
        self.words = words
    }

    /// The bytes the filter holds.
    var byteCount: Int { words.count * 8 }

    /// Whether a text the filter was made of may satisfy `query`: false only when some literal
    /// the query needs (of four bytes or more) has a window the text lacks.
    func maySatisfy(_ query: LiteralQuery) -> Bool {
        switch query {
        case .all: true
        case .literal(let literal): mayContain(literal.bytes)
        case .and(let parts): parts.allSatisfy(maySatisfy)
        case .or(let parts): parts.contains(where: maySatisfy)
        }
    }

    /// Whether every four-byte window of `bytes` (folded) may be in the filter.
    func mayContain(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return true }
        let bitCount = UInt64(words.count * 64)
        var key: UInt32 = 0
        for index in bytes.indices {
            key = key << 8 | UInt32(Trigram.fold(bytes[index]))
            guard index >= 3 else { continue }
            for probe in 0..<FourGramFilter.probeCount {
                let bit = FourGramFilter.bit(key, probe, bitCount)
                if words[Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
            }
        }
        return true
    }

    /// Bits set per window.
    static let probeCount = 3

    /// Probe `probe`'s bit for a window's key: two multiplicative hashes combined (double
    /// hashing), mapped onto the bit count by a multiply-shift instead of a division.
    @inline(__always)
    private static func bit(_ key: UInt32, _ probe: Int, _ bitCount: UInt64) -> UInt64 {
        let first = UInt64(key) &* 0x9E37_79B9_7F4A_7C15, second = (UInt64(key) &* 0xC2B2_AE3D_27D4_EB4F) | 1
        return (first &+ UInt64(probe) &* second).multipliedFullWidth(by: bitCount).high
    }
}
