import Testing
@testable import TrawlIndex
import TrawlTestSupport
import TrawlNGram

/// The segment builder of a tree's first build writes, byte for byte, the segment that
/// ``TreeIndexFormat/encodeSegment(_:)`` writes of the same files' posting lists.
@Suite struct SegmentBuilderTests {
    /// Distinct keys for a file: some from a small pool (shared by many files, long lists), some
    /// from anywhere in the 24-bit space (every first byte), none at times.
    func randomKeys(_ random: inout SeededGenerator, pool: [UInt32]) -> [UInt32] {
        var keys = Set<UInt32>()
        switch Int.random(in: 0..<10, using: &random) {
        case 0: break
        case 1: keys.insert(pool.randomElement(using: &random)!)
        default:
            for _ in 0..<Int.random(in: 1...400, using: &random) { keys.insert(pool.randomElement(using: &random)!) }
            for _ in 0..<Int.random(in: 0...200, using: &random) { keys.insert(UInt32.random(in: 0..<(1 << 24), using: &random)) }
        }
        return Array(keys).shuffled(using: &random)
    }

    @Test(arguments: [1, 2, 300, 1500])
    func buildsTheSegmentTheFormatWrites(fileCount: Int) {
        var random = SeededGenerator(seed: 0x5E6 &+ UInt64(fileCount))
        let pool = (0..<600).map { _ in UInt32.random(in: 0..<(1 << 24), using: &random) } + [0, 0xFFFFFF, 0x00FFFF, 0xFF0000]
        let files = (0..<fileCount).map { _ in randomKeys(&random, pool: pool) }
        // Numbered from 0 (a build), from 1,000, and with gaps (a merge keeps live files only).
        var gapped: [UInt32] = []
        for _ in 0..<fileCount { gapped.append((gapped.last.map { $0 + 1 } ?? 0) + UInt32.random(in: 0...3, using: &random)) }
        for numbers in [(0..<fileCount).map(UInt32.init), (0..<fileCount).map { 1_000 + UInt32($0) }, gapped] {
            var builder = SegmentBuilder()
            for (keys, number) in zip(files, numbers) { builder.add(SegmentBuilder.prepare(keys), number: number) }
            #expect(builder.fileCount == fileCount)
            #expect(builder.isEmpty == files.allSatisfy(\.isEmpty))
            let expected = TreeIndexFormat.encodeSegment(NGramIndex(units: zip(numbers, files).map { (number: $0, keys: $1) }))
            // Every first byte's postings counting-sorted, or sorted outright.
            for sortingBelow in [0, Int.max] {
                let built = builder.encode(sortingBucketsBelow: sortingBelow)
                // Where they first differ (comparing the arrays themselves would print megabytes).
                let common = min(built.count, expected.count)
                let firstDifference = (0..<common).first { built[$0] != expected[$0] } ?? (built.count == expected.count ? nil : common)
                #expect(firstDifference == nil, "\(fileCount) files from \(numbers.first ?? 0), sorting below \(sortingBelow): \(built.count) bytes, \(expected.count) expected")
            }
        }
    }

    @Test func preparingGroupsAFilesKeysByFirstByteAndMarksEachPart() {
        var random = SeededGenerator(seed: 0x5E7)
        let keys = Array(Set((0..<3000).map { _ in UInt32.random(in: 0..<(1 << 24), using: &random) }))
        let prepared = SegmentBuilder.prepare(keys)
        #expect(prepared.keys.sorted() == keys.sorted())
        #expect(prepared.keys.map { $0 >> 16 } == prepared.keys.map { $0 >> 16 }.sorted())
        #expect(prepared.partStarts.count == SegmentBuilder.parts + 1)
        for part in 0..<SegmentBuilder.parts {
            let firstBytes = (part * 256 / SegmentBuilder.parts)..<((part + 1) * 256 / SegmentBuilder.parts)
            #expect(prepared.keys[prepared.partStarts[part]..<prepared.partStarts[part + 1]].allSatisfy { firstBytes.contains(Int($0 >> 16)) })
        }
        #expect(prepared.partStarts.first == 0 && prepared.partStarts.last == keys.count)
    }
}
