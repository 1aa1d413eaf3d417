import Testing
@testable import TrawlIndex
import TrawlTestSupport
import TrawlStorage

/// A stored posting list decoded over its raw bytes: whole, or narrowed to the units of another
/// list, equal to the units it encodes; malformed lists refused.
@Suite struct EncodedPostingsTests {
    @Test func decodesWhatWasEncodedWholeOrNarrowed() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0xDEC0DE))
        for round in 0..<(500 * PropertyTestSettings.scale) {
            let limit = UInt32.random(in: 1...(round % 3 == 0 ? 300 : 1 << 22), using: &random)
            let units = (0..<Int.random(in: 0...80, using: &random)).map { _ in UInt32.random(in: 0..<limit, using: &random) }
            let list = Array(Set(units)).sorted()
            let bytes = encoded(list)
            #expect(EncodedPostings.units(bytes, 0..<bytes.count, limit: limit, within: nil) == list, "round \(round)")
            // Within: empty, below, above, between and over the list's units.
            let within = Array(Set((0..<Int.random(in: 0...40, using: &random)).map { _ in UInt32.random(in: 0..<limit, using: &random) }
                + list.filter { _ in Bool.random(using: &random) })).sorted()
            #expect(EncodedPostings.units(bytes, 0..<bytes.count, limit: limit, within: within) == list.filter(Set(within).contains), "round \(round)")
            // Surrounding bytes are not read.
            let padded = [0xFF, 0x80] + bytes + [0x81]
            #expect(EncodedPostings.units(padded, 2..<(2 + bytes.count), limit: limit, within: nil) == list, "round \(round)")
        }
    }

    @Test func refusesMalformedLists() {
        // A count, then gaps: 3 units 5, 7, 8.
        let good: [UInt8] = [3, 5, 2, 1]
        #expect(EncodedPostings.units(good, 0..<4, limit: 9, within: nil) == [5, 7, 8])
        #expect(EncodedPostings.units(good, 0..<4, limit: 8, within: nil) == nil, "a unit at the limit")
        #expect(EncodedPostings.units([3, 5, 0, 1], 0..<4, limit: 9, within: nil) == nil, "a gap of zero")
        #expect(EncodedPostings.units(good + [0], 0..<5, limit: 9, within: nil) == nil, "a byte after the last unit")
        #expect(EncodedPostings.units([9, 5, 2, 1], 0..<4, limit: 9, within: nil) == nil, "a count past the bytes")
        #expect(EncodedPostings.units([1] + [UInt8](repeating: 0x80, count: 10) + [1], 0..<12, limit: 9, within: nil) == nil, "a varint past ten bytes")
        #expect(EncodedPostings.units([2, 0x85], 0..<2, limit: 9, within: nil) == nil, "a varint cut off")
        #expect(EncodedPostings.units([], 0..<0, limit: 9, within: nil) == nil, "no count")
    }

    /// The format's encoding of one list: its count, then the gaps (the first unit whole).
    private func encoded(_ units: [UInt32]) -> [UInt8] {
        var bytes: [UInt8] = []
        StoredFormat.appendVarint(UInt64(units.count), to: &bytes)
        var last: UInt32 = 0
        for (position, unit) in units.enumerated() {
            StoredFormat.appendVarint(UInt64(position == 0 ? unit : unit - last), to: &bytes)
            last = unit
        }
        return bytes
    }
}
