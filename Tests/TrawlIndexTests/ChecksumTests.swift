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

    /// The wide checksum written out plainly: each 32 bytes' four little-endian words into four
    /// FNV-1a lanes in turn, then FNV-1a over the lanes and the bytes after the last whole 32.
    static func plainWideChecksum(_ bytes: [UInt8]) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3, basis: UInt64 = 0xCBF2_9CE4_8422_2325
        var lanes = [UInt64](repeating: basis, count: 4)
        let blocks = bytes.count / 32
        for word in 0..<(blocks * 4) {
            var value: UInt64 = 0
            for offset in 0..<8 { value |= UInt64(bytes[word * 8 + offset]) << (8 * UInt64(offset)) }
            lanes[word % 4] = (lanes[word % 4] ^ value) &* prime
        }
        var hash = basis
        for lane in lanes { hash = (hash ^ lane) &* prime }
        for byte in bytes[(blocks * 32)...] { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    @Test func theWideChecksumOfPartsIsTheWideChecksumOfTheWhole() {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0..<70) + [255, 256, 1000, 4099] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let whole = Self.plainWideChecksum(bytes)
            #expect(bytes.withUnsafeBytes { StoredFormat.wideChecksum($0) } == whole, "length \(length)")
            for _ in 0..<20 {
                var cuts = (0..<Int.random(in: 0...6, using: &generator)).map { _ in Int.random(in: 0...length, using: &generator) }
                cuts = ([0] + cuts + [length]).sorted()
                var checksum = StoredFormat.WideChecksum()
                for (start, end) in zip(cuts, cuts.dropFirst()) { checksum.add(bytes[start..<end]) }
                #expect(checksum.value == whole, "length \(length), cut at \(cuts)")
            }
        }
    }
}
