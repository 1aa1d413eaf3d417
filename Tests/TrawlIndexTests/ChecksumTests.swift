import Testing
@testable import TrawlIndex
import TrawlStorage

@Suite struct ChecksumTests {
    /// The format's checksum written out plainly: FNV-1a over little-endian 8-byte words, then
    /// over the remaining bytes one at a time.
    static func plainChecksum(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        let words = bytes.count / 8
        for word in 0..<words {
            var value: UInt64 = 0
            for offset in 0..<8 { value |= UInt64(bytes[word * 8 + offset]) << (8 * UInt64(offset)) }
            hash = (hash ^ value) &* 0x0000_0100_0000_01B3
        }
        for byte in bytes[(words * 8)...] { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    @Test func theChecksumOfPartsIsTheChecksumOfTheWhole() {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0..<40) + [255, 256, 1000, 4099] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let whole = Self.plainChecksum(bytes)
            #expect(StoredFormat.checksum(bytes[...]) == whole, "length \(length)")
            for _ in 0..<20 {
                // Cut at random places, empty parts and parts shorter than a word included.
                var cuts = (0..<Int.random(in: 0...6, using: &generator)).map { _ in Int.random(in: 0...length, using: &generator) }
                cuts = ([0] + cuts + [length]).sorted()
                var checksum = StoredFormat.Checksum()
                for (start, end) in zip(cuts, cuts.dropFirst()) { checksum.add(bytes[start..<end]) }
                #expect(checksum.value == whole, "length \(length), cut at \(cuts)")
            }
        }
    }
}
